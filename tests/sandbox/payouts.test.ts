// Payouts end to end over HTTP: beneficiaries (SEPA and ACH, soft deleted), quotes, confirmation, the
// statuses pending -> processing -> completed by themselves, failure (the total refunded) and refund (the
// amount refunded, the fee kept), the lists and their filters; every documented error reached through real
// state (quote_expired, quote_already_confirmed, INSUFFICIENT_BALANCE, PLAN_LIMIT_REACHED) and every cent of
// the debited balances accounted for.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  KEY,
  clockOf,
  connect,
  failure,
  newCustomer,
  opsBalance,
  reconcile,
  startReceiver,
  until,
  useScenario,
  type Receiver,
  type TestSandbox,
} from './support.ts';

const scenario = useScenario();
let sandbox: TestSandbox, receiver: Receiver, customer: string;
beforeAll(() => ({ sandbox, receiver, customer } = scenario));

const api = (key = KEY) => sandbox.client(key);
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const ADDRESS = { street: '1 rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FR' };

async function sepa(key = KEY, owner = customer, iban = 'FR7630006000011234567890189') {
  return (
    await api(key).call.POST('/payouts/beneficiaries', {
      body: {
        customer_code: owner,
        rail: 'sepa',
        type: 'individual',
        name: 'Amina Diallo',
        bank_name: 'Banque Exemple',
        iban,
        address: ADDRESS,
      },
    })
  ).data;
}
async function ach(key = KEY, owner = customer) {
  return (
    await api(key).call.POST('/payouts/beneficiaries', {
      body: {
        customer_code: owner,
        rail: 'ach',
        type: 'individual',
        name: 'John Smith',
        bank_name: 'Example Bank',
        account_number: '000123456789',
        routing_number: '021000021',
        address: { ...ADDRESS, country: 'US', state_province: 'NY' },
      },
    })
  ).data;
}
const quote = (beneficiary: string, amount: number, key = KEY) =>
  api(key).call.POST('/payouts/quotes', { body: { beneficiary_code: beneficiary, amount_usd: amount, reference: 'INV-1' } });
const confirm = (quoteCode: string, key = KEY) => api(key).call.POST('/payouts', { body: { quote_code: quoteCode } });
const read = (code: string, key = KEY) => api(key).call.GET('/payouts/{code}', { params: { path: { code } } });

describe('beneficiaries', () => {
  it('SEPA: the IBAN masked and the BIC found from it; ACH: the account number masked, checking by default', async () => {
    const s = await sepa();
    expect(s).toMatchObject({
      rail: 'sepa',
      iban_masked: 'FR76*******************0189',
      bic_swift: 'SNDBFRPP',
      customer_code: customer,
      address: { ...ADDRESS, state_province: '' },
    });
    const a = await ach();
    expect(a).toMatchObject({
      rail: 'ach',
      iban_masked: null,
      account_number_masked: '********6789',
      routing_number: '021000021',
      account_type: 'checking',
    });
    const withBic = (
      await api().call.POST('/payouts/beneficiaries', {
        body: {
          customer_code: customer,
          rail: 'sepa',
          type: 'individual',
          name: 'X',
          bank_name: 'B',
          iban: 'BR1500000000000010932840814P2',
          bic_swift: 'BOFABRSPXXX',
          address: ADDRESS,
        },
      })
    ).data;
    expect(withBic.bic_swift).toBe('BOFABRSPXXX');
    expect(await failure(sepa(KEY, customer, 'BR1500000000000010932840814P2'))).toMatchObject({
      status: 422,
      details: { fields: [{ field: 'bic_swift' }] },
    });
    expect(await failure(sepa(KEY, UNKNOWN))).toMatchObject({ status: 404 });
    expect((await api().call.GET('/payouts/beneficiaries/{code}', { params: { path: { code: s.code } } })).data).toEqual(s);
  });

  it('a deleted beneficiary leaves the list, cannot be read, quoted or deleted again; payouts already sent are unaffected', async () => {
    const owner = await newCustomer(sandbox);
    const b = await sepa(KEY, owner);
    const q = (await quote(b.code, 100)).data;
    const payout = (await confirm(q.code)).data;
    const pending = (await quote(b.code, 50)).data;
    expect(
      (await api().call.GET('/payouts/beneficiaries', { params: { query: { customer_code: owner } } })).data.map((x) => x.code),
    ).toEqual([b.code]);

    expect((await api().call.DELETE('/payouts/beneficiaries/{code}', { params: { path: { code: b.code } } })).data).toEqual({
      code: b.code,
      deleted: true,
    });
    expect((await api().call.GET('/payouts/beneficiaries', { params: { query: { customer_code: owner } } })).data).toEqual([]);
    expect(await failure(api().call.GET('/payouts/beneficiaries/{code}', { params: { path: { code: b.code } } }))).toMatchObject({
      status: 404,
    });
    expect(await failure(api().call.DELETE('/payouts/beneficiaries/{code}', { params: { path: { code: b.code } } }))).toMatchObject({
      status: 404,
    });
    expect(await failure(quote(b.code, 10))).toMatchObject({ status: 404 });
    expect(await failure(confirm(pending.code))).toMatchObject({ status: 404 });

    await sandbox.advance(4);
    const sent = (await read(payout.code)).data;
    expect(sent).toMatchObject({ status: 'completed', beneficiary: { code: b.code, iban_masked: b.iban_masked } });
  });
});

