// Snapshots: per key through the simulation API (`/sandbox/snapshots`), and of the whole sandbox in-process
// (`sandbox.snapshot()`, `sandbox.restore(id)`). A restore gives back the earlier state (records, balances, kept
// idempotent answers, armed faults, timers; the clock for the whole sandbox), leaves other accounts alone, and
// attempts again a delivery that was pending; an id the account does not keep is a 404 in the envelope.
import { beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOTS_PER_ACCOUNT } from '../../src/sandbox/core/bounds.ts';
import { DELIVERY_JOB } from '../../src/sandbox/core/outbox.ts';
import { snapshotsOf } from '../../src/sandbox/core/snapshots.ts';
import type { Fixture } from '../../src/sandbox/index.ts';
import { startReceiver, stateDigest, until, useScenario, type Receiver, type TestSandbox } from './support.ts';

const scenario = useScenario({ connect: false });
let sandbox: TestSandbox;
let receiver: Receiver;
beforeAll(async () => {
  ({ sandbox } = scenario);
  receiver = await startReceiver();
  return () => receiver.close();
});

const FIXTURE = (url: string): Fixture => ({
  webhook_endpoints: { hooks: { url, events: ['*'] } },
  customers: { amina: { kyc: { outcome: 'approved' } } },
  cards: { visa: { customer: 'amina', brand: 'VISA', balance: 100 } },
});

/** An account made by the fixture, every delivery of it made: its key and the codes. */
async function account(key: string): Promise<Record<string, string>> {
  const answer = await sandbox.simulate('POST', '/fixtures', FIXTURE(receiver.url), key);
  expect(answer.status).toBe(200);
  await quiet();
  return answer.body.data.codes;
}

/** Waits until no webhook delivery is waiting (they run on real timers). */
const quiet = () => until(() => !sandbox.core.db.get('SELECT 1 FROM jobs WHERE kind = ?', DELIVERY_JOB.kind));

async function snapshot(key: string): Promise<string> {
  const answer = await sandbox.simulate('POST', '/snapshots', undefined, key);
  expect(answer.status).toBe(200);
  return answer.body.data.id;
}

async function restore(key: string, id: string) {
  return sandbox.simulate('POST', `/snapshots/${id}/restore`, undefined, key);
}

