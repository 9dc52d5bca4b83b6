// What package.json promises, checked without packing (tests/package/pack.test.ts packs): the package is
// publishable; its version is the contract's (one number, bumped as `npm run diff` decides for info.version);
// every page that names a minimum Node names engines' floor. The package README: tests/package/readme.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { versionProblems } from '../../scripts/ci/version.ts';
import { nodeFloor, nodeVersionProblem } from '../../src/package-info.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const PACKAGE = JSON.parse(read('package.json')) as Record<string, any>;
const bundle = (file: string) => JSON.parse(read(`generated/${file}`)) as { info: { version: string } };

describe('package.json', () => {
  it('is publishable: not private, public on the registry, with a repository and the docs address', () => {
    expect(PACKAGE.private).toBeUndefined();
    expect(PACKAGE.publishConfig).toMatchObject({ access: 'public' });
    expect(PACKAGE.repository.url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
    expect(PACKAGE.homepage).toMatch(/^https:\/\//);
    expect(PACKAGE.exports['./testing']).toEqual({ types: './dist/testing/index.d.ts', default: './dist/testing/index.js' });
  });

  it("has the contract's version: info.version of both documents (npm run diff decides the bump)", () => {
    expect(PACKAGE.version).toBe(bundle('openapi.json').info.version);
    expect(PACKAGE.version).toBe(bundle('asyncapi.json').info.version);
    expect(versionProblems(ROOT)).toEqual([]);
    expect(versionProblems(ROOT, `v${PACKAGE.version}`)).toEqual([]);
    expect(versionProblems(ROOT, 'v0.1.0')).toEqual([
      `the tag v0.1.0 does not name the package's version ${PACKAGE.version} (expected v${PACKAGE.version})`,
    ]);
  });

  it('npm run check:version names a package version that is not the contract’s', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'version-'));
    try {
      fs.mkdirSync(path.join(dir, 'generated'));
      for (const file of ['generated/openapi.json', 'generated/asyncapi.json'])
        fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...PACKAGE, version: '0.1.0' }));
      const contract = bundle('openapi.json').info.version;
      expect(versionProblems(dir)[0]).toBe(
        `package.json version 0.1.0 is not generated/openapi.json's info.version ${contract}: set both to the version npm run diff requires`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('one Node floor', () => {
  const [major, minor] = nodeFloor();
  const floor = `${major}.${minor}`;

  it('engines names the Node that runs node:sqlite without a flag; older ones get the one line', () => {
    expect(floor).toBe('22.13');
    expect(nodeVersionProblem('x', '20.20.2')).toBe(`x needs Node.js ${floor} or later (for node:sqlite); this is Node.js 20.20.2.`);
    expect(nodeVersionProblem('x', '22.12.9')).toBeDefined();
    for (const ok of ['22.13.0', '22.18.1', '24.21.0', '25.0.0']) expect(nodeVersionProblem('x', ok)).toBeUndefined();
  });

  it('README, the guides and the package README name that floor wherever they name a minimum Node', () => {
    const pages = [
      'README.md',
      ...fs
        .readdirSync(path.join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const named: string[] = [];
    for (const page of pages) {
      for (const m of read(page).matchAll(/Node(?:\.js)?\s*\(?\s*(\d+(?:\.\d+)*)\s*(?:or later|and later|\+|or newer)/gi)) {
        named.push(`${page}: ${m[0]}`);
        expect(`${page}: ${m[1]}`).toBe(`${page}: ${floor}`);
      }
    }
    for (const page of ['README.md', 'docs/package-readme.md', 'docs/quickstart.md', 'docs/client.md', 'docs/testing.md']) {
      expect(
        named.some((n) => n.startsWith(`${page}:`)),
        `${page} names the Node it needs`,
      ).toBe(true);
    }
  });
});
