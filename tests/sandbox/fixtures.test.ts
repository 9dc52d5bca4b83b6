// Fixtures (`POST /sandbox/fixtures`, `startSandbox({ fixtures })`): the records a fixture declares are made through
// the sandbox's own operations, linked by their local names, and answered with their codes; a fixture of the wrong
// shape, with a name that does not resolve, or with a record an operation refuses is a 422 naming the field, and
// leaves the account as it was.
import { beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_JOB } from '../../src/sandbox/core/outbox.ts';
import { startSandbox, type Fixture } from '../../src/sandbox/index.ts';
import { startReceiver, stateDigest, until, useScenario, type Receiver, type TestSandbox } from './support.ts';

const scenario = useScenario({ connect: false });
let sandbox: TestSandbox;
/** The fixtures' endpoint: it verifies nothing (its secret is the one a fixture's answer gives, each its own). */
let receiver: Receiver;
beforeAll(async () => {
  ({ sandbox } = scenario);
  receiver = await startReceiver();
  return () => receiver.close();
});

/** A customer whose KYC and proof of address are approved, with two cards (one frozen), another not verified; a balance set. */
const fixtureFor = (url: string): Fixture => ({
  webhook_endpoints: { hooks: { url, events: ['*'] } },
  customers: {
    amina: {
      profile: { external_reference: 'cust-amina', first_name: 'Amina', last_name: 'Diallo', date_of_birth: '1990-04-17' },
      kyc: { outcome: 'approved' },
      poa: { outcome: 'approved' },
    },
    bob: {},
  },
  cards: {
    amina_visa: { customer: 'amina', brand: 'VISA', balance: 150.25, status: 'frozen' },
    amina_mc: { customer: 'amina', brand: 'MASTERCARD', balance: 20 },
  },
  balances: { cards_visa: { balance: 5000 } },
});

/** The tables whose rows differ from the digest `before` (with the rows, to say how). */
function changed(before: ReturnType<typeof stateDigest>): { table: string; before: unknown; after: unknown }[] {
  const after = stateDigest(sandbox);
  return Object.keys(after)
    .filter((table) => before[table] !== after[table])
    .map((table) => ({ table, before: before[table], after: after[table] }));
}

async function load(key: string, fixture: unknown) {
  return sandbox.simulate('POST', '/fixtures', fixture, key);
}