describe('snapshots of an account', () => {
  it('snapshot, change, restore: the records, balances, kept answers, faults and timers are as they were', async () => {
    const key = 'sk_test_snap_change';
    const codes = await account(key);
    const client = sandbox.client(key);
    const id = await snapshot(key);
    const before = stateDigest(sandbox);
    const accountId = sandbox.core.accounts.resolve(key).id;
    const jobsBefore = sandbox.core.scheduler.pending(accountId);

    // Changes: a withdrawal (card and ops balances), a new card waiting for its issuance timer, a frozen card, a kept
    // idempotent answer, an armed fault, a delivery fault plan, a new customer.
    await client.call.POST('/cards/{code}/withdraw', { params: { path: { code: codes.visa! } }, body: { amount: 30 } });
    const pending = await client.call.POST('/cards', {
      body: { customer_code: codes.amina!, brand: 'VISA', category: 'virtual', amount: 10 },
    });
    await client.call.POST('/cards/{code}/freeze', { params: { path: { code: codes.visa! } } });
    const keyed = { 'Idempotency-Key': 'snap-change-1' };
    await client.call.POST('/customers', {
      body: { external_reference: 'later', first_name: 'Léa', last_name: 'Martin', date_of_birth: '1991-02-03' },
      params: { header: keyed },
    });
    expect((await sandbox.simulate('POST', '/faults', { operation_id: 'createCard', status: 500 }, key)).status).toBe(200);
    expect((await sandbox.simulate('PUT', '/webhook-faults', { seed: 3, duplicate_share: 1 }, key)).status).toBe(200);
    expect(sandbox.core.scheduler.pending(accountId).length).toBeGreaterThan(jobsBefore.length);
    await quiet();

    const restored = await restore(key, id);
    expect(restored.status).toBe(200);
    expect(restored.body.data.id).toBe(id);
    expect(stateDigest(sandbox)).toEqual(before);
    expect(sandbox.core.scheduler.pending(accountId)).toEqual(jobsBefore);
    const card = await client.call.GET('/cards/{code}', { params: { path: { code: codes.visa! } } });
    expect(card.data).toMatchObject({ status: 'active', balance: 100 });
    expect((await client.GET('/cards/{code}', { params: { path: { code: pending.data.code } } })).response.status).toBe(404);
    expect((await client.call.GET('/customers')).pagination.total).toBe(1);
    expect((await sandbox.simulate('GET', '/faults', undefined, key)).body.data).toEqual([]);
    expect((await sandbox.simulate('GET', '/webhook-faults', undefined, key)).body.data).toMatchObject({ duplicate_share: 0 });
    // The kept answer is gone: the same Idempotency-Key with another body is a new request, not a reuse.
    const again = await client.call.POST('/customers', {
      body: { external_reference: 'other', first_name: 'Léa', last_name: 'Martin', date_of_birth: '1991-02-03' },
      params: { header: keyed },
    });
    expect(again.data.external_reference).toBe('other');
  });

  it('restores the same snapshot again, and lists and forgets the snapshots of the key', async () => {
    const key = 'sk_test_snap_twice';
    const codes = await account(key);
    const client = sandbox.client(key);
    const id = await snapshot(key);
    for (const amount of [10, 20]) {
      await client.call.POST('/cards/{code}/withdraw', { params: { path: { code: codes.visa! } }, body: { amount } });
      await quiet();
      expect((await restore(key, id)).status).toBe(200);
      expect((await client.call.GET('/cards/{code}', { params: { path: { code: codes.visa! } } })).data.balance).toBe(100);
    }
    const listed = await sandbox.simulate('GET', '/snapshots', undefined, key);
    expect(listed.body.data).toEqual([expect.objectContaining({ id, rows: expect.any(Number) })]);
    expect((await sandbox.simulate('DELETE', `/snapshots/${id}`, undefined, key)).status).toBe(200);
    expect((await sandbox.simulate('GET', '/snapshots', undefined, key)).body.data).toEqual([]);
    expect((await restore(key, id)).status).toBe(404);
  });

  it("keeps account A's snapshots off account B: B's records stay, and B cannot restore A's id", async () => {
    const a = 'sk_test_snap_a';
    const b = 'sk_test_snap_b';
    const codesA = await account(a);
    const codesB = await account(b);
    const id = await snapshot(a);
    await sandbox.client(a).call.POST('/cards/{code}/withdraw', { params: { path: { code: codesA.visa! } }, body: { amount: 40 } });
    await sandbox.client(b).call.POST('/cards/{code}/withdraw', { params: { path: { code: codesB.visa! } }, body: { amount: 25 } });
    const later = await sandbox.client(b).call.POST('/customers', {
      body: { external_reference: 'b-later', first_name: 'Bo', last_name: 'Berg', date_of_birth: '1985-06-07' },
    });
    await quiet();
    const balanceB = (await sandbox.client(b).call.GET('/balance/{type}', { params: { path: { type: 'cards_visa' } } })).data.balance;

    const refused = await restore(b, id);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'RESOURCE_NOT_FOUND' } });
    expect((await restore(a, id)).status).toBe(200);

    const cardA = await sandbox.client(a).call.GET('/cards/{code}', { params: { path: { code: codesA.visa! } } });
    expect(cardA.data.balance).toBe(100);
    const cardB = await sandbox.client(b).call.GET('/cards/{code}', { params: { path: { code: codesB.visa! } } });
    expect(cardB.data.balance).toBe(75);
    const customerB = await sandbox.client(b).call.GET('/customers/{customerCode}', {
      params: { path: { customerCode: later.data.customer_code } },
    });
    expect(customerB.data.external_reference).toBe('b-later');
    expect((await sandbox.client(b).call.GET('/balance/{type}', { params: { path: { type: 'cards_visa' } } })).data.balance).toBe(balanceB);
    expect((await sandbox.simulate('GET', '/snapshots', undefined, b)).body.data).toEqual([]);
  });

  it("puts back the card provider's armed answers: armed in the snapshot, armed again; armed since, gone", async () => {
    const key = 'sk_test_snap_armed';
    const codes = await account(key);
    const client = sandbox.client(key);
    const code = codes.visa!;
    const withdraw = () => client.POST('/cards/{code}/withdraw', { params: { path: { code } }, body: { amount: 5 } });
    expect((await sandbox.simulate('POST', `/cards/${code}/withdrawal-failure`, {}, key)).status).toBe(200);
    const armed = await snapshot(key);
    expect((await withdraw()).response.status).toBe(502); // the armed failure, taken
    expect((await restore(key, armed)).status).toBe(200);
    expect((await withdraw()).response.status).toBe(502); // armed again by the restore
    const clear = await snapshot(key);
    expect((await sandbox.simulate('POST', `/cards/${code}/withdrawal-failure`, {}, key)).status).toBe(200);
    expect((await restore(key, clear)).status).toBe(200);
    expect((await withdraw()).response.status).toBe(200); // armed since the snapshot: gone
    await quiet();
  });

  it("refuses a second part under a name taken (the cards' declared part), which would replace the first one's state", () => {
    const part = { save: () => undefined, restore: () => undefined };
    expect(() => snapshotsOf(sandbox.core).register('cards', part)).toThrow('a snapshot part named cards is registered already');
    expect(() => snapshotsOf(sandbox.core).register('faults', part)).toThrow(/faults is registered already/);
  });

  it('answers an unknown id with 404 and a malformed one with 422, in the envelope', async () => {
    const key = 'sk_test_snap_unknown';
    const unknown = await restore(key, 'snap_000000000000000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, error: { code: 'RESOURCE_NOT_FOUND' } });
    expect((await sandbox.simulate('DELETE', '/snapshots/snap_000000000000000000000000', undefined, key)).status).toBe(404);
    const malformed = await restore(key, 'latest');
    expect(malformed.status).toBe(422);
    expect(malformed.body.error.details.fields[0].field).toContain('snapshot_id');
  });

  it(`keeps the ${SNAPSHOTS_PER_ACCOUNT} most recently used snapshots of an account`, async () => {
    const key = 'sk_test_snap_bound';
    const first = await snapshot(key);
    const second = await snapshot(key);
    for (let i = 2; i < SNAPSHOTS_PER_ACCOUNT; i++) await snapshot(key);
    expect((await restore(key, first)).status).toBe(200); // used: the least recently used is now the second
    await snapshot(key);
    expect((await sandbox.simulate('GET', '/snapshots', undefined, key)).body.data).toHaveLength(SNAPSHOTS_PER_ACCOUNT);
    expect((await restore(key, second)).status).toBe(404);
    expect((await restore(key, first)).status).toBe(200);
  });

  it('attempts again a delivery that was pending at the snapshot; one made since is not taken back', async () => {
    const key = 'sk_test_snap_delivery';
    const own = await startReceiver();
    try {
      const made = await sandbox.simulate('POST', '/fixtures', { webhook_endpoints: { hooks: { url: own.url, events: ['*'] } } }, key);
      own.secret = made.body.data.secrets.hooks;
      own.status = 500;
      const deposit = { gross_amount: 10 };
      await sandbox.simulate('POST', '/balances/cards_visa/deposits', deposit, key);
      await until(() => own.events.length === 1); // the first attempt, refused: a retry is due later
      const id = await snapshot(key);
      own.status = 200;
      await sandbox.advance(3600, key); // the retry is delivered
      await until(() => own.events.length === 2 && !sandbox.core.db.get('SELECT 1 FROM jobs WHERE kind = ?', DELIVERY_JOB.kind));
      expect((await restore(key, id)).status).toBe(200);
      await sandbox.advance(3600, key); // pending again: attempted again, with the same idempotency key
      await until(() => own.events.length === 3);
      expect(new Set(own.events.map((e) => e.idempotencyKey)).size).toBe(1);
      expect(own.problems).toEqual([]);
    } finally {
      await own.close();
    }
  });
});

