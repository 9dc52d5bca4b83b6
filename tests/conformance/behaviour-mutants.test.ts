// The workflows catch behaviour: against each behavioural mutant of the sandbox (one documented rule broken,
// every answer well-shaped: broken-servers/behaviour-mutants.ts) a step of the workflows fails that passes
// against the sandbox itself, and it is the step named for that mutant. The steps that already fail against the
// sandbox (its known defects) do not count as catching anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowResult } from '../../scripts/conformance/workflows.ts';
import { BEHAVIOUR_MUTANTS } from './broken-servers/behaviour-mutants.ts';
import { startWorkflowSandbox, type WorkflowSandbox } from './workflow-run.ts';

/** `workflowId › step` of every failed step, and `workflowId › events` when an event check failed. */
function failures(results: readonly WorkflowResult[]): Set<string> {
  const failed = new Set<string>();
  for (const r of results) {
    for (const s of r.steps) if (s.outcome === 'failed') failed.add(`${r.workflowId} › ${s.step}`);
    if (r.events.some((e) => e.outcome === 'failed')) failed.add(`${r.workflowId} › events`);
    if (r.outcome === 'failed' && r.steps.length === 0) failed.add(`${r.workflowId} › (${r.reason ?? 'not run'})`);
  }
  return failed;
}

let workflows: WorkflowSandbox;
let baseline: Set<string>;
const only = [...new Set(BEHAVIOUR_MUTANTS.flatMap((m) => m.workflows))];

beforeAll(async () => {
  workflows = await startWorkflowSandbox();
  baseline = failures(await workflows.run({ only }));
}, 120_000);
afterAll(() => workflows?.close());

describe('behavioural mutants of the sandbox', () => {
  it('the workflows they are run against pass against the sandbox itself', () => {
    expect([...baseline]).toEqual([]);
  });

  for (const mutant of BEHAVIOUR_MUTANTS) {
    it(`catches ${mutant.name} (${mutant.breaks})`, async () => {
      const caught = [...failures(await workflows.run({ mutate: mutant.mutate, only: mutant.workflows }))].filter((f) => !baseline.has(f));
      console.log(`${mutant.name}: caught by ${caught.join(', ') || 'nothing'}`);
      expect(caught, `${mutant.name} was not caught`).not.toEqual([]);
      expect(caught[0]).toBe(mutant.caughtBy);
    });
  }
});
