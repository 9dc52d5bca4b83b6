// The list checks (scripts/conformance/checks/lists.ts, order.ts, created.ts) on every list operation of a
// seeded sandbox: they pass against the sandbox as it is, and each copy whose lists break one rule
// (broken-servers/list-mutants.ts, a filter mutant per documented filter of each list) is caught, the failure
// naming the request, with a curl command that replays it.
import { contractModel } from '../../src/contract/model.ts';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { runChecks, type CheckName } from '../../scripts/conformance/checks/index.ts';
import { selectOperations } from '../../scripts/conformance/select.ts';
import type { ReportSection } from '../../scripts/conformance/types.ts';
import { FILTER_MUTANTS, LIST_MUTANTS, type ListMutant } from './broken-servers/list-mutants.ts';
import { emptyState, setUp } from '../../scripts/conformance/setup.ts';
import { createResponseValidator } from '../../scripts/conformance/validate-response.ts';
import { configThrough, startProxy, type Rewrite } from './broken-servers/sandbox-proxy.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const bundle = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', 'openapi.json'), 'utf8'));
const KEY = 'sk_test_lists';
const LISTS: CheckName[] = ['pagination', 'filters', 'order', 'created'];
// Every operation answering a page: the checks find the list operations among them from the contract.
const ONLY = contractModel(bundle)
  .operations.filter((o) => o.method === 'get' && o.operationId.startsWith('list'))
  .map((o) => o.operationId);

let sandbox: RunningSandbox;
beforeAll(async () => {
  // A seeded sandbox holds the contract's example records beside the run's own: a filter ignored shows them.
  sandbox = await startSandbox({ port: 0, seedExamples: KEY, rateLimit: false });
}, 60_000);
afterAll(() => sandbox?.close());

/** The failure that catches a mutant: its group, a part of its name, and the problem its message begins with. */
function caughtBy(section: ReportSection, mutant: ListMutant) {
  const failed = section.results.filter((r) => r.outcome === 'failed');
  const caught = failed.find(
    (r) =>
      r.group === mutant.caught.group &&
      r.name.includes(mutant.caught.name) &&
      // The problem, before the request and the answer that the message goes on with.
      mutant.caught.problem.test(r.message?.split('; GET ')[0] ?? ''),
  );
  expect(caught, failed.map((r) => `${r.group}: ${r.name}: ${r.message}`).join('\n') || 'nothing failed').toBeDefined();
  console.log(`${mutant.name}: ${caught!.name}: ${caught!.message}\n${caught!.reproducer}`);
  expect(caught!.reproducer).toMatch(/^curl -sS -X GET /);
}

async function checksThrough(rewrite: Rewrite, chosen: CheckName[]): Promise<ReportSection> {
  const proxy = await startProxy(new URL(sandbox.baseUrl).origin, rewrite);
  try {
    const config = configThrough(proxy, sandbox.simulationUrl, KEY);
    return await runChecks(config, bundle, selectOperations(bundle, ONLY).bundle, chosen, { seed: 15, perOperation: 1 });
  } finally {
    await proxy.close();
  }
}

describe('list checks', () => {
  it('pass against the sandbox as it is, on every list operation', async () => {
    const section = await checksThrough((req) => ({ forward: req }), LISTS);
    const failed = section.results.filter((r) => r.outcome === 'failed').map((r) => `${r.group}: ${r.name}: ${r.message}`);
    expect(failed).toEqual([]);
    const passed = section.results.filter((r) => r.outcome === 'passed').map((r) => `${r.group}: ${r.name}`);
    console.log(section.results.map((r) => `${r.outcome} ${r.group}: ${r.name}${r.message ? `: ${r.message}` : ''}`).join('\n'));
    expect(passed).toEqual(expect.arrayContaining(['pagination: GET /cards', 'pagination: GET /customers', 'pagination: GET /events']));
    expect(passed.some((p) => p.startsWith('list filter: GET /cards customer_code='))).toBe(true);
  }, 180_000);

  for (const mutant of LIST_MUTANTS) {
    it(`catch a server that ${mutant.name}`, async () => {
      caughtBy(await checksThrough(mutant.rewrite, [mutant.check]), mutant);
    }, 180_000);
  }
});

describe('the filters check', () => {
  // One proxy and one set-up for every filter mutant: the proxy's rewrite is the mutant of the test.
  let rewrite: Rewrite = (req) => ({ forward: req });
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let prepared: Parameters<typeof runChecks>[5];
  let config: ReturnType<typeof configThrough>;
  beforeAll(async () => {
    proxy = await startProxy(new URL(sandbox.baseUrl).origin, (req) => rewrite(req));
    config = configThrough(proxy, sandbox.simulationUrl, KEY);
    const state = emptyState(config, createResponseValidator(bundle));
    prepared = { state, setup: await setUp(state) };
    // Another customer's wallet (the set-up makes none, and a seeded sandbox holds none): a wallet list that
    // ignores its customer_code filter shows it.
    const other = await prepared.setup.fresh('customer');
    const wallet = await fetch(`${sandbox.baseUrl}/wallets`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({
        ...(contractModel(bundle)
          .byPath('POST', '/wallets')
          ?.requestBody?.json?.examples.find((e) => e.name === 'usdc')?.value as object),
        customer_code: other,
      }),
    });
    expect(wallet.status).toBe(200);
  }, 120_000);
  afterAll(() => proxy?.close());

  it('has a mutant for every documented filter of every list', () => {
    expect(FILTER_MUTANTS.length).toBeGreaterThanOrEqual(10);
    expect(FILTER_MUTANTS.map((m) => m.name)).toEqual(
      expect.arrayContaining([
        'ignores the customer_code filter of GET /cards',
        'ignores the status filter of GET /customers',
        'ignores the type filter of GET /events',
      ]),
    );
  });

  for (const mutant of FILTER_MUTANTS) {
    it(`catches a server that ${mutant.name}`, async () => {
      rewrite = mutant.rewrite;
      const selected = selectOperations(bundle, [mutant.operationId]).bundle;
      caughtBy(await runChecks(config, bundle, selected, ['filters'], { seed: 15, perOperation: 1 }, prepared), mutant);
    }, 60_000);
  }
});
