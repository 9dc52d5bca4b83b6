// Both documents lint with zero problems under redocly.yaml (recommended-strict and the house rules).
import { expect, it } from 'vitest';
import { lint } from '../../scripts/lib/redocly.ts';
import { APIS, ROOT } from '../../scripts/lib/paths.ts';

it('spec/openapi.yaml and spec/asyncapi.yaml lint with zero problems (npm run lint)', async () => {
  const workspace = process.env['CONTRACT_WORKSPACE'] ?? ROOT;
  const result = await lint(workspace, APIS, ['--format', 'stylish']);
  expect(result.code, result.output).toBe(0);
  expect(result.output).not.toMatch(/\bwarning\b/);
});
