// Both documents lint with zero problems under redocly.yaml (recommended-strict and the house rules), and
// the OpenAPI bundle with zero problems under .spectral.yaml (spectral:oas, OWASP, house rules): npm run lint.
import path from 'node:path';
import { expect, it } from 'vitest';
import { lint } from '../../scripts/lib/redocly.ts';
import { spectralLint } from '../../scripts/lib/spectral.ts';
import { APIS, ROOT } from '../../scripts/lib/paths.ts';
import { built } from './helpers.ts';

const workspace = process.env['CONTRACT_WORKSPACE'] ?? ROOT;

it('spec/openapi.yaml and spec/asyncapi.yaml lint with zero problems (npm run lint, Redocly)', async () => {
  const result = await lint(workspace, APIS, ['--format', 'stylish']);
  expect(result.code, result.output).toBe(0);
  expect(result.output).not.toMatch(/\bwarning\b/);
});

it('the OpenAPI bundle lints with zero problems (npm run lint, Spectral with the OWASP ruleset)', async () => {
  const result = await spectralLint(path.join(built().dir, 'openapi.json'), ['--format', 'text']);
  expect(result.code, result.output).toBe(0);
});
