// The card state machine end to end over HTTP, with the package's client and a receiver that verifies every
// delivery with the toolkit: create (pending -> active, or failed with a refund), top-up (applied, or failed
// with a refund), freeze, unfreeze, withdraw, terminate, sensitive data, transactions; and every documented
// card error reached through real state.
import { beforeAll, describe, expect, it } from 'vitest';
import { contractLimits } from '../../src/sandbox/core/limits.ts';
import { toAmount } from '../../src/sandbox/core/money.ts';
import {
  MODEL,
  KEY,
  clockOf,
  connect,
  failure,
  newCustomer,
  startReceiver,
  startTestSandbox,
  until,
  useScenario,
  type Receiver,
  type TestSandbox,
} from './support.ts';

const scenario = useScenario();
let sandbox: TestSandbox, receiver: Receiver, customer: string;
beforeAll(() => ({ sandbox, receiver, customer } = scenario));

const api = () => sandbox.client();
const balance = async (type: 'cards_visa' | 'cards_mastercard', key = KEY) =>
  (await sandbox.client(key).call.GET('/balance/{type}', { params: { path: { type } } })).data.balance;

async function activeCard(amount = 100, brand: 'VISA' | 'MASTERCARD' = 'VISA'): Promise<string> {
  const created = await api().call.POST('/cards', { body: { customer_code: customer, brand, category: 'virtual', amount } });
  await sandbox.advance(2);
  await until(() => receiver.of('card.activated').some((e) => e.data.card_code === created.data.code));
  return created.data.code;
}

describe('create', () => {
  it('waits to be chosen once the account is made manual, though its automatic issuance was due: then as chosen', async () => {
    // A key of its own: the shared scenario's account stays automatic for the other tests.
    const key = 'sk_test_cards_made_manual';
    const own = sandbox.client(key);
    const r = await startReceiver();
    await connect(sandbox, r, key);
    const owner = await newCustomer(sandbox, key);
    const created = await own.call.POST('/cards', { body: { customer_code: owner, brand: 'VISA', category: 'virtual', amount: 20 } });
    expect((await sandbox.simulate('PATCH', '/account', { manual: true }, key)).status).toBe(200);
    await sandbox.advance(5, key);
    const code = created.data.code;
    expect((await own.call.GET('/cards/{code}', { params: { path: { code } } })).data.status).toBe('pending');
    const issued = await sandbox.simulate('POST', `/cards/${code}/issuance`, { outcome: 'failed' }, key);
    expect(issued.status).toBe(200);
    expect((await own.call.GET('/cards/{code}', { params: { path: { code } } })).data.status).toBe('failed');
    await r.close();
  });

  it('is pending, debits load and fees, then becomes active by itself with card.activated', async () => {
    const before = await balance('cards_visa');
    const created = await api().call.POST('/cards', { body: { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 100 } });
    const card = created.data;
    expect(card).toMatchObject({
      status: 'pending',
      last_four: null,
      expiry: null,
      balance: 0,
      fees: { card_fee: 5, service_fee: 1, total_charged: 106 },
    });
    expect(await balance('cards_visa')).toBe(before - 106);
    const listed = await api().call.GET('/cards', { params: { query: { customer_code: customer } } });
    expect(listed.data.map((c) => c.code)).toContain(card.code);

    await sandbox.advance(1);
    expect((await api().call.GET('/cards/{code}', { params: { path: { code: card.code } } })).data.status).toBe('pending');
    await sandbox.advance(1);
    const active = (await api().call.GET('/cards/{code}', { params: { path: { code: card.code } } })).data;
    expect(active.status).toBe('active');
    expect(active.balance).toBe(100);
    expect(active.last_four).toMatch(/^[0-9]{4}$/);
    await until(() => receiver.of('card.activated').some((e) => e.data.card_code === card.code));
    const event = receiver.of('card.activated').find((e) => e.data.card_code === card.code)!;
    expect(event.data).toMatchObject({
      status: 'active',
      balance: 100,
      last_four: active.last_four,
      expiry: active.expiry,
      customer_code: customer,
    });
    await until(() => receiver.of('balance.debited').some((e) => e.data.reason === 'card_issuance' && e.data.amount === 106));
  });

  it('fails when the issuer refuses (simulation): status failed, load and fees refunded, card.creation_failed', async () => {
    await sandbox.simulate('PATCH', '/account', { manual: true });
    const before = await balance('cards_mastercard');
    const card = (
      await api().call.POST('/cards', {
        body: {
          customer_code: customer,
          brand: 'MASTERCARD',
          category: 'physical',
          amount: 40,
          shipping_address: { street: '1 rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FR' },
        },
      })
    ).data;
    expect(await balance('cards_mastercard')).toBe(before - 56);
    await sandbox.advance(60);
    expect((await api().call.GET('/cards/{code}', { params: { path: { code: card.code } } })).data.status).toBe('pending');
    const chosen = await sandbox.simulate('POST', `/cards/${card.code}/issuance`, { outcome: 'failed', reason: 'kyc_incomplete' });
    expect(chosen.body.data).toMatchObject({ code: card.code, status: 'failed', balance: 0 });
    expect(await balance('cards_mastercard')).toBe(before);
    await until(() => receiver.of('card.creation_failed').length > 0);
    expect(receiver.of('card.creation_failed')[0]!.data).toMatchObject({
      card_code: card.code,
      status: 'failed',
      last_four: null,
      reason: 'kyc_incomplete',
      refunded_amount: 56,
    });
    const again = await sandbox.simulate('POST', `/cards/${card.code}/issuance`, { outcome: 'activated' });
    expect(again.status).toBe(422);
    await sandbox.simulate('PATCH', '/account', { manual: false });
  });

  it('refuses an unknown customer (404), a shortage of the ops balance (400) and, on Découverte, physical cards (402)', async () => {
    const unknown = await failure(
      api().call.POST('/cards', {
        body: { customer_code: '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f', brand: 'VISA', category: 'virtual', amount: 10 },
      }),
    );
    expect(unknown).toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND' });
    await sandbox.simulate('PUT', '/balances/cards_visa', { balance: 50 });
    const short = await failure(
      api().call.POST('/cards', { body: { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 45 } }),
    );
    expect(short).toMatchObject({
      status: 400,
      code: 'INSUFFICIENT_BALANCE',
      details: { required: 51, available: 50, balance_type: 'cards_visa', reason: 'ops_balance_too_low' },
    });
    await sandbox.simulate('PUT', '/balances/cards_visa', { balance: 10000 });
  });
});

