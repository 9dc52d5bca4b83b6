// Durable state: with a database file, committed state and pending deliveries survive a restart (the retry
// runs with its original idempotency key), and the file and its -wal and -shm files are readable by their owner
// only. Concurrency: 50 parallel withdrawals and top-ups on one card and one ops balance leave every cent
// accounted for, and no balance below its floor.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DB_FILE_MODE } from '../../src/sandbox/core/bounds.ts';
import { clockOf, connect, newCustomer, startReceiver, startTestSandbox, until } from './support.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-db-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('restart with --db', () => {
  it('keeps committed state, the clock and pending deliveries', async () => {
    const db = path.join(dir, 'restart.sqlite');
    const key = 'sk_test_restart';
    const receiver = await startReceiver();
    let sandbox = await startTestSandbox({ db });
    await connect(sandbox, receiver, key);
    const customer = await newCustomer(sandbox, key);
    const card = (
      await sandbox.client(key).call.POST('/cards', { body: { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 80 } })
    ).data;
    await sandbox.advance(2, key);
    await until(() => receiver.of('card.activated').length === 1);
    receiver.status = 500;
    await sandbox.client(key).call.POST('/cards/{code}/freeze', { params: { path: { code: card.code } } });
    await until(() => receiver.of('card.frozen').length === 1);
    const clockBefore = clockOf(sandbox, key).now();
    const balanceBefore = (await sandbox.client(key).call.GET('/balance/{type}', { params: { path: { type: 'cards_visa' } } })).data
      .balance;
    await sandbox.close();

    receiver.status = 200;
    sandbox = await startTestSandbox({ db });
    expect(clockOf(sandbox, key).now()).toBe(clockBefore);
    const client = sandbox.client(key);
    expect((await client.call.GET('/cards/{code}', { params: { path: { code: card.code } } })).data).toMatchObject({
      status: 'frozen',
      balance: 80,
    });
    expect((await client.call.GET('/balance/{type}', { params: { path: { type: 'cards_visa' } } })).data.balance).toBe(balanceBefore);
    const [endpoint] = (await client.call.GET('/webhooks')).data;
    const pending = (await client.call.GET('/webhooks/{code}/deliveries', { params: { path: { code: endpoint!.code } } })).data[0]!;
    expect(pending).toMatchObject({ event_type: 'card.frozen', status: 'pending', attempt: 1 });
    await sandbox.advance(3600, key);
    await until(() => receiver.of('card.frozen').length === 2);
    const frozen = receiver.of('card.frozen');
    expect(frozen[1]!.id).toBe(frozen[0]!.id);
    expect(frozen[1]!.idempotencyKey).toBe(frozen[0]!.idempotencyKey);
    expect(frozen[1]!.idempotencyKey).toBe(pending.idempotency_key);
    const delivered = (await client.call.GET('/webhooks/{code}/deliveries', { params: { path: { code: endpoint!.code } } })).data[0]!;
    expect(delivered).toMatchObject({ status: 'delivered', attempt: 2 });
    expect(sandbox.problems).toEqual([]);
    expect(receiver.problems).toEqual([]);
    await sandbox.close();
    await receiver.close();
  });
});

describe('the database file holds secrets', () => {
  const modes = (db: string) =>
    Object.fromEntries(['', '-wal', '-shm'].map((suffix) => [`db${suffix}`, (fs.statSync(`${db}${suffix}`).mode & 0o777).toString(8)]));
  const ownerOnly = { db: DB_FILE_MODE.toString(8), 'db-wal': DB_FILE_MODE.toString(8), 'db-shm': DB_FILE_MODE.toString(8) };

  it('with --db, the file and its -wal and -shm files are made 0600, whatever the umask lets through', async () => {
    expect(DB_FILE_MODE).toBe(0o600);
    const db = path.join(dir, 'modes.sqlite');
    const sandbox = await startTestSandbox({ db });
    // A key (an account), a webhook secret: written through the -wal file.
    await sandbox.simulate('PATCH', '/account', { plan: 'business' }, 'sk_test_modes');
    expect(modes(db)).toEqual(ownerOnly);
    await sandbox.close();
  });

  it('files made before with a wider mode (an older version, or -wal and -shm left open) are narrowed when the sandbox opens them', async () => {
    const db = path.join(dir, 'wide.sqlite');
    // A sandbox holds the file open, so its -wal and -shm stay (with content, as after a crash); all three widened.
    const first = await startTestSandbox({ db });
    await first.simulate('PATCH', '/account', { plan: 'business' }, 'sk_test_modes');
    for (const suffix of ['', '-wal', '-shm']) fs.chmodSync(`${db}${suffix}`, 0o644);
    const second = await startTestSandbox({ db });
    expect(modes(db)).toEqual(ownerOnly);
    await second.close();
    await first.close();
  });
});

