// The build fails well: a failed step leaves generated/ as it was, errors point at spec/ files and lines,
// a YAML typo is one line, and an unknown flag is a usage error.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildAndInstall, BuildError, buildToTemp } from '../../scripts/build/build.ts';
import { SourceMap } from '../../scripts/build/source-location.ts';
import { OUTPUTS, ROOT } from '../../scripts/lib/paths.ts';
import { workflowOutputs } from '../../scripts/build/workflows.ts';
import { copyWorkspace, edit } from '../contract/helpers.ts';

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

/** A copy of the workspace with generated/ too, so that a build can (fail to) replace it. */
function workspace(): string {
  const dir = copyWorkspace();
  temps.push(dir);
  fs.cpSync(path.join(ROOT, 'generated'), path.join(dir, 'generated'), { recursive: true });
  return dir;
}
const snapshot = (dir: string) =>
  Object.fromEntries(
    (fs.readdirSync(path.join(dir, 'generated'), { recursive: true }) as string[])
      .filter((f) => fs.statSync(path.join(dir, 'generated', f)).isFile())
      .sort()
      .map((f) => [f, fs.readFileSync(path.join(dir, 'generated', f), 'utf8')]),
  );
const lineOf = (ws: string, file: string, text: string) =>
  fs
    .readFileSync(path.join(ws, file), 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(text)) + 1;

describe.concurrent('npm run build fails well', { timeout: 180_000 }, () => {
  it('a bundle that fails validation leaves generated/ untouched, and names the spec/ file and line', async () => {
    const ws = workspace();
    const before = snapshot(ws);
    // Redocly's AsyncAPI `struct` rule is off (redocly.yaml), so only the AsyncAPI 3.0 schema sees this, in the
    // bundle: in the operation template, so in every operation, all written on the line of `operations: {}`.
    edit(ws, 'spec/events/templates.yaml', (t) => t.replace('action: send', 'action: publish'));
    const error = await buildAndInstall(ws).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildError);
    const line = lineOf(ws, 'spec/asyncapi.yaml', 'operations: {}');
    expect((error as BuildError).problems).toEqual([
      expect.stringMatching(new RegExp(`^spec/asyncapi\\.yaml:${line}: "action" property must be equal to one of the allowed values`)),
    ]);
    expect(snapshot(ws)).toEqual(before);
    expect(fs.readdirSync(path.join(ws, 'generated')).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('an error in a shared schema, found by the validator at every place it is used, is one line at its source', async () => {
    const ws = workspace();
    edit(ws, 'spec/components/schemas/VerificationLevel.yaml', (t) => t.replace(/^type: string$/m, 'type: 42'));
    // Without the lint, which would report it first: this is what the bundle validators see.
    const error = await buildToTemp(ws, { lint: false, validate: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).problems).toEqual([
      expect.stringMatching(
        /^spec\/components\/schemas\/VerificationLevel\.yaml:1: "type" property must be equal to one of the allowed values: "array", .* \(in generated\/asyncapi\.json#\/components\/schemas\/VerificationLevel\/type\)$/,
      ),
    ]);
  });

  it('a marker of x-plans naming no table is one line naming it', async () => {
    const ws = workspace();
    edit(ws, 'spec/openapi.yaml', (t) => t.replace('<!-- x-plans: limits -->', '<!-- x-plans: prices -->'));
    const error = await buildToTemp(ws).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).problems).toEqual([expect.stringMatching(/^openapi: <!-- x-plans: prices -->: no such table/)]);
  });

  it('a YAML typo in a component is one line naming the file, line and column', async () => {
    const ws = workspace();
    const before = snapshot(ws);
    edit(ws, 'spec/components/schemas/Card.yaml', (t) => t.replace(/^properties:$/m, 'properties: ['));
    const error = await buildAndInstall(ws).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).message.split('\n')).toEqual([
      'YAML parsing failed:',
      expect.stringMatching(/^ {2}- spec\/components\/schemas\/Card\.yaml:\d+:\d+: YAML syntax error: \S.*$/),
    ]);
    expect(snapshot(ws)).toEqual(before);
  });

  it('a successful build replaces generated/ with what spec/ builds', async () => {
    const ws = workspace();
    fs.writeFileSync(path.join(ws, 'generated', 'openapi.json'), '{}\n');
    const files = await buildAndInstall(ws);
    expect(files.sort()).toEqual([...OUTPUTS, ...workflowOutputs(ws)].sort());
    expect(snapshot(ws)).toEqual(snapshot(ROOT));
  });
});

describe('bundle pointers map back to spec/', () => {
  const sources = new SourceMap(ROOT);
  it('a hoisted component: its own file', () => {
    expect(sources.locate('spec/openapi.yaml', '#/components/schemas/Card/properties/customer_code')).toEqual({
      file: 'spec/components/schemas/Card.yaml',
      line: lineOf(ROOT, 'spec/components/schemas/Card.yaml', '  customer_code:'),
    });
  });
  it('an operation: its Path Item file, through the root $ref', () => {
    expect(sources.locate('spec/openapi.yaml', '#/paths/~1cards~1{code}~1withdraw/post/summary')).toEqual({
      file: 'spec/paths/cards_{code}_withdraw.yaml',
      line: lineOf(ROOT, 'spec/paths/cards_{code}_withdraw.yaml', 'summary: Withdraw from a card'),
    });
  });
  it('a place the source does not have: the nearest enclosing node', () => {
    expect(sources.locate('spec/openapi.yaml', '#/paths/~1cards~1{code}~1withdraw/post/no-such-key')?.file).toBe(
      'spec/paths/cards_{code}_withdraw.yaml',
    );
  });
});

describe('npm run build (CLI)', () => {
  it('an unknown flag exits 2 with one line naming it, and the usage; nothing is built', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build/cli.ts'), '--chek'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const [first, ...rest] = r.stderr.trimEnd().split('\n');
    expect(first).toBe('build: unknown option --chek (did you mean --check?)');
    expect(rest[0]).toMatch(/^Usage: npm run build/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('the cache of the slow steps', () => {
  it('keys a step by the content of its input, and is off with CONTRACT_BUILD_CACHE=off', async () => {
    const { recall, remember, stepKey } = await import('../../scripts/build/cache.ts');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-cache-'));
    temps.push(dir);
    const file = path.join(dir, 'bundle.json');
    fs.writeFileSync(file, `{"n":${process.pid},"t":${Date.now()}}`);
    const key = stepKey('test-step', file);
    expect(recall(key)).toBeUndefined();
    remember(key, 'valid');
    expect(recall(key)).toBe('valid');
    expect(stepKey('other-step', file)).not.toBe(key);
    fs.appendFileSync(file, ' ');
    expect(stepKey('test-step', file)).not.toBe(key);
    process.env['CONTRACT_BUILD_CACHE'] = 'off';
    try {
      expect(recall(key)).toBeUndefined();
    } finally {
      delete process.env['CONTRACT_BUILD_CACHE'];
    }
  });
});