describe('Découverte limits', () => {
  const key = 'sk_test_decouverte_cards';
  it('virtual cards only, 25 cards and 5,000 USD loaded per calendar month (403 PLAN_LIMIT_REACHED)', async () => {
    const r = await startReceiver();
    await connect(sandbox, r, key);
    const owner = await newCustomer(sandbox, key);
    await sandbox.simulate('PATCH', '/account', { plan: 'decouverte' }, key);
    const client = sandbox.client(key);
    const physical = await failure(
      client.call.POST('/cards', {
        body: {
          customer_code: owner,
          brand: 'VISA',
          category: 'physical',
          amount: 10,
          shipping_address: { street: '1 rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FR' },
        },
      }),
    );
    expect(physical).toMatchObject({ status: 402, code: 'PLAN_UPGRADE_REQUIRED' });
    const big = await failure(
      client.call.POST('/cards', { body: { customer_code: owner, brand: 'VISA', category: 'virtual', amount: 5000.01 } }),
    );
    expect(big).toMatchObject({ status: 403, code: 'PLAN_LIMIT_REACHED' });
    for (let i = 0; i < 25; i++)
      await client.call.POST('/cards', {
        body: { customer_code: owner, brand: i % 2 ? 'VISA' : 'MASTERCARD', category: 'virtual', amount: 10 },
      });
    const twentySixth = await failure(
      client.call.POST('/cards', { body: { customer_code: owner, brand: 'VISA', category: 'virtual', amount: 10 } }),
    );
    expect(twentySixth).toMatchObject({
      status: 403,
      code: 'PLAN_LIMIT_REACHED',
      details: { limit: 'cards_created_per_month', allowed: 25, used: 25 },
    });
    // A new calendar month of the clock starts a new count.
    const now = new Date(clockOf(sandbox, key).now());
    const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    await sandbox.simulate('POST', '/clock/advance', { to: new Date(nextMonth).toISOString() }, key);
    await client.call.POST('/cards', { body: { customer_code: owner, brand: 'VISA', category: 'virtual', amount: 10 } });
    await r.close();
  });
});