describe("an account's clock in its snapshot", () => {
  it("puts back the account's clock: an advance since the snapshot is undone, another key's clock untouched", async () => {
    const [a, b] = ['sk_test_snap_clock_a', 'sk_test_snap_clock_b'];
    const clockOf = async (key: string) => (await sandbox.simulate('GET', '/clock', undefined, key)).body.data;
    const aBefore = await clockOf(a);
    const id = await snapshot(a);
    await sandbox.advance(7200, a);
    await sandbox.advance(3600, b);
    const bAfter = await clockOf(b);
    expect((await clockOf(a)).now).not.toBe(aBefore.now);

    expect((await restore(a, id)).status).toBe(200);
    expect(await clockOf(a)).toEqual(aBefore);
    expect(await clockOf(b)).toEqual(bAfter);
  });
});

describe('snapshots of the whole sandbox (in-process)', () => {
  it('restores every account and the clock', async () => {
    const key = 'sk_test_snap_whole';
    const codes = await account(key);
    const clockBefore = (await sandbox.simulate('GET', '/clock', undefined, key)).body.data;
    const id = sandbox.snapshot();
    const before = stateDigest(sandbox);
    await sandbox.advance(7200, key);
    await sandbox.client(key).call.POST('/cards/{code}/withdraw', { params: { path: { code: codes.visa! } }, body: { amount: 5 } });
    await sandbox.client('sk_test_snap_whole_other').call.GET('/balance');
    await quiet();

    await sandbox.restore(id);
    expect((await sandbox.simulate('GET', '/clock', undefined, key)).body.data).toEqual(clockBefore);
    expect(stateDigest(sandbox)).toEqual(before);
    expect(sandbox.core.db.get("SELECT 1 FROM accounts WHERE api_key = 'sk_test_snap_whole_other'")).toBeUndefined();
    await expect(sandbox.restore('snap_000000000000000000000000')).rejects.toThrow('no snapshot snap_000000000000000000000000');
  });
});
