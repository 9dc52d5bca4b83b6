// Both documents lint with zero problems under redocly.yaml (recommended-strict and the house rules), as the
// build reads them (the hand-written spec/ with its lists of events written in), and so do the bundles the
// build writes; the OpenAPI bundle also lints with zero problems under .spectral.yaml (spectral:oas, OWASP,
// house rules): npm run lint.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { assembleWorkspace } from '../../scripts/build/assemble.ts';
import { lint, lintBundles } from '../../scripts/lib/redocly.ts';
import { spectralLint } from '../../scripts/lib/spectral.ts';
import { APIS, ROOT } from '../../scripts/lib/paths.ts';
import { built } from './helpers.ts';

const workspace = process.env['CONTRACT_WORKSPACE'] ?? ROOT;
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

it('spec/openapi.yaml and spec/asyncapi.yaml lint with zero problems (npm run lint, Redocly)', async () => {
  const assembled = assembleWorkspace(workspace);
  temps.push(assembled);
  const result = await lint(assembled, APIS, ['--format', 'stylish']);
  expect(result.code, result.output).toBe(0);
  expect(result.output).not.toMatch(/\bwarning\b/);
});

it('the bundles lint with zero problems (npm run lint, Redocly)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-lint-'));
  temps.push(dir);
  for (const api of APIS) fs.copyFileSync(path.join(built().dir, `${api}.yaml`), path.join(dir, `${api}.yaml`));
  const result = await lintBundles(workspace, dir, APIS, ['--format', 'stylish']);
  expect(result.code, result.output).toBe(0);
  expect(result.output).not.toMatch(/\bwarning\b/);
});

it('the OpenAPI bundle lints with zero problems (npm run lint, Spectral with the OWASP ruleset)', async () => {
  const result = await spectralLint(path.join(built().dir, 'openapi.json'), ['--format', 'text']);
  expect(result.code, result.output).toBe(0);
});