describe('an active card', () => {
  it('top-up: pending, fee and amount debited, applied by itself with card.topup.completed', async () => {
    const code = await activeCard(100);
    const before = await balance('cards_visa');
    const topUp = (await api().call.POST('/cards/{code}/topup', { params: { path: { code } }, body: { amount: 50 } })).data;
    expect(topUp).toMatchObject({
      status: 'pending',
      amount: 50,
      fee: 1,
      total_debited: 51,
      debited_balance: 'cards_visa',
      currency: 'USD',
    });
    expect(await balance('cards_visa')).toBe(before - 51);
    await sandbox.advance(2);
    expect((await api().call.GET('/cards/{code}', { params: { path: { code } } })).data.balance).toBe(150);
    await until(() => receiver.of('card.topup.completed').some((e) => e.data.card_code === code));
    expect(receiver.of('card.topup.completed').find((e) => e.data.card_code === code)!.data).toMatchObject({
      amount: 50,
      fee: 1,
      balance: 150,
      topup_id: topUp.topup_id,
    });
  });

  it('top-up failure (simulation): amount and fee refunded, card.topup.failed', async () => {
    const code = await activeCard(20);
    await sandbox.simulate('PATCH', '/account', { manual: true });
    const before = await balance('cards_visa');
    const topUp = (await api().call.POST('/cards/{code}/topup', { params: { path: { code } }, body: { amount: 200 } })).data;
    expect(topUp.fee).toBe(4);
    const chosen = await sandbox.simulate('POST', `/topups/${topUp.topup_id}/outcome`, { outcome: 'failed', reason: 'provider_error' });
    expect(chosen.body.data.status).toBe('failed');
    expect(await balance('cards_visa')).toBe(before);
    expect((await api().call.GET('/cards/{code}', { params: { path: { code } } })).data.balance).toBe(20);
    await until(() => receiver.of('card.topup.failed').some((e) => e.data.card_code === code));
    expect(receiver.of('card.topup.failed').find((e) => e.data.card_code === code)!.data).toMatchObject({
      amount: 200,
      refunded_amount: 204,
      reason: 'provider_error',
    });
    await sandbox.simulate('PATCH', '/account', { manual: false });
  });

  it('freeze and unfreeze, with their events and state errors', async () => {
    const code = await activeCard(30);
    const frozen = (await api().call.POST('/cards/{code}/freeze', { params: { path: { code } } })).data;
    expect(frozen.status).toBe('frozen');
    expect(await failure(api().call.POST('/cards/{code}/freeze', { params: { path: { code } } }))).toMatchObject({
      status: 422,
      code: 'VALIDATION_ERROR',
      details: { reason: 'card_not_active', current_status: 'frozen' },
    });
    expect(await failure(api().call.POST('/cards/{code}/withdraw', { params: { path: { code } }, body: { amount: 5 } }))).toMatchObject({
      details: { reason: 'card_not_active' },
    });
    expect(await failure(api().call.POST('/cards/{code}/topup', { params: { path: { code } }, body: { amount: 5 } }))).toMatchObject({
      details: { reason: 'card_not_active' },
    });
    // A payment on a frozen card is declined.
    const declined = await sandbox.simulate('POST', `/cards/${code}/transactions`, {
      type: 'auth',
      amount: 3,
      merchant_name: 'COFFEE HOUSE',
    });
    expect(declined.body.data).toMatchObject({ type: 'decline', failure_reason: 'card_frozen', balance_after: 30 });
    const active = (await api().call.POST('/cards/{code}/unfreeze', { params: { path: { code } } })).data;
    expect(active.status).toBe('active');
    expect(await failure(api().call.POST('/cards/{code}/unfreeze', { params: { path: { code } } }))).toMatchObject({
      status: 422,
      details: { reason: 'card_not_frozen', current_status: 'active' },
    });
    await until(() => receiver.of('card.unfrozen').some((e) => e.data.card_code === code));
    expect(receiver.of('card.frozen').find((e) => e.data.card_code === code)!.data.status).toBe('frozen');
  });

  it('withdraw: minimum 5, 5 must remain, the plan fee, net credited to the brand balance', async () => {
    const code = await activeCard(60, 'MASTERCARD');
    const tooSmall = await sandbox.request('POST', `/v1/cards/${code}/withdraw`, { body: '{"amount":4}' });
    expect(tooSmall.status).toBe(422);
    expect(await failure(api().call.POST('/cards/{code}/withdraw', { params: { path: { code } }, body: { amount: 55.01 } }))).toMatchObject(
      {
        status: 400,
        code: 'INSUFFICIENT_BALANCE',
        details: { required: 55.01, available: 55, balance_type: 'card', card_code: code, reason: 'card_balance_too_low' },
      },
    );
    const before = await balance('cards_mastercard');
    const result = (await api().call.POST('/cards/{code}/withdraw', { params: { path: { code } }, body: { amount: 55 } })).data;
    expect(result).toMatchObject({
      status: 'completed',
      amount: 55,
      fee: 1.5,
      net_amount: 53.5,
      credited_balance: 'cards_mastercard',
      card_balance: 5,
      currency: 'USD',
    });
    expect(await balance('cards_mastercard')).toBe(before + 53.5);
    const transactions = (await api().call.GET('/cards/{code}/transactions', { params: { path: { code } } })).data;
    expect(transactions[0]).toMatchObject({ id: result.withdrawal_id, amount: 55, balance_after: 5 });
    await until(() => receiver.of('card.withdrawal.completed').some((e) => e.data.card_code === code));
    expect(receiver.of('card.withdrawal.completed').find((e) => e.data.card_code === code)!.data).toMatchObject({
      withdrawal_id: result.withdrawal_id,
      net_amount: 53.5,
      balance: 5,
    });
    // A card under 10 USD cannot be withdrawn from.
    expect(await failure(api().call.POST('/cards/{code}/withdraw', { params: { path: { code } }, body: { amount: 5 } }))).toMatchObject({
      status: 400,
    });
  });

  it("withdraw 400: `required` is the amount asked and `available` the most that can be withdrawn, as the contract's example", async () => {
    const examples = MODEL.byPath('POST', '/cards/{code}/withdraw')?.response(400)?.json?.examples ?? [];
    const example = (examples.find((e) => e.name === 'card_balance_too_low')!.value as any).error;
    // The example's card holds `available` plus what must remain on it.
    const code = await activeCard(example.details.available + toAmount(contractLimits().cardWithdrawalFloorMinor));
    expect(
      await failure(api().call.POST('/cards/{code}/withdraw', { params: { path: { code } }, body: { amount: example.details.required } })),
    ).toMatchObject({
      status: 400,
      code: example.code,
      details: { ...example.details, card_code: code },
    });
  });

  it('idempotency: parallel requests with one key run once; the others wait and replay the answer', async () => {
    const code = await activeCard(100);
    // In-process requests (no sockets) interleave as closely as the event loop allows.
    const send = () =>
      sandbox.server.inject({
        method: 'POST',
        url: `/v1/cards/${code}/withdraw`,
        payload: { amount: 10 },
        headers: { authorization: `Bearer ${KEY}`, 'idempotency-key': `parallel-${code}` },
      });
    const answers = await Promise.all(Array.from({ length: 5 }, send));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
    expect(new Set(answers.map((a) => a.json().data.withdrawal_id)).size).toBe(1);
    expect((await api().call.GET('/cards/{code}', { params: { path: { code } } })).data.balance).toBe(90);
  });

  it('card transactions (simulation): payment, decline, refund, 3-D Secure', async () => {
    const code = await activeCard(40);
    const paid = await sandbox.simulate('POST', `/cards/${code}/transactions`, {
      type: 'settle',
      amount: 12.9,
      merchant_name: 'COFFEE HOUSE',
      merchant_city: 'Paris',
      merchant_country: 'FR',
    });
    expect(paid.body.data).toMatchObject({ type: 'settle', direction: 'debit', amount: 12.9, balance_after: 27.1 });
    const tooMuch = await sandbox.simulate('POST', `/cards/${code}/transactions`, { type: 'auth', amount: 100 });
    expect(tooMuch.body.data).toMatchObject({ type: 'decline', failure_reason: 'insufficient_funds', balance_after: 27.1 });
    const refund = await sandbox.simulate('POST', `/cards/${code}/transactions`, { type: 'refund', amount: 2.9 });
    expect(refund.body.data).toMatchObject({ direction: 'credit', balance_after: 30 });
    const otp = await sandbox.simulate('POST', `/cards/${code}/3ds`, { amount: 19.99, merchant_name: 'SHOP', currency: 'EUR' });
    expect(otp.body.data.otp).toMatch(/^[0-9]{6}$/);
    await until(() => receiver.of('card.3ds_request').some((e) => e.data.card_code === code));
    expect(receiver.of('card.3ds_request').find((e) => e.data.card_code === code)!.data).toMatchObject({
      amount: '19.99',
      transaction_currency: 'EUR',
      otp: otp.body.data.otp,
    });
    await until(() => receiver.of('card.transaction').filter((e) => e.data.card_code === code).length === 3);
    const listed = (await api().call.GET('/cards/{code}/transactions', { params: { path: { code } } })).data;
    expect(listed.map((t) => t.type)).toEqual(['refund', 'decline', 'settle']);
    expect((await api().call.GET('/cards/{code}', { params: { path: { code } } })).data.balance).toBe(30);
  });

  it('sensitive data, then terminate: balance returned less fees, pending top-up refunded, card.terminated', async () => {
    const code = await activeCard(62.1);
    const sensitive = await api().GET('/cards/{code}/sensitive', { params: { path: { code } } });
    expect(sensitive.response.headers.get('cache-control')).toBe('no-store');
    expect(sensitive.data!.data.number).toMatch(/^4[0-9]{15}$/);
    expect(sensitive.data!.data.number.slice(-4)).toBe(
      (await api().call.GET('/cards/{code}', { params: { path: { code } } })).data.last_four,
    );
    await sandbox.simulate('PATCH', '/account', { manual: true });
    const before = await balance('cards_visa');
    await api().call.POST('/cards/{code}/topup', { params: { path: { code } }, body: { amount: 10 } });
    const result = (await api().call.POST('/cards/{code}/terminate', { params: { path: { code } } })).data;
    expect(result).toMatchObject({
      status: 'completed',
      card_status: 'cancelled',
      card_balance_at_closure: 62.1,
      provider_fee: 0.5,
      termination_fee: 1,
      refunded_amount: 60.6,
      credited_balance: 'cards_visa',
    });
    expect(await balance('cards_visa')).toBeCloseTo(before + 60.6, 10);
    await until(() => receiver.of('card.terminated').some((e) => e.data.card_code === code));
    expect(receiver.of('card.topup.failed').find((e) => e.data.card_code === code)!.data).toMatchObject({
      amount: 10,
      refunded_amount: 11,
      reason: 'card_terminated',
    });
    expect(await failure(api().call.GET('/cards/{code}/sensitive', { params: { path: { code } } }))).toMatchObject({
      status: 422,
      details: { reason: 'card_not_usable', current_status: 'cancelled' },
    });
    expect(await failure(api().call.POST('/cards/{code}/terminate', { params: { path: { code } } }))).toMatchObject({
      details: { reason: 'card_not_usable' },
    });
    await sandbox.simulate('PATCH', '/account', { manual: false });
  });
});

