// Wallets and virtual accounts end to end over HTTP, with the package's client and a receiver that verifies
// every delivery: wallet creation and lists, deposits and dashboard withdrawals (completed, failed, refused
// for want of funds), virtual accounts at the `full` level with their opening fee, deposits and transfers;
// every documented error reached through real state.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  KEY,
  connect,
  failure,
  newCustomer,
  opsBalance,
  reconcile,
  startReceiver,
  until,
  restrictCustomer,
  verifyCustomer,
  useScenario,
  type Receiver,
  type TestSandbox,
} from './support.ts';

const scenario = useScenario();
let sandbox: TestSandbox, receiver: Receiver, customer: string;
beforeAll(() => ({ sandbox, receiver, customer } = scenario));

const api = (key = KEY) => sandbox.client(key);
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

async function newWallet(currency: 'USDC' | 'USDT' = 'USDC', key = KEY, owner = customer) {
  return (await api(key).call.POST('/wallets', { body: { customer_code: owner, currency } })).data;
}

describe('wallets', () => {
  it('creates USDC and USDT collection addresses, listed most recent first and by customer', async () => {
    const other = await newCustomer(sandbox);
    const usdc = await newWallet('USDC');
    const usdt = await newWallet('USDT', KEY, other);
    expect(usdc).toMatchObject({ customer_code: customer, currency: 'USDC', network: 'ethereum', balance: 0 });
    expect(usdc.address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(usdt).toMatchObject({ currency: 'USDT', network: 'tron' });
    expect(usdt.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    await sandbox.advance(1); // the order is by created_at, then id (contract): a later wallet comes first
    const chosen = (await api().call.POST('/wallets', { body: { customer_code: customer, currency: 'USDC', network: 'polygon' } })).data;
    expect(chosen.network).toBe('polygon');

    const all = await api().call.GET('/wallets', { params: { query: { limit: 100 } } });
    const ids = all.data.map((w) => w.id);
    expect(ids.indexOf(chosen.id)).toBeLessThan(ids.indexOf(usdc.id));
    const mine = await api().call.GET('/wallets', { params: { query: { customer_code: other } } });
    expect(mine.data.map((w) => w.id)).toEqual([usdt.id]);
    expect(mine.pagination.total).toBe(1);
  });

  it('refuses an unknown customer (404), a restricted one (403) and an unknown filter (404)', async () => {
    expect(await failure(api().call.POST('/wallets', { body: { customer_code: UNKNOWN, currency: 'USDC' } }))).toMatchObject({
      status: 404,
      code: 'RESOURCE_NOT_FOUND',
    });
    expect(await failure(api().call.GET('/wallets', { params: { query: { customer_code: UNKNOWN } } }))).toMatchObject({ status: 404 });
    const restricted = await newCustomer(sandbox);
    await restrictCustomer(sandbox, restricted);
    expect(await failure(api().call.POST('/wallets', { body: { customer_code: restricted, currency: 'USDT' } }))).toMatchObject({
      status: 403,
      code: 'ACCOUNT_RESTRICTED',
      details: { reason: 'customer_restricted', current_status: 'restricted' },
    });
  });

  it('a deposit credits the wallet and sends wallet.deposit_received; a dashboard withdrawal completes by itself', async () => {
    const wallet = await newWallet();
    const deposit = await sandbox.simulate('POST', `/wallets/${wallet.id}/deposits`, { amount: 250.123456, from_address: '0xabc' });
    expect(deposit.status).toBe(200);
    expect(deposit.body.data.balance).toBe(250.123456);
    await until(() => receiver.of('wallet.deposit_received').some((e) => e.data.wallet_id === wallet.id));
    const received = receiver.of('wallet.deposit_received').find((e) => e.data.wallet_id === wallet.id)!;
    expect(received.data).toMatchObject({
      customer_code: customer,
      amount: 250.123456,
      currency: 'USDC',
      network: 'ethereum',
      from_address: '0xabc',
      new_balance: 250.123456,
    });

    const requested = await sandbox.simulate('POST', `/wallets/${wallet.id}/withdrawals`, { amount: 100, to_address: '0xdef' });
    expect(requested.body.data).toMatchObject({
      status: 'processing',
      amount: 100,
      commission: 1,
      network_fee: 1,
      total_fee: 2,
      net_amount: 98,
      currency: 'USDC',
      blockchain: 'ethereum',
    });
    const listed = await api().call.GET('/wallets/withdrawals', {});
    expect(listed.data[0]).toEqual(requested.body.data);
    const afterRequest = (await api().call.GET('/wallets', { params: { query: { customer_code: customer } } })).data.find(
      (w) => w.id === wallet.id,
    )!;
    expect(afterRequest.balance).toBe(150.123456);

    await sandbox.advance(2);
    await until(() => receiver.of('wallet.withdrawal_completed').some((e) => e.data.wallet_id === wallet.id));
    const completed = receiver.of('wallet.withdrawal_completed').find((e) => e.data.wallet_id === wallet.id)!;
    expect(completed.data).toMatchObject({ amount: 100, to_address: '0xdef', new_balance: 150.123456, tx_hash: requested.body.data.tx_id });
    expect((await api().call.GET('/wallets/withdrawals', {})).data[0]!.status).toBe('completed');
  });

  it('a failed withdrawal returns the amount; more than the wallet holds fails at once; a settled one has no outcome', async () => {
    const key = 'sk_test_wallet_manual';
    const r = await startReceiver();
    await connect(sandbox, r, key);
    await sandbox.simulate('PATCH', '/account', { manual: true }, key);
    const owner = await newCustomer(sandbox, key);
    const wallet = await newWallet('USDT', key, owner);
    await sandbox.simulate('POST', `/wallets/${wallet.id}/deposits`, { amount: 50 }, key);

    const w = await sandbox.simulate('POST', `/wallets/${wallet.id}/withdrawals`, { amount: 40, to_address: 'TXYZ' }, key);
    await sandbox.advance(10, key);
    expect((await api(key).call.GET('/wallets/withdrawals', {})).data[0]!.status).toBe('processing');
    const failed = await sandbox.simulate(
      'POST',
      `/wallet-withdrawals/${w.body.data.code}/outcome`,
      { outcome: 'failed', reason: 'provider_error' },
      key,
    );
    expect(failed.body.data.status).toBe('failed');
    expect((await api(key).call.GET('/wallets', {})).data[0]!.balance).toBe(50);
    await until(() => r.of('wallet.withdrawal_failed').length === 1);
    expect(r.of('wallet.withdrawal_failed')[0]!.data).toMatchObject({
      wallet_id: wallet.id,
      amount: 40,
      to_address: 'TXYZ',
      reason: 'provider_error',
    });

    const again = await sandbox.simulate('POST', `/wallet-withdrawals/${w.body.data.code}/outcome`, { outcome: 'completed' }, key);
    expect(again.status).toBe(422);
    expect(again.body.error.details.current_status).toBe('failed');

    const tooMuch = await sandbox.simulate('POST', `/wallets/${wallet.id}/withdrawals`, { amount: 60, to_address: 'TXYZ' }, key);
    expect(tooMuch.body.data.status).toBe('failed');
    await until(() => r.of('wallet.withdrawal_failed').length === 2);
    expect(r.of('wallet.withdrawal_failed')[1]!.data.reason).toBe('insufficient_balance');
    expect((await api(key).call.GET('/wallets', {})).data[0]!.balance).toBe(50);

    const belowFees = await sandbox.simulate('POST', `/wallets/${wallet.id}/withdrawals`, { amount: 1, to_address: 'TXYZ' }, key);
    expect(belowFees.status).toBe(422);
    expect((await sandbox.simulate('POST', '/wallets/wal_unknown/deposits', { amount: 1 }, key)).status).toBe(404);
    expect((await sandbox.simulate('POST', `/wallet-withdrawals/${UNKNOWN}/outcome`, { outcome: 'completed' }, key)).status).toBe(404);
    expect(r.problems).toEqual([]);
    await r.close();
  });
});

describe('virtual accounts', () => {
  it('needs the full verification level: 422 verification_level_too_low below it', async () => {
    const basic = await newCustomer(sandbox);
    expect(await failure(api().call.POST('/virtual-accounts', { body: { customer_code: basic, currency: 'EUR' } }))).toMatchObject({
      status: 422,
      code: 'VALIDATION_ERROR',
      details: { reason: 'verification_level_too_low', current_verification_level: 'basic', required_verification_level: 'full' },
    });
    await verifyCustomer(sandbox, basic, 'verified');
    expect(
      (await failure(api().call.POST('/virtual-accounts', { body: { customer_code: basic, currency: 'EUR' } }))).details
        .current_verification_level,
    ).toBe('verified');
    expect(await failure(api().call.POST('/virtual-accounts', { body: { customer_code: UNKNOWN, currency: 'EUR' } }))).toMatchObject({
      status: 404,
    });
  });

  it('opens an active EUR account with a valid IBAN, billed 5.00 to others with balance.debited', async () => {
    const holder = await newCustomer(sandbox);
    await verifyCustomer(sandbox, holder, 'full');
    const before = await opsBalance(sandbox, 'others');
    const va = (await api().call.POST('/virtual-accounts', { body: { customer_code: holder, currency: 'EUR' } })).data;
    expect(va).toMatchObject({
      customer_code: holder,
      currency: 'EUR',
      status: 'active',
      account_holder_name: 'Amina Diallo',
      bic_swift: 'SNDBFRPPXXX',
    });
    const iban = va.iban!;
    const numeric = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
    expect(BigInt(numeric) % 97n).toBe(1n);
    expect(await opsBalance(sandbox, 'others')).toBe(before - 5);
    await until(() =>
      receiver.of('balance.debited').some((e) => e.data.reason === 'virtual_account_opening' && e.data.customer_code === holder),
    );
    expect((await api().call.GET('/virtual-accounts/{code}', { params: { path: { code: va.code } } })).data).toEqual(va);
    expect((await api().call.GET('/virtual-accounts', { params: { query: { customer_code: holder } } })).data).toEqual([va]);
    expect(await failure(api().call.GET('/virtual-accounts/{code}', { params: { path: { code: UNKNOWN } } }))).toMatchObject({
      status: 404,
    });
    expect(await failure(api().call.GET('/virtual-accounts', { params: { query: { customer_code: UNKNOWN } } }))).toMatchObject({
      status: 404,
    });
    expect(await failure(api().call.POST('/virtual-accounts', { body: { customer_code: holder, currency: 'USD' } }))).toMatchObject({
      status: 422,
      details: { fields: [{ field: 'currency' }] },
    });
  });

  it('deposits and transfers move its balance and send their events; a transfer it cannot cover fails', async () => {
    const holder = await newCustomer(sandbox);
    await verifyCustomer(sandbox, holder, 'full');
    const va = (await api().call.POST('/virtual-accounts', { body: { customer_code: holder, currency: 'EUR' } })).data;
    const dep = await sandbox.simulate('POST', `/virtual-accounts/${va.code}/deposits`, {
      amount: 1200.5,
      sender_name: 'ACME SAS',
      reference: 'Salary',
    });
    expect(dep.body.data).toMatchObject({ kind: 'deposit', status: 'received', amount: 1200.5, balance: 1200.5 });
    const out = await sandbox.simulate('POST', `/virtual-accounts/${va.code}/transfers`, { amount: 800.25, reference: 'Rent' });
    expect(out.body.data).toMatchObject({ kind: 'transfer', status: 'completed', balance: 400.25 });
    const short = await sandbox.simulate('POST', `/virtual-accounts/${va.code}/transfers`, { amount: 400.26 });
    expect(short.body.data).toMatchObject({ status: 'failed', reason: 'insufficient_funds', balance: 400.25 });
    const chosen = await sandbox.simulate('POST', `/virtual-accounts/${va.code}/transfers`, {
      amount: 10,
      outcome: 'failed',
      reason: 'beneficiary_bank_rejected',
    });
    expect(chosen.body.data).toMatchObject({ status: 'failed', reason: 'beneficiary_bank_rejected', balance: 400.25 });

    const mine = (type: string) => receiver.of(type).filter((e) => e.data.virtual_account_code === va.code);
    await until(() => mine('virtual_account.transfer_failed').length === 2);
    expect(mine('virtual_account.deposit_received')[0]!.data).toMatchObject({
      amount: 1200.5,
      currency: 'EUR',
      sender_name: 'ACME SAS',
      reference: 'Salary',
      customer_code: holder,
    });
    expect(mine('virtual_account.transfer_completed')[0]!.data).toMatchObject({
      amount: 800.25,
      reference: 'Rent',
      transfer_id: out.body.data.transfer_id,
    });
    expect(mine('virtual_account.transfer_failed').map((e) => e.data.reason)).toEqual(['insufficient_funds', 'beneficiary_bank_rejected']);
    expect((await sandbox.simulate('POST', `/virtual-accounts/${UNKNOWN}/deposits`, { amount: 1 })).status).toBe(404);
  });

  it('too little on others: 400 INSUFFICIENT_BALANCE ops_balance_too_low; Découverte: 402', async () => {
    const key = 'sk_test_va_short';
    const r = await startReceiver();
    await connect(sandbox, r, key);
    const holder = await newCustomer(sandbox, key);
    await verifyCustomer(sandbox, holder, 'full', key);
    await sandbox.simulate('PUT', '/balances/others', { balance: 4.99 }, key);
    expect(await failure(api(key).call.POST('/virtual-accounts', { body: { customer_code: holder, currency: 'EUR' } }))).toMatchObject({
      status: 400,
      code: 'INSUFFICIENT_BALANCE',
      details: { reason: 'ops_balance_too_low', balance_type: 'others', required: 5, available: 4.99 },
    });
    await sandbox.simulate('PUT', '/balances/others', { balance: 5 }, key);
    await api(key).call.POST('/virtual-accounts', { body: { customer_code: holder, currency: 'EUR' } });
    expect(await opsBalance(sandbox, 'others', key)).toBe(0);
    // KYC (2.00) and proof of address (1.00) were billed before the balance was set.
    expect(reconcile(sandbox, 'others', key)).toEqual({
      kyc_verification: -200,
      poa_verification: -100,
      sandbox_adjustment: -1_000_000 + 300 + 500,
      virtual_account_opening: -500,
    });
    await sandbox.simulate('PATCH', '/account', { plan: 'decouverte' }, key);
    expect(await failure(api(key).call.GET('/virtual-accounts', {}))).toMatchObject({ status: 402, code: 'PLAN_UPGRADE_REQUIRED' });
    await r.close();
  });
});
