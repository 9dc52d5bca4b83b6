// The workflows lint with zero problems and no warning under redocly.yaml (recommended-strict's Arazzo rules and
// the house rules: every workflow names its rules, every step says what it checks), as `npm run lint` runs it;
// and the house rules refuse a workflow without x-rules and a step without a description.
import fs from 'node:fs';
import { expect, it } from 'vitest';
import { workflowSources } from '../../scripts/build/workflows.ts';
import { redocly } from '../../scripts/lib/redocly.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import { copyWorkspace, edit } from '../contract/helpers.ts';

it('spec/workflows lints with zero problems and no warning', async () => {
  const result = await redocly(['lint', ...workflowSources(ROOT), '--format', 'stylish'], ROOT);
  expect(result.code, result.output).toBe(0);
  expect(result.output).not.toMatch(/\bwarning\b/i);
});

it('a workflow without x-rules, and a step without a description, are refused', async () => {
  const ws = copyWorkspace();
  try {
    edit(ws, 'spec/workflows/cards.arazzo.yaml', (t) =>
      t
        .replace(
          / {4}x-rules:\n {6}- \{ section: 'States and transitions \/ Card', rule: '\(card requested by POST \/cards\) → active[^\n]*\n/,
          '',
        )
        .replace(/ {8}description: Outcomes of this account wait to be chosen through the simulation API\.\n/, ''),
    );
    const result = await redocly(['lint', 'spec/workflows/cards.arazzo.yaml', '--format', 'stylish'], ws);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('Every workflow names the rules of the interface document it checks (`x-rules`).');
    expect(result.output).toContain('Every step has a `description` saying what it checks.');
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});
