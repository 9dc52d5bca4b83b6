// Runs the workflows of spec/workflows against an in-process sandbox, as `npm run conformance:sandbox` does
// (webhook route to the run's receiver, simulation API, a fresh key), without the per-operation checks. A
// mutant (broken-servers/behaviour-mutants.ts) breaks one rule of the running sandbox before the run.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { findFreePort } from '../../scripts/lib/port-check.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';
import { startReceiver } from '../../scripts/conformance/receiver.ts';
import { runWorkflows, type WorkflowResult } from '../../scripts/conformance/workflows.ts';

const WEBHOOK_URL = 'https://receiver.workflows.test';
const BUNDLE = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', 'openapi.json'), 'utf8')) as JsonObject;

export interface WorkflowRunSetup {
  /** Breaks the running sandbox (a mutant); called before the workflows run. */
  mutate?: (sandbox: RunningSandbox) => void;
  /** Only these workflowIds. */
  only?: string[];
  verbose?: boolean;
}

export async function runWorkflowsOnSandbox(setup: WorkflowRunSetup = {}): Promise<WorkflowResult[]> {
  const apiKey = `sk_test_workflows_${randomBytes(6).toString('hex')}`;
  const receiver = await startReceiver(await findFreePort('127.0.0.1'));
  let sandbox: RunningSandbox | undefined;
  try {
    sandbox = await startSandbox({
      port: 0,
      publicUrl: 'https://sandbox.workflows.test',
      config: { webhook_routes: { [WEBHOOK_URL]: receiver.url }, accounts: { [apiKey]: { rate_limit: 100_000 } } },
    });
    setup.mutate?.(sandbox);
    return await runWorkflows({
      server: sandbox.baseUrl,
      simulationUrl: sandbox.simulationUrl,
      apiKey,
      mode: 'real',
      bundle: BUNDLE,
      receiver,
      webhookUrl: WEBHOOK_URL,
      freshApiKey: `sk_test_workflows_fresh_${randomBytes(6).toString('hex')}`,
      ...(setup.only ? { only: setup.only } : {}),
      verbose: setup.verbose ?? false,
    });
  } finally {
    await sandbox?.close();
    await receiver.close();
  }
}
