// Ops balances (debits and credits per operation and fee, the transaction history, balance.low_balance on a
// crossing debit and every 4 hours of the clock) and customers (list, get, activate).
import { beforeAll, describe, expect, it } from 'vitest';
import { isPartnerApiError } from '../../src/client/index.ts';
import { clockOf, newCustomer, until, useScenario, type Receiver, type TestSandbox } from './support.ts';

const KEY = 'sk_test_balances';
const scenario = useScenario({ key: KEY });
let sandbox: TestSandbox, receiver: Receiver, customer: string;
beforeAll(() => ({ sandbox, receiver, customer } = scenario));

const api = () => sandbox.client(KEY);

describe('ops balances', () => {
  it('are funded on first use: five balances of 10,000 USD, threshold 100', async () => {
    const list = (await sandbox.client('sk_live_fresh').call.GET('/balance')).data;
    expect(list.map((b) => [b.type, b.balance, b.lowBalanceThreshold, b.negative_balance_since])).toEqual([
      ['cards_visa', 10000, 100, null],
      ['cards_mastercard', 10000, 100, null],
      ['gift_cards', 10000, 100, null],
      ['payout_sepa', 10000, 100, null],
      ['others', 10000, 100, null],
    ]);
  });

  it('record every debit and credit, most recent first, and send balance.low_balance when a debit crosses the threshold', async () => {
    await sandbox.simulate('PUT', '/balances/cards_visa', { balance: 150 }, KEY);
    await api().call.POST('/cards', { body: { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 44 } }); // 150 - 50 = 100
    expect(receiver.of('balance.low_balance')).toHaveLength(0);
    await api().call.POST('/cards', { body: { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 1 } }); // 100 - 7 = 93
    await until(() => receiver.of('balance.low_balance').length === 1);
    expect(receiver.of('balance.low_balance')[0]!.data).toEqual({ balance_type: 'cards_visa', balance: 93, lowBalanceThreshold: 100 });
    await api().call.POST('/cards', { body: { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 1 } }); // 86: no second crossing
    const history = (await api().call.GET('/balance/{type}/transactions', { params: { path: { type: 'cards_visa' } } })).data;
    expect(history.slice(0, 4).map((t) => [t.direction, t.amount, t.balance_after, t.reason])).toEqual([
      ['debit', 7, 86, 'card_issuance'],
      ['debit', 7, 93, 'card_issuance'],
      ['debit', 50, 100, 'card_issuance'],
      ['debit', 9850, 150, 'sandbox_adjustment'],
    ]);
    expect(history[0]!.customer_code).toBe(customer);
    await until(() => receiver.of('balance.debited').length === 3);
    expect(receiver.of('balance.low_balance')).toHaveLength(1);
  });

  it('send balance.low_balance every 4 hours of the clock while a balance stays below its threshold', async () => {
    const before = receiver.of('balance.low_balance').length;
    await sandbox.advance(4 * 3600, KEY);
    await until(() => receiver.of('balance.low_balance').length === before + 1);
    await sandbox.simulate('PUT', '/balances/cards_visa', { balance: 5000 }, KEY);
    await sandbox.advance(4 * 3600, KEY);
    await sandbox.advance(1, KEY);
    expect(receiver.of('balance.low_balance')).toHaveLength(before + 1);
  });

  it('filter the history by created_from (inclusive) and created_to (exclusive); a bad date is a 422', async () => {
    const first = clockOf(sandbox, KEY).now();
    await sandbox.simulate('PUT', '/balances/gift_cards', { balance: 9000 }, KEY);
    await sandbox.advance(60, KEY);
    const second = clockOf(sandbox, KEY).now();
    await sandbox.simulate('PUT', '/balances/gift_cards', { balance: 8000 }, KEY);
    const list = async (query: Record<string, string>) =>
      (await sandbox.request('GET', `/v1/balance/gift_cards/transactions?${new URLSearchParams(query)}`, { key: KEY })).body.data.map(
        (t: { balance_after: number }) => t.balance_after,
      );
    expect(await list({})).toEqual([8000, 9000]);
    expect(await list({ created_from: new Date(second).toISOString() })).toEqual([8000]);
    expect(await list({ created_to: new Date(second).toISOString() })).toEqual([9000]);
    expect(await list({ created_from: new Date(first).toISOString(), created_to: new Date(first + 1).toISOString() })).toEqual([9000]);
    const bad = await sandbox.request('GET', '/v1/balance/gift_cards/transactions?created_from=yesterday', { key: KEY });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.fields).toEqual([{ field: 'created_from', message: 'must match format "date-time" (format)' }]);
  });

  it('an unknown balance type is a validation error', async () => {
    const r = await sandbox.request('GET', '/v1/balance/bitcoin', { key: KEY });
    expect(r.status).toBe(422);
  });
});

describe('customers', () => {
  it('list (most recent first, filters), get, activate; unknown customer 404', async () => {
    const second = await newCustomer(sandbox, KEY);
    const list = (await api().call.GET('/customers')).data;
    expect(list.map((c) => c.customer_code).slice(0, 2)).toEqual([second, customer]);
    const one = (await api().call.GET('/customers/{customerCode}', { params: { path: { customerCode: second } } })).data;
    expect(one).toMatchObject({ status: 'active', verification_level: 'basic', restriction_reason: null, first_name: 'Amina' });
    const filtered = (await api().call.GET('/customers', { params: { query: { external_reference: one.external_reference } } })).data;
    expect(filtered.map((c) => c.customer_code)).toEqual([second]);
    const activated = (await api().call.POST('/customers/{customerCode}/activate', { params: { path: { customerCode: second } } })).data;
    expect(activated.status).toBe('active');
    try {
      await api().call.GET('/customers/{customerCode}', { params: { path: { customerCode: '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f' } } });
      throw new Error('expected 404');
    } catch (error) {
      expect(isPartnerApiError(error) && error.status).toBe(404);
    }
  });

  it('a restricted customer cannot be activated nor get cards (403 ACCOUNT_RESTRICTED)', async () => {
    const code = await newCustomer(sandbox, KEY);
    sandbox.core.db.run("UPDATE customers SET status = 'restricted', restriction_reason = 'identity_mismatch' WHERE code = ?", code);
    const activate = await sandbox.request('POST', `/v1/customers/${code}/activate`, { key: KEY });
    expect(activate.status).toBe(403);
    expect(activate.body.error).toMatchObject({
      code: 'ACCOUNT_RESTRICTED',
      details: { reason: 'customer_restricted', current_status: 'restricted' },
    });
    const card = await sandbox.request('POST', '/v1/cards', {
      key: KEY,
      body: JSON.stringify({ customer_code: code, brand: 'VISA', category: 'virtual', amount: 10 }),
    });
    expect(card.status).toBe(403);
  });
});
