// The outcomes waiting on the clock survive a restart with a database file: a gift card order, a payout and a
// dashboard wallet withdrawal left pending by one sandbox complete in the next, each exactly once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, newCustomer, opsBalance, reconcile, startReceiver, startTestSandbox, until } from './support.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-money-db-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('restart with --db', () => {
  it('pending gift card orders, payouts and wallet withdrawals complete after the restart', async () => {
    const db = path.join(dir, 'money.sqlite');
    const key = 'sk_test_money_restart';
    const receiver = await startReceiver();
    let sandbox = await startTestSandbox({ db });
    await connect(sandbox, receiver, key);
    const customer = await newCustomer(sandbox, key);
    let client = sandbox.client(key);
    const order = (
      await client.call.POST('/gift-cards/orders', {
        body: { customer_code: customer, product_id: 'amazon_us_usd', amount: 50, quantity: 2 },
      })
    ).data;
    const beneficiary = (
      await client.call.POST('/payouts/beneficiaries', {
        body: {
          customer_code: customer,
          rail: 'sepa',
          type: 'individual',
          name: 'Amina Diallo',
          bank_name: 'Bank',
          iban: 'FR7630006000011234567890189',
          address: { street: 's', city: 'Paris', postal_code: '75002', country: 'FR' },
        },
      })
    ).data;
    const quote = (
      await client.call.POST('/payouts/quotes', { body: { beneficiary_code: beneficiary.code, amount_usd: 300, reference: 'restart' } })
    ).data;
    const payout = (await client.call.POST('/payouts', { body: { quote_code: quote.code } })).data;
    const wallet = (await client.call.POST('/wallets', { body: { customer_code: customer, currency: 'USDC' } })).data;
    await sandbox.simulate('POST', `/wallets/${wallet.id}/deposits`, { amount: 20 }, key);
    const withdrawal = await sandbox.simulate('POST', `/wallets/${wallet.id}/withdrawals`, { amount: 5, to_address: '0xabc' }, key);
    expect(withdrawal.body.data.status).toBe('processing');
    expect(sandbox.problems).toEqual([]);
    await sandbox.close();

    sandbox = await startTestSandbox({ db });
    client = sandbox.client(key);
    expect((await client.call.GET('/payouts/{code}', { params: { path: { code: payout.code } } })).data.status).toBe('pending');
    await sandbox.advance(4, key);
    await until(() => receiver.of('gift_card.delivered').length === 1 && receiver.of('wallet.withdrawal_completed').length === 1);
    expect((await client.call.GET('/gift-cards/orders/{code}', { params: { path: { code: order.code } } })).data.redemptions).toHaveLength(
      2,
    );
    expect((await client.call.GET('/payouts/{code}', { params: { path: { code: payout.code } } })).data.status).toBe('completed');
    expect(receiver.of('wallet.withdrawal_completed')[0]!.data.new_balance).toBe(15);
    expect(await opsBalance(sandbox, 'gift_cards', key)).toBe(9900);
    expect(reconcile(sandbox, 'payout_sepa', key)).toEqual({ payout: -30_150 });
    await sandbox.advance(3600, key);
    expect(receiver.of('gift_card.delivered')).toHaveLength(1);
    expect(sandbox.problems).toEqual([]);
    expect(receiver.problems).toEqual([]);
    await sandbox.close();
    await receiver.close();
  });
});
