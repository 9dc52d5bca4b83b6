// docs/testing.md, "Fixtures and snapshots", run as printed: its fixture file and its test file, with the package's
// entries (`@partner-api/contract`, `/sandbox`, `/testing`) mapped to their sources in this repository. The guide's
// tests register here, so they pass or fail as this file's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { fencedBlocks } from '../docs/guide-runner.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const GUIDE = fs.readFileSync(path.join(ROOT, 'docs', 'testing.md'), 'utf8');
const SECTION = GUIDE.slice(
  GUIDE.indexOf('## Fixtures and snapshots'),
  GUIDE.indexOf('\n## ', GUIDE.indexOf('## Fixtures and snapshots') + 3),
);
const blocks = fencedBlocks(SECTION);
const fixture = blocks.find((b) => b.info === 'json file=fixture.json');
const test = blocks.find((b) => b.info === 'ts');

/** The package's entries, by their name in the guide, as the sources they are built from. */
const ENTRIES: [string, string][] = [
  ['@partner-api/contract/sandbox', 'src/sandbox/index.ts'],
  ['@partner-api/contract/testing', 'src/testing/index.ts'],
  ['@partner-api/contract', 'src/client/index.ts'],
];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-fixtures-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('docs/testing.md: Fixtures and snapshots', async () => {
  expect(fixture, 'the section has a `json file=fixture.json` block').toBeDefined();
  expect(test, 'the section has a `ts` block').toBeDefined();
  fs.writeFileSync(path.join(dir, 'fixture.json'), fixture!.code);
  let code = test!.code;
  for (const [name, source] of ENTRIES) code = code.replaceAll(`'${name}'`, `'${path.join(ROOT, source)}'`);
  fs.writeFileSync(path.join(dir, 'fixtures.test.ts'), code);
  await import(path.join(dir, 'fixtures.test.ts'));
});
