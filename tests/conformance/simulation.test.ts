// The simulation API's answers checked against spec/sandbox.yaml (scripts/conformance/simulation.ts), through
// the suite's own calls of it (balances.ts brings the ops balances into place and sets them back): against the
// sandbox as it is every answer passes, and a copy whose answer has a field of the wrong type
// (broken-servers/simulation-mutants.ts) is a failure of the report with the request, the answer and a curl
// command that replays it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { fundRun, restoreBalances } from '../../scripts/conformance/balances.ts';
import { SIMULATION, simulationResults } from '../../scripts/conformance/simulation.ts';
import { createResponseValidator } from '../../scripts/conformance/validate-response.ts';
import { SIMULATION_MUTANT } from './broken-servers/simulation-mutants.ts';
import { configThrough, startProxy, type Rewrite } from './broken-servers/sandbox-proxy.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const bundle = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', 'openapi.json'), 'utf8'));
const validator = createResponseValidator(bundle);

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: false });
}, 60_000);
afterAll(() => sandbox?.close());

/** Funds a run for a new key whose cards_visa balance is short (so it is set through the simulation API) and sets it back. */
async function fundThrough(rewrite: Rewrite, key: string): Promise<void> {
  const proxy = await startProxy(new URL(sandbox.baseUrl).origin, rewrite);
  try {
    const config = { ...configThrough(proxy, `${proxy.url}/sandbox`, key) };
    const short = await fetch(`${sandbox.simulationUrl}/balances/cards_visa`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ balance: 12 }),
    });
    expect(short.status).toBe(200);
    const funding = await fundRun(config, validator, true);
    expect(funding.lines.join('\n')).toMatch(/cards_visa set from 12\.00 USD/);
    await restoreBalances(config, funding.start!);
  } finally {
    await proxy.close();
  }
}

describe("the simulation API's answers", () => {
  it('pass against the sandbox as it is', async () => {
    await fundThrough((req) => ({ forward: req }), 'sk_test_simulation_answers');
    const results = simulationResults();
    expect(results.filter((r) => r.outcome === 'failed')).toEqual([]);
    expect(results.map((r) => `${r.group}: ${r.name}`)).toContain(`${SIMULATION}: PUT /balances/{type}`);
  });

  it(`catch a simulation API that ${SIMULATION_MUTANT.name}`, async () => {
    await fundThrough(SIMULATION_MUTANT.rewrite, 'sk_test_simulation_mutant');
    const caught = simulationResults().find((r) => r.outcome === 'failed' && r.name === SIMULATION_MUTANT.caught.name);
    expect(caught, JSON.stringify(simulationResults())).toBeDefined();
    console.log(`${caught!.name}: ${caught!.message}\n${caught!.reproducer}`);
    expect(caught!.message).toContain(SIMULATION_MUTANT.caught.problem);
    expect(caught!.message).toMatch(
      /request: PUT http:\/\/127\.0\.0\.1:\d+\/sandbox\/balances\/cards_visa \{"balance":1000\}; answered 200 \{/,
    );
    expect(caught!.reproducer).toMatch(/^curl -sS -X PUT http:\/\/127\.0\.0\.1:\d+\/sandbox\/balances\/cards_visa -H /);
  });
});
