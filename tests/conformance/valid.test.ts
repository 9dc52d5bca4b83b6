// The valid-input check (scripts/conformance/checks/valid.ts): requests drawn from the request schemas of the
// operations that move no money pass against the sandbox as it is, every one answered with a documented status
// and a valid body; and a copy that fails on valid but unusual input (broken-servers/valid-mutants.ts) is
// caught, with a curl command that replays the request.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { runChecks } from '../../scripts/conformance/checks/index.ts';
import { VALID_PER_OPERATION } from '../../scripts/conformance/checks/valid.ts';
import { selectOperations } from '../../scripts/conformance/select.ts';
import type { ReportSection } from '../../scripts/conformance/types.ts';
import { VALID_MUTANT } from './broken-servers/valid-mutants.ts';
import { configThrough, startProxy, type Rewrite } from './broken-servers/sandbox-proxy.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const bundle = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', 'openapi.json'), 'utf8'));
const KEY = 'sk_test_valid_input';
// A body that makes a record, one on a record of its own, one on the run's, lists with filters, and one that moves money.
const ONLY = [
  'createCustomer',
  'updateCustomer',
  'updateWebhookEndpoint',
  'createBeneficiary',
  'listCustomers',
  'listEvents',
  'createCard',
];

let sandbox: RunningSandbox;
beforeAll(async () => {
  // Seeded for the key: its example webhook url answers the ping, so the set-up can make an endpoint.
  sandbox = await startSandbox({ port: 0, seedExamples: KEY, rateLimit: false });
}, 60_000);
afterAll(() => sandbox?.close());

async function checksThrough(rewrite: Rewrite, only: string[]): Promise<ReportSection> {
  const proxy = await startProxy(new URL(sandbox.baseUrl).origin, rewrite);
  try {
    const config = configThrough(proxy, sandbox.simulationUrl, KEY);
    return await runChecks(config, bundle, selectOperations(bundle, only).bundle, ['valid'], { seed: 15, perOperation: 1 });
  } finally {
    await proxy.close();
  }
}

describe('the valid-input check', () => {
  it('passes against the sandbox as it is, leaving out what moves money', async () => {
    const section = await checksThrough((req) => ({ forward: req }), ONLY);
    console.log(section.results.map((r) => `${r.outcome} ${r.name}${r.message ? `: ${r.message}` : ''}`).join('\n'));
    expect(section.results.filter((r) => r.outcome !== 'passed').map((r) => `${r.name}: ${r.message}`)).toEqual([]);
    for (const op of ['POST /customers', 'PATCH /customers/{customerCode}', 'PATCH /webhooks/{code}', 'GET /customers', 'GET /events']) {
      expect(section.results.filter((r) => r.name.startsWith(`${op} `) || r.name.startsWith(`${op}?`)).length, op).toBe(
        VALID_PER_OPERATION,
      );
    }
    expect(section.results.some((r) => r.name.startsWith('POST /cards'))).toBe(false);
    expect(section.notes?.join('\n')).toMatch(/requests per operation drawn from its schemas with seed 15/);
  }, 120_000);

  it(`catches a server that ${VALID_MUTANT.name}`, async () => {
    const section = await checksThrough(VALID_MUTANT.rewrite, VALID_MUTANT.operations);
    const caught = section.results.find(
      (r) =>
        r.outcome === 'failed' &&
        r.group === VALID_MUTANT.caught.group &&
        r.name.startsWith(VALID_MUTANT.caught.name) &&
        r.message?.startsWith(VALID_MUTANT.caught.problem),
    );
    expect(caught, section.results.map((r) => `${r.outcome} ${r.name}: ${r.message}`).join('\n')).toBeDefined();
    console.log(`${caught!.name}: ${caught!.message}\n${caught!.reproducer}`);
    expect(caught!.reproducer).toMatch(/^curl -sS -X POST \S+\/v1\/customers .*--data-raw /);
  }, 120_000);
});