describe('fixtures', () => {
  it('creates linked records through the operations and answers the code of each local name', async () => {
    const key = 'sk_test_fixture_linked';
    const answer = await load(key, fixtureFor(receiver.url));
    expect(answer.status).toBe(200);
    const { codes, secrets } = answer.body.data;
    expect(Object.keys(codes).sort()).toEqual(['amina', 'amina_mc', 'amina_visa', 'bob', 'hooks']);
    expect(secrets.hooks).toMatch(/^whsec_/);

    const client = sandbox.client(key);
    const amina = await client.call.GET('/customers/{customerCode}', { params: { path: { customerCode: codes.amina } } });
    expect(amina.data).toMatchObject({ external_reference: 'cust-amina', verification_level: 'full' });
    const bob = await client.call.GET('/customers/{customerCode}', { params: { path: { customerCode: codes.bob } } });
    expect(bob.data).toMatchObject({ external_reference: 'bob', verification_level: 'basic' });
    const visa = await client.call.GET('/cards/{code}', { params: { path: { code: codes.amina_visa } } });
    expect(visa.data).toMatchObject({ customer_code: codes.amina, brand: 'VISA', status: 'frozen', balance: 150.25 });
    const mastercard = await client.call.GET('/cards/{code}', { params: { path: { code: codes.amina_mc } } });
    expect(mastercard.data).toMatchObject({ customer_code: codes.amina, status: 'active', balance: 20 });
    expect((await client.call.GET('/balance/{type}', { params: { path: { type: 'cards_visa' } } })).data.balance).toBe(5000);
    // The account is automatic again once the fixture is loaded.
    expect(sandbox.core.accounts.resolve(key).manual).toBe(false);
    // The fixture's endpoint signs with the secret the answer gives.
    const own = await startReceiver();
    try {
      await client.call.PATCH('/webhooks/{code}', { params: { path: { code: codes.hooks } }, body: { url: own.url } });
      own.secret = secrets.hooks;
      await client.call.POST('/cards/{code}/unfreeze', { params: { path: { code: codes.amina_visa } } });
      await until(() => own.of('card.unfrozen').length === 1);
      expect(own.problems).toEqual([]);
    } finally {
      // Back to the receiver that answers everything, and every delivery made, so the next tests see no activity.
      await client.call.PATCH('/webhooks/{code}', { params: { path: { code: codes.hooks } }, body: { url: receiver.url } });
      await until(() => !sandbox.core.db.get('SELECT 1 FROM jobs WHERE kind = ?', DELIVERY_JOB.kind));
      await own.close();
    }
  });

  it('refuses a fixture of the wrong shape with 422 naming the field, and creates nothing', async () => {
    const key = 'sk_test_fixture_shape';
    sandbox.core.accounts.resolve(key);
    const before = stateDigest(sandbox);
    const fixture = fixtureFor(receiver.url) as any;
    fixture.cards.amina_visa.brand = 'AMEX';
    const answer = await load(key, fixture);
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    expect(answer.body.error.details.fields.map((f: { field: string }) => f.field)).toContain('cards.amina_visa.brand');
    expect(changed(before)).toEqual([]);
  });

  it('refuses names that do not resolve or are used twice, naming each field', async () => {
    const key = 'sk_test_fixture_names';
    sandbox.core.accounts.resolve(key);
    const before = stateDigest(sandbox);
    const fixture = fixtureFor(receiver.url) as any;
    fixture.cards.amina_visa.customer = 'amira';
    fixture.cards.bob = { customer: 'amina', brand: 'VISA', balance: 10 };
    const answer = await load(key, fixture);
    expect(answer.status).toBe(422);
    expect(answer.body.error.details.fields).toEqual([
      { field: 'cards.bob', message: 'the name "bob" is already used by customers.bob' },
      { field: 'cards.amina_visa.customer', message: 'must name a customer of the fixture, not "amira"' },
    ]);
    expect(changed(before)).toEqual([]);
  });

  it('refuses a record an operation refuses (a card of a customer restricted by its KYC) and keeps nothing of the fixture', async () => {
    const key = 'sk_test_fixture_refused';
    sandbox.core.accounts.resolve(key);
    const before = stateDigest(sandbox);
    const fixture = fixtureFor(receiver.url);
    fixture.customers!.amina = { kyc: { outcome: 'approved_identity_mismatch' } };
    const answer = await load(key, fixture);
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    expect(answer.body.error.details.fields[0].field).toBe('cards.amina_visa');
    expect(answer.body.error.details.fields[0].message).toContain('POST /v1/cards answered');
    // The endpoint, the customers and their KYC were made before the refused card: all gone, balances as they were.
    expect(changed(before)).toEqual([]);
    expect((await sandbox.client(key).call.GET('/customers')).pagination.total).toBe(0);
    expect(sandbox.core.accounts.resolve(key).manual).toBe(false);
  });

  it('loads fixtures at start, by key, and gives their codes', async () => {
    const own = await startReceiver();
    const key = 'sk_test_fixture_start';
    const started = await startSandbox({ port: 0, freezeClock: true, fixtures: { [key]: fixtureFor(own.url) } });
    try {
      const { codes } = started.fixtures[key]!;
      const res = await fetch(`${started.baseUrl}/cards/${codes.amina_visa}`, { headers: { authorization: `Bearer ${key}` } });
      expect(((await res.json()) as any).data).toMatchObject({ status: 'frozen', customer_code: codes.amina });
    } finally {
      await started.close();
      await own.close();
    }
  });

  it('refuses to start with a fixture that fails, naming the key and the field', async () => {
    const fixture = { cards: { lone: { customer: 'nobody', brand: 'VISA', balance: 10 } } } as Fixture;
    await expect(startSandbox({ port: 0, fixtures: { sk_test_fixture_bad: fixture } })).rejects.toThrow(
      /the fixture of sk_test_fixture_bad was refused: .*cards\.lone\.customer/,
    );
  });
});
