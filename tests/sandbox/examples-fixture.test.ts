// The examples' fixture (`--seed examples` is this fixture loaded): it is a fixture as the simulation API's contract
// types it, loading it through `POST /sandbox/fixtures` gives a fresh account the records that the contract's
// examples name (every read of the contract whose path parameters are example codes finds its record), and a
// fixture one of whose parts is refused answers in the API's error envelope and keeps nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATION_DOCUMENT, DOCUMENT, stateDigest, startTestSandbox, type TestSandbox } from './support.ts';
import { bundleAjv } from '../../scripts/lib/schema.ts';
import { basePathOf } from '../../src/contract/servers.ts';
import { contractModel } from '../../src/contract/model.ts';
import { startExampleReceiver, type ExampleReceiver } from '../../src/sandbox/example-receiver.ts';
import { examplesFixture } from '../../src/sandbox/examples-fixture.ts';
import { EXAMPLE_CODES, type Fixture } from '../../src/sandbox/index.ts';

const KEY = 'sk_test_examples_fixture';

/** The contract's reads (GET) whose every path parameter's example is the code of an example record, with it filled in. */
function exampleReads(): string[] {
  const codes = new Set<unknown>(Object.values(EXAMPLE_CODES));
  const reads: string[] = [];
  for (const operation of contractModel(DOCUMENT).operations) {
    const params = operation.parameters.filter((p) => p.in === 'path');
    if (operation.method !== 'get' || params.length === 0 || !params.every((p) => codes.has(p.node['example']))) continue;
    reads.push(params.reduce((url, p) => url.replace(`{${p.name}}`, String(p.node['example'])), operation.path));
  }
  return reads;
}

describe("the examples' fixture", () => {
  let receiver: ExampleReceiver;
  let sandbox: TestSandbox;
  beforeAll(async () => {
    // The example endpoint's url is the contract's, which only a route to a receiver answers (as --seed examples does).
    receiver = await startExampleReceiver();
    sandbox = await startTestSandbox({ config: { webhook_routes: receiver.routes } });
  });
  afterAll(async () => {
    await sandbox.close();
    await receiver.close();
  });

  it('is a fixture: it validates against the Fixture schema of the simulation API', () => {
    const validate = bundleAjv(SIMULATION_DOCUMENT, 'sandbox.json').compile({ $ref: 'sandbox.json#/components/schemas/Fixture' });
    expect(validate(examplesFixture()), JSON.stringify(validate.errors)).toBe(true);
  });

  it('loaded into a fresh account, gives the records the contract examples name, under their example codes', async () => {
    const loaded = await sandbox.simulate('POST', '/fixtures', examplesFixture(), KEY);
    expect(loaded.status, JSON.stringify(loaded.body)).toBe(200);
    expect(Object.values(loaded.body.data.codes).sort()).toEqual(
      Object.entries(EXAMPLE_CODES)
        .filter(([record]) => record !== 'event')
        .map(([, code]) => code)
        .sort(),
    );
    const reads = exampleReads();
    // Every kind of example record is read by one of the contract's operations at least.
    for (const code of Object.values(EXAMPLE_CODES)) expect(reads.join(' ')).toContain(code);
    for (const read of reads) {
      const res = await fetch(`${sandbox.url}${basePathOf(read)}${read}`, { headers: { Authorization: `Bearer ${KEY}` } });
      expect(res.status, `GET ${read}: ${await res.clone().text()}`).toBe(200);
    }
    expect(sandbox.problems).toEqual([]);
  });

  it('a part an operation refuses answers 422 in the error envelope, naming the part, and keeps nothing', async () => {
    const key = 'sk_test_examples_fixture_refused';
    const fixture: Fixture = examplesFixture();
    const order = Object.values(fixture.gift_card_orders!)[0]!;
    order.body = { ...order.body!, product_id: 'gcp_not_in_the_catalogue' };
    delete fixture.codes;
    delete fixture.latest_event;
    sandbox.core.accounts.resolve(key);
    const before = stateDigest(sandbox);
    const refused = await sandbox.simulate('POST', '/fixtures', fixture, key);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    expect(refused.body.error.details.fields[0].field).toBe('gift_card_orders.gift_card_order');
    expect(stateDigest(sandbox)).toEqual(before);
  });

  it('a code another record of the sandbox already has is refused, naming it, and keeps nothing', async () => {
    const key = 'sk_test_examples_fixture_again';
    sandbox.core.accounts.resolve(key);
    const before = stateDigest(sandbox);
    const refused = await sandbox.simulate('POST', '/fixtures', examplesFixture(), key);
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.fields[0].field).toBe('codes.webhook_endpoint');
    expect(stateDigest(sandbox)).toEqual(before);
  });

  it('names that do not resolve are refused before anything is made', async () => {
    const fixture: Fixture = {
      payouts: { p: { beneficiary: 'nobody' } },
      codes: { ghost: EXAMPLE_CODES.card },
      latest_event: { endpoint: 'x', id: EXAMPLE_CODES.event },
    };
    const refused = await sandbox.simulate('POST', '/fixtures', fixture, 'sk_test_examples_fixture_names');
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual([
      'payouts.p.beneficiary',
      'codes.ghost',
      'latest_event.endpoint',
    ]);
  });
});
