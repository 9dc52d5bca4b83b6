// Runs the workflows of spec/workflows against an in-process sandbox, as `npm run conformance:sandbox` does
// (a webhook route to the run's receiver, the simulation API, a fresh key), without the per-operation checks.
// One sandbox serves many runs: each run uses a new key, so a new account. A mutant
// (broken-servers/behaviour-mutants.ts) breaks one rule of the running sandbox for one run.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { findFreePort } from '../../scripts/lib/port-check.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';
import { pingTypeOf, startReceiver, type Receiver } from '../../scripts/conformance/receiver.ts';
import { runWorkflows, type WorkflowResult } from '../../scripts/conformance/workflows.ts';

const WEBHOOK_URL = 'https://receiver.workflows.test';
const BUNDLE = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', 'openapi.json'), 'utf8')) as JsonObject;

/** Breaks the running sandbox; returns what undoes it. */
export type Mutation = (sandbox: RunningSandbox) => () => void;

export interface WorkflowSandbox {
  sandbox: RunningSandbox;
  /** Runs the workflows (only some, optionally) with a new key, with the sandbox broken by `mutate` meanwhile. */
  run(options?: { mutate?: Mutation; only?: string[]; verbose?: boolean }): Promise<WorkflowResult[]>;
  close(): Promise<void>;
}

const newKey = (kind: string) => `sk_test_workflows_${kind}_${randomBytes(6).toString('hex')}`;

export async function startWorkflowSandbox(): Promise<WorkflowSandbox> {
  const receiver: Receiver = await startReceiver(await findFreePort('127.0.0.1'), pingTypeOf(BUNDLE));
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox({
      port: 0,
      // The workflows send far more than a plan's 100 requests a minute.
      rateLimit: false,
      publicUrl: 'https://sandbox.workflows.test',
      config: { webhook_routes: { [WEBHOOK_URL]: receiver.url } },
    });
  } catch (error) {
    await receiver.close();
    throw error;
  }
  return {
    sandbox,
    async run(options = {}) {
      const undo = options.mutate?.(sandbox);
      try {
        return await runWorkflows({
          server: sandbox.baseUrl,
          simulationUrl: sandbox.simulationUrl,
          apiKey: newKey('main'),
          mode: 'real',
          bundle: BUNDLE,
          receiver,
          webhookUrl: WEBHOOK_URL,
          freshApiKey: newKey('fresh'),
          ...(options.only ? { only: options.only } : {}),
          verbose: options.verbose ?? false,
        });
      } finally {
        undo?.();
      }
    },
    async close() {
      await sandbox.close();
      await receiver.close();
    },
  };
}