describe('quotes and payouts', () => {
  it('a SEPA quote prices the payout; confirmed, it debits payout_sepa and goes pending -> processing -> completed', async () => {
    const b = await sepa();
    const before = await opsBalance(sandbox, 'payout_sepa');
    const q = (await quote(b.code, 1000)).data;
    expect(q).toMatchObject({
      rail: 'sepa',
      amount_usd: 1000,
      fee_usd: 5,
      total_debited_usd: 1005,
      received_amount: 920,
      received_currency: 'EUR',
      amount_eur: 920,
      exchange_rate: 0.92,
      balance_type: 'payout_sepa',
    });
    expect(Date.parse(q.expires_at) - Date.parse(q.created_at)).toBe(300_000);
    expect(await opsBalance(sandbox, 'payout_sepa')).toBe(before);
    expect(await failure(read(q.code))).toMatchObject({ status: 404 });
    expect((await api().call.GET('/payouts', { params: { query: { limit: 100 } } })).data.map((p) => p.code)).not.toContain(q.code);

    const p = (await confirm(q.code)).data;
    expect(p).toMatchObject({
      code: q.code,
      status: 'pending',
      total_debited_usd: 1005,
      sent_at: null,
      completed_at: null,
      refunded_at: null,
      failure_reason: null,
    });
    expect(await opsBalance(sandbox, 'payout_sepa')).toBe(before - 1005);
    await until(() => receiver.of('balance.debited').some((e) => e.data.reason === 'payout' && e.data.amount === 1005));
    expect(await failure(confirm(q.code))).toMatchObject({
      status: 422,
      details: { reason: 'quote_already_confirmed', current_status: 'pending' },
    });

    await sandbox.advance(2);
    expect((await read(p.code)).data).toMatchObject({ status: 'processing', completed_at: null });
    await sandbox.advance(2);
    const done = (await read(p.code)).data;
    expect(done.status).toBe('completed');
    expect(Date.parse(done.completed_at!) - Date.parse(done.sent_at!)).toBe(2000);
    expect((await api().call.GET('/payouts', { params: { query: { limit: 100 } } })).data.map((x) => x.code)).toContain(p.code);
  });

  it('an ACH payout is paid in USD from others; a quote expires after 5 minutes of the clock', async () => {
    const b = await ach();
    const before = await opsBalance(sandbox, 'others');
    const q = (await quote(b.code, 100)).data;
    expect(q).toMatchObject({
      rail: 'ach',
      fee_usd: 2,
      received_amount: 100,
      received_currency: 'USD',
      exchange_rate: 1,
      balance_type: 'others',
      beneficiary: { country: 'US', account_number_masked: '********6789' },
    });
    await confirm(q.code);
    expect(await opsBalance(sandbox, 'others')).toBe(before - 102);

    const late = (await quote(b.code, 10)).data;
    await sandbox.advance(300);
    expect(await failure(confirm(late.code))).toMatchObject({
      status: 422,
      code: 'VALIDATION_ERROR',
      details: { reason: 'quote_expired', current_status: 'expired' },
    });
    expect(await failure(confirm(UNKNOWN))).toMatchObject({ status: 404 });
    expect(await failure(quote(UNKNOWN, 10))).toMatchObject({ status: 404 });
  });

  it('failure refunds the total, a refund after completion returns the amount and keeps the fee; every cent accounted for', async () => {
    const key = 'sk_test_payout_manual';
    const r = await startReceiver();
    await connect(sandbox, r, key);
    await sandbox.simulate('PATCH', '/account', { manual: true }, key);
    const owner = await newCustomer(sandbox, key);
    const b = await sepa(key, owner);
    const failing = (await confirm((await quote(b.code, 200, key)).data.code, key)).data;
    const returned = (await confirm((await quote(b.code, 300, key)).data.code, key)).data;
    const kept = (await confirm((await quote(b.code, 400.1, key)).data.code, key)).data;
    await sandbox.advance(60, key);
    expect((await read(failing.code, key)).data.status).toBe('pending');

    expect((await sandbox.simulate('POST', `/payouts/${failing.code}/outcome`, { outcome: 'processing' }, key)).body.data.status).toBe(
      'processing',
    );
    const failed = await sandbox.simulate(
      'POST',
      `/payouts/${failing.code}/outcome`,
      { outcome: 'failed', reason: 'beneficiary_account_closed' },
      key,
    );
    expect(failed.body.data).toMatchObject({ status: 'failed', failure_reason: 'beneficiary_account_closed' });
    expect((await sandbox.simulate('POST', `/payouts/${returned.code}/outcome`, { outcome: 'refunded' }, key)).status).toBe(422);
    expect((await sandbox.simulate('POST', `/payouts/${returned.code}/outcome`, { outcome: 'completed' }, key)).body.data.status).toBe(
      'completed',
    );
    const refund = await sandbox.simulate(
      'POST',
      `/payouts/${returned.code}/outcome`,
      { outcome: 'refunded', reason: 'returned_by_bank' },
      key,
    );
    expect(refund.body.data.status).toBe('refunded');
    expect(refund.body.data.refunded_at).not.toBeNull();
    const bad = await sandbox.simulate('POST', `/payouts/${failing.code}/outcome`, { outcome: 'completed' }, key);
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.current_status).toBe('failed');
    expect((await sandbox.simulate('POST', `/payouts/${UNKNOWN}/outcome`, { outcome: 'completed' }, key)).status).toBe(404);

    // Fees: 200 -> 1.00, 300 -> 1.50, 400.10 -> 2.00. Debited 201.00 + 301.50 + 402.10 = 904.60; refunded 201.00 + 300.00.
    expect(await opsBalance(sandbox, 'payout_sepa', key)).toBe(10_000 - 904.6 + 501);
    expect(reconcile(sandbox, 'payout_sepa', key)).toEqual({ payout: -90_460, payout_failed_refund: 20_100, payout_returned: 30_000 });
    expect((await read(kept.code, key)).data.status).toBe('pending');

    const listed = await api(key).call.GET('/payouts', {});
    expect(listed.data.map((p) => p.code)).toHaveLength(3);
    const failedOnly = await api(key).call.GET('/payouts', { params: { query: { status: 'failed' } } });
    expect(failedOnly.data.map((p) => p.code)).toEqual([failing.code]);
    expect(r.problems).toEqual([]);
    await r.close();
  });

  it('lists most recent first, by customer and period; an unknown customer is 404', async () => {
    const key = 'sk_test_payout_list';
    const r = await startReceiver();
    await connect(sandbox, r, key);
    const one = await newCustomer(sandbox, key);
    const two = await newCustomer(sandbox, key);
    const first = (await confirm((await quote((await sepa(key, one)).code, 10, key)).data.code, key)).data;
    await sandbox.advance(10, key);
    const middle = clockOf(sandbox, key).iso();
    const second = (await confirm((await quote((await ach(key, two)).code, 20, key)).data.code, key)).data;
    expect((await api(key).call.GET('/payouts', {})).data.map((p) => p.code)).toEqual([second.code, first.code]);
    expect((await api(key).call.GET('/payouts', { params: { query: { customer_code: one } } })).data.map((p) => p.code)).toEqual([
      first.code,
    ]);
    expect((await api(key).call.GET('/payouts', { params: { query: { created_from: middle } } })).data.map((p) => p.code)).toEqual([
      second.code,
    ]);
    expect((await api(key).call.GET('/payouts', { params: { query: { created_to: middle } } })).data.map((p) => p.code)).toEqual([
      first.code,
    ]);
    expect(await failure(api(key).call.GET('/payouts', { params: { query: { customer_code: UNKNOWN } } }))).toMatchObject({ status: 404 });
    expect(await failure(api(key).call.GET('/payouts/beneficiaries', { params: { query: { customer_code: UNKNOWN } } }))).toMatchObject({
      status: 404,
    });
    await r.close();
  });

  it('too little on the balance: 400 INSUFFICIENT_BALANCE; Découverte: 5,000 USD of payouts a month, then 403 PLAN_LIMIT_REACHED', async () => {
    const key = 'sk_test_payout_limit';
    const r = await startReceiver();
    await connect(sandbox, r, key);
    const owner = await newCustomer(sandbox, key);
    const b = await sepa(key, owner);
    await sandbox.simulate('PUT', '/balances/payout_sepa', { balance: 100 }, key);
    expect(await failure(confirm((await quote(b.code, 100, key)).data.code, key))).toMatchObject({
      status: 400,
      code: 'INSUFFICIENT_BALANCE',
      details: { reason: 'ops_balance_too_low', balance_type: 'payout_sepa', required: 101, available: 100 },
    });
    await sandbox.simulate('PUT', '/balances/payout_sepa', { balance: 10_000 }, key);
    await sandbox.simulate('PATCH', '/account', { plan: 'decouverte' }, key);
    await confirm((await quote(b.code, 4000, key)).data.code, key);
    const over = (await quote(b.code, 1000.01, key)).data;
    expect(await failure(confirm(over.code, key))).toMatchObject({
      status: 403,
      code: 'PLAN_LIMIT_REACHED',
      details: { limit: 'payouts_usd_per_month', allowed: 5000, used: 4000 },
    });
    await confirm((await quote(b.code, 1000, key)).data.code, key);
    // A new calendar month of the clock starts a new allowance.
    const now = new Date(clockOf(sandbox, key).now());
    await sandbox.simulate(
      'POST',
      '/clock/advance',
      { to: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString() },
      key,
    );
    await confirm((await quote(b.code, 1000.01, key)).data.code, key);
    await r.close();
  });
});