describe('concurrency', () => {
  it('50 parallel withdrawals and top-ups on one card and one ops balance: every cent accounted for', async () => {
    const key = 'sk_test_concurrency';
    const sandbox = await startTestSandbox();
    const receiver = await startReceiver();
    await connect(sandbox, receiver, key);
    const customer = await newCustomer(sandbox, key);
    const client = sandbox.client(key);
    const card = (
      await client.call.POST('/cards', { body: { customer_code: customer, brand: 'MASTERCARD', category: 'virtual', amount: 500 } })
    ).data;
    await sandbox.advance(2, key);
    await sandbox.simulate('PUT', '/balances/cards_mastercard', { balance: 300 }, key);
    const opsStart = 30_000;

    const calls = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0
        ? client
            .POST('/cards/{code}/withdraw', { params: { path: { code: card.code } }, body: { amount: 30 } })
            .then((r) => ({ kind: 'withdraw' as const, status: r.response.status, code: r.error?.error.code }))
        : client
            .POST('/cards/{code}/topup', { params: { path: { code: card.code } }, body: { amount: 20 } })
            .then((r) => ({ kind: 'topup' as const, status: r.response.status, code: r.error?.error.code })),
    );
    const results = await Promise.all(calls);
    for (const r of results) expect([200, 400]).toContain(r.status);
    for (const r of results.filter((x) => x.status === 400)) expect(r.code).toBe('INSUFFICIENT_BALANCE');
    const withdrawals = results.filter((r) => r.kind === 'withdraw' && r.status === 200).length;
    const topUps = results.filter((r) => r.kind === 'topup' && r.status === 200).length;
    // The card keeps at least 5 USD: 500 - 30n >= 5 allows 16 withdrawals of the 25.
    expect(withdrawals).toBe(16);
    expect(topUps).toBeGreaterThan(0);

    await sandbox.advance(2, key); // apply the top-ups
    const cardAfter = (await client.call.GET('/cards/{code}', { params: { path: { code: card.code } } })).data;
    expect(cardAfter.balance * 100).toBe(50_000 - 3_000 * withdrawals + 2_000 * topUps);
    const ops = (await client.call.GET('/balance/{type}', { params: { path: { type: 'cards_mastercard' } } })).data.balance;
    expect(Math.round(ops * 100)).toBe(opsStart - 2_100 * topUps + 2_850 * withdrawals);
    expect(ops).toBeGreaterThanOrEqual(0);

    // The ledger and the card's own history agree with the balances.
    const rows = sandbox.core.db.all<{ direction: string; amount_minor: number; balance_after_minor: number }>(
      "SELECT direction, amount_minor, balance_after_minor FROM balance_transactions WHERE balance_type = 'cards_mastercard' AND account_id = (SELECT id FROM accounts WHERE api_key = ?) ORDER BY seq",
      key,
    );
    let running = rows[0]!.balance_after_minor + (rows[0]!.direction === 'debit' ? rows[0]!.amount_minor : -rows[0]!.amount_minor);
    for (const row of rows) {
      running += row.direction === 'credit' ? row.amount_minor : -row.amount_minor;
      expect(row.balance_after_minor).toBe(running);
      expect(row.balance_after_minor).toBeGreaterThanOrEqual(0);
    }
    expect(running).toBe(Math.round(ops * 100));
    const history = sandbox.core.db.all<{ balance_after_minor: number }>(
      'SELECT balance_after_minor FROM card_transactions WHERE card_code = ?',
      card.code,
    );
    expect(history).toHaveLength(withdrawals);
    for (const h of history) expect(h.balance_after_minor).toBeGreaterThanOrEqual(500);
    expect(sandbox.problems).toEqual([]);
    await sandbox.close();
    await receiver.close();
  });
});