describe('the card provider (simulation): a failed withdrawal, a termination that waits', () => {
  it('a withdrawal the card provider fails: 502 OPERATION_FAILED, card.withdrawal.failed, nothing moves; the next one runs', async () => {
    const code = await activeCard(80);
    const armed = await sandbox.simulate('POST', `/cards/${code}/withdrawal-failure`, { reason: 'card_provider_unavailable' });
    expect(armed.body.data).toEqual({ card_code: code, next: 'withdrawal_failure', reason: 'card_provider_unavailable' });
    const ops = await balance('cards_visa');
    const failed = await failure(api().call.POST('/cards/{code}/withdraw', { params: { path: { code } }, body: { amount: 30 } }));
    expect(failed).toMatchObject({ status: 502, code: 'OPERATION_FAILED' });
    await until(() => receiver.of('card.withdrawal.failed').some((e) => e.data.card_code === code));
    expect(receiver.of('card.withdrawal.failed').find((e) => e.data.card_code === code)!.data).toMatchObject({
      amount: 30,
      reason: 'card_provider_unavailable',
      balance: 80,
      status: 'active',
    });
    expect((await api().call.GET('/cards/{code}', { params: { path: { code } } })).data.balance).toBe(80);
    expect(await balance('cards_visa')).toBe(ops);
    expect((await api().call.GET('/cards/{code}/transactions', { params: { path: { code } } })).data).toEqual([]);
    // Taken by one request: the next withdrawal completes.
    expect((await api().call.POST('/cards/{code}/withdraw', { params: { path: { code } }, body: { amount: 30 } })).data.status).toBe(
      'completed',
    );
    expect(receiver.of('card.withdrawal.failed').filter((e) => e.data.card_code === code)).toHaveLength(1);
  });

  it('a termination the card provider delays: pending and card.termination_pending, then card.terminated by itself 2 s later', async () => {
    const code = await activeCard(62.1);
    await sandbox.simulate('POST', `/cards/${code}/termination-delay`);
    const pending = (await api().call.POST('/cards/{code}/terminate', { params: { path: { code } } })).data;
    expect(pending).toEqual({
      card_code: code,
      status: 'pending',
      card_status: 'active',
      refunded_amount: null,
      card_balance_at_closure: null,
      provider_fee: null,
      termination_fee: null,
      credited_balance: 'cards_visa',
      currency: 'USD',
    });
    await until(() => receiver.of('card.termination_pending').some((e) => e.data.card_code === code));
    expect(receiver.of('card.termination_pending').find((e) => e.data.card_code === code)!.data).toMatchObject({
      status: 'active',
      balance: 62.1,
    });
    // Until the provider closes it, the card keeps its status; terminating it again answers the same, with no new event.
    expect((await api().call.GET('/cards/{code}', { params: { path: { code } } })).data.status).toBe('active');
    expect((await api().call.POST('/cards/{code}/terminate', { params: { path: { code } } })).data).toEqual(pending);
    const ops = await balance('cards_visa');
    await sandbox.advance(2);
    await until(() => receiver.of('card.terminated').some((e) => e.data.card_code === code));
    expect(receiver.of('card.terminated').find((e) => e.data.card_code === code)!.data).toMatchObject({
      status: 'cancelled',
      card_balance_at_closure: 62.1,
      refunded_amount: 60.6,
    });
    expect((await api().call.GET('/cards/{code}', { params: { path: { code } } })).data.status).toBe('cancelled');
    expect(await balance('cards_visa')).toBeCloseTo(ops + 60.6, 10);
    expect(receiver.of('card.termination_pending').filter((e) => e.data.card_code === code)).toHaveLength(1);
  });

  it('on a manual account the pending termination waits for POST /sandbox/cards/{code}/termination; none pending is a 422', async () => {
    const code = await activeCard(20);
    expect((await sandbox.simulate('POST', `/cards/${code}/termination`, { outcome: 'completed' })).status).toBe(422);
    await sandbox.simulate('PATCH', '/account', { manual: true });
    try {
      await sandbox.simulate('POST', `/cards/${code}/termination-delay`);
      expect((await api().call.POST('/cards/{code}/terminate', { params: { path: { code } } })).data.status).toBe('pending');
      await sandbox.advance(60);
      expect((await api().call.GET('/cards/{code}', { params: { path: { code } } })).data.status).toBe('active');
      const done = await sandbox.simulate('POST', `/cards/${code}/termination`, { outcome: 'completed' });
      expect(done.body.data).toMatchObject({ code, status: 'cancelled', balance: 0 });
      await until(() => receiver.of('card.terminated').some((e) => e.data.card_code === code));
    } finally {
      await sandbox.simulate('PATCH', '/account', { manual: false });
    }
  });
});

describe('the simulation API', () => {
  it('validates its requests from spec/sandbox.yaml and answers in the envelope', async () => {
    const code = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    const bad = await sandbox.simulate('POST', `/cards/${code}/issuance`, { outcome: 'exploded' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.fields).toEqual([{ field: 'outcome', message: 'must be one of "activated", "failed" (enum)' }]);
    const decimals = await sandbox.simulate('POST', `/cards/${code}/transactions`, { type: 'settle', amount: 1.001 });
    expect(decimals.body.error.details.fields).toEqual([{ field: 'amount', message: 'has too many decimal places (x-decimal-places)' }]);
    const unknown = await sandbox.simulate('POST', `/cards/${code}/issuance`, { outcome: 'failed' });
    expect(unknown.status).toBe(404);
    const back = await sandbox.simulate('POST', '/clock/advance', { to: '2000-01-01T00:00:00Z' });
    expect(back.status).toBe(422);
    expect(back.body.error.message).toMatch(/forward only/);
    const noKey = await fetch(`${sandbox.simulationUrl}/clock`);
    expect(noKey.status).toBe(401);
    const clock = await sandbox.simulate('GET', '/clock');
    expect(clock.body.data).toMatchObject({ now: clockOf(sandbox).iso(), frozen: true });
  });

  it('a zero auto-complete time issues cards right after the request', async () => {
    const quick = await startTestSandbox({ config: { defaults: { auto_complete_seconds: 0 } } });
    const r = await startReceiver();
    await connect(quick, r);
    const owner = await newCustomer(quick);
    const card = (
      await quick.client().call.POST('/cards', { body: { customer_code: owner, brand: 'VISA', category: 'virtual', amount: 10 } })
    ).data;
    expect(card.status).toBe('pending');
    await until(() => r.of('card.activated').length === 1);
    expect((await quick.client().call.GET('/cards/{code}', { params: { path: { code: card.code } } })).data.status).toBe('active');
    await quick.close();
    await r.close();
  });
});
