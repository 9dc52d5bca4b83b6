// The sandbox's core pieces on their own: the clock (persisted, forward only), the scheduler (due rows in
// run_at order with the clock at each row's time), the store (transactions roll back, CHECK constraints),
// the x-decimal-places keyword, the command line, and the per-key state kept in memory (bounded, whatever the
// number of keys).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hasDecimalPlaces } from '../../src/contract/decimal-places.ts';
import { createAjv } from '../../src/sandbox/core/ajv.ts';
import { BoundedMap } from '../../src/sandbox/core/bounded-map.ts';
import { ACCOUNTS_IN_MEMORY, RATE_LIMITED_KEYS_IN_MEMORY } from '../../src/sandbox/core/bounds.ts';
import { Clock } from '../../src/sandbox/core/clock.ts';
import { RateLimiter } from '../../src/sandbox/core/ratelimit.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { timeOrderedId, timeOrderedUuid } from '../../src/sandbox/core/ids.ts';
import type { SandboxCore } from '../../src/sandbox/core/context.ts';
import { Scheduler, defineJob } from '../../src/sandbox/core/scheduler.ts';
import { SqliteDb, preparedSql } from '../../src/sandbox/core/store.ts';
import { TOOL, USAGE, parseCli } from '../../src/sandbox/sandbox-flags.ts';
import { checkConfig } from '../../src/sandbox/core/sandbox.ts';
import { toAmount, toMinor } from '../../src/sandbox/core/money.ts';
import { API_KEY_RULE } from '../../src/client/api-key.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('clock', () => {
  it('is forward only and persisted', () => {
    const db = new SqliteDb();
    const clock = new Clock(db);
    clock.freeze();
    const t = clock.now();
    expect(() => clock.set(t - 1)).toThrow(/forward only/);
    clock.set(t + 5_000);
    expect(clock.now()).toBe(t + 5_000);
    expect(new Clock(db).now()).toBe(t + 5_000);
    clock.resume();
    expect(clock.now()).toBeGreaterThanOrEqual(t + 5_000);
    db.close();
  });
});

describe('scheduler', () => {
  it('runs due rows in run_at order with the clock set to each row time, and nothing after the target', async () => {
    const db = new SqliteDb();
    const clock = new Clock(db);
    clock.freeze();
    const start = clock.now();
    const scheduler = new Scheduler(db, clock);
    const seen: [string, number][] = [];
    const note = defineJob<{ name: string }>('note', (_core, { name }) => {
      seen.push([name, clock.now()]);
    });
    scheduler.registerJobs([note], {} as SandboxCore);
    db.transaction(() => {
      scheduler.schedule(note, start + 3_000, { name: 'c' });
      scheduler.schedule(note, start + 1_000, { name: 'a' });
      scheduler.schedule(note, start + 2_000, { name: 'b' });
      scheduler.schedule(note, start + 9_000, { name: 'later' });
    });
    await scheduler.advanceTo(start + 5_000);
    expect(seen).toEqual([
      ['a', start + 1_000],
      ['b', start + 2_000],
      ['c', start + 3_000],
    ]);
    expect(clock.now()).toBe(start + 5_000);
    await expect(scheduler.advanceTo(start)).rejects.toThrow(/forward only/);
    expect(scheduler.pending()).toEqual([{ run_at: start + 9_000, kind: 'note' }]);
    scheduler.stop();
    db.close();
  });

  it('a job that throws is reported and its changes roll back', async () => {
    const db = new SqliteDb();
    const clock = new Clock(db);
    clock.freeze();
    const scheduler = new Scheduler(db, clock);
    const errors: string[] = [];
    scheduler.onError = (e) => errors.push((e as Error).message);
    const boom = defineJob('boom', () => {
      db.run("INSERT INTO usage (account_id, period, metric, value) VALUES (1, '2026-01', 'x', 1)");
      throw new Error('boom');
    });
    scheduler.registerJobs([boom], {} as SandboxCore);
    scheduler.schedule(boom, clock.now(), {});
    await scheduler.advanceTo(clock.now() + 1);
    expect(errors).toEqual(['boom']);
    expect(db.get('SELECT * FROM usage')).toBeUndefined();
    expect(scheduler.pending()).toEqual([]);
    scheduler.stop();
    db.close();
  });

  it('runs a declared job with the core it was registered with and its payload as scheduled; a kind is declared once', async () => {
    const db = new SqliteDb();
    const clock = new Clock(db);
    clock.freeze();
    const scheduler = new Scheduler(db, clock);
    const core = { clock } as unknown as SandboxCore;
    const seen: unknown[] = [];
    const note = defineJob<{ name: string; count: number }>('note', (given, payload, jobId) => {
      seen.push([given === core, payload, typeof jobId]);
    });
    scheduler.registerJobs([note], core);
    expect(() => scheduler.registerJobs([defineJob('note', () => {})], core)).toThrow('two jobs of kind note');
    scheduler.schedule(note, clock.now() + 1_000, { name: 'a', count: 2 });
    // @ts-expect-error the payload is the declared one
    scheduler.schedule(note, clock.now() + 1_000, { name: 'b' });
    await scheduler.advanceTo(clock.now() + 1_000);
    expect(seen).toEqual([
      [true, { name: 'a', count: 2 }, 'number'],
      [true, { name: 'b' }, 'number'],
    ]);
    scheduler.stop();
    db.close();
  });
});

describe('store', () => {
  it('refuses a negative card balance (CHECK) and rolls the whole transaction back', () => {
    const db = new SqliteDb();
    expect(() =>
      db.transaction(() => {
        db.run("INSERT INTO usage (account_id, period, metric, value) VALUES (1, '2026-01', 'x', 1)");
        db.run("INSERT INTO usage (account_id, period, metric, value) VALUES (1, '2026-01', 'y', -1)");
      }),
    ).toThrow(/CHECK/);
    expect(db.all('SELECT * FROM usage')).toEqual([]);
    expect(() => db.transaction(() => Promise.resolve(1))).toThrow(/must not await/);
    db.close();
  });

  it('binds LIMIT and OFFSET as values (no re-preparing per page) and pages right with each new pair', () => {
    expect(preparedSql('SELECT * FROM cards WHERE account_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?')).toBe(
      'SELECT * FROM cards WHERE account_id = ? ORDER BY seq DESC LIMIT CAST(? AS INTEGER) OFFSET CAST(? AS INTEGER)',
    );
    expect(preparedSql('SELECT id FROM events ORDER BY seq DESC LIMIT 1')).toBe('SELECT id FROM events ORDER BY seq DESC LIMIT 1');
    const db = new SqliteDb();
    db.transaction(() => {
      for (let i = 1; i <= 5; i++) db.run("INSERT INTO usage (account_id, period, metric, value) VALUES (1, '2026-01', ?, ?)", `m${i}`, i);
    });
    const page = (limit: number, offset: number) =>
      db.all<{ value: number }>('SELECT value FROM usage ORDER BY value LIMIT ? OFFSET ?', limit, offset).map((r) => r.value);
    expect(page(2, 0)).toEqual([1, 2]);
    expect(page(2, 2)).toEqual([3, 4]);
    expect(page(3, 4)).toEqual([5]);
    db.close();
  });
});

describe('ids of appended rows', () => {
  it('sort in the order they are made, never repeat, and keep the contract shapes (evt_<uuid>, btx_ and txn_ within 40 characters)', () => {
    const ids = Array.from({ length: 2_000 }, () => timeOrderedId('btx'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toMatch(/^btx_[0-9a-f]{32}$/);
    expect(`evt_${timeOrderedUuid()}`).toMatch(/^evt_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('begin with the milliseconds of their making (UUID version 7)', () => {
    const before = Date.now();
    const uuid = timeOrderedUuid();
    const ms = Number.parseInt(uuid.slice(0, 8) + uuid.slice(9, 13), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now());
  });
});

describe('money', () => {
  it('converts at the edge without float drift', () => {
    expect(toMinor(0.07)).toBe(7);
    expect(toMinor(1234.56)).toBe(123456);
    expect(toAmount(toMinor(60.6) + toMinor(0.5) + toMinor(1))).toBe(62.1);
  });

  it('x-decimal-places validates amounts', () => {
    expect(hasDecimalPlaces(12.34, 2)).toBe(true);
    expect(hasDecimalPlaces(0.07, 2)).toBe(true);
    expect(hasDecimalPlaces(12.345, 2)).toBe(false);
    expect(hasDecimalPlaces(1e-7, 6)).toBe(false);
    const ajv = createAjv({ paths: {} }, 'body');
    const validate = ajv.compile({ type: 'number', 'x-decimal-places': 2, 'x-provisional': true });
    expect(validate(5.01)).toBe(true);
    expect(validate(5.001)).toBe(false);
    expect(validate.errors?.[0]?.keyword).toBe('x-decimal-places');
  });
});

describe('command line', () => {
  it('parses the documented flags', () => {
    expect(parseCli(['--port', '0', '--db', 'x.sqlite', '--manual', '--no-rate-limit', '--seed', 'examples'])).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      db: 'x.sqlite',
      manual: true,
      'no-rate-limit': true,
      seed: 'examples',
    });
    expect(() => parseCli(['--port', 'abc'])).toThrow(/--port/);
    expect(() => parseCli(['--seed', 'random'])).toThrow(/--seed/);
    expect(parseCli([])).toMatchObject({ clock: 'per-account' });
    expect(parseCli(['--clock', 'shared'])).toMatchObject({ clock: 'shared' });
    expect(() => parseCli(['--clock', 'global'])).toThrow('--clock must be per-account or shared, got "global"');
  });

  it('an unknown flag: one line naming it, the usage, exit 2', async () => {
    const run = promisify(execFile);
    const error = await run(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'src/sandbox/cli.ts', '--bogus'], {
      cwd: ROOT,
    }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(error?.code).toBe(2);
    expect(error?.stderr.trim().split('\n')).toEqual([`${TOOL}: unknown option --bogus`, ...USAGE.split('\n')]);
  });

  it('checks a --config file', () => {
    expect(() => checkConfig({ accounts: { pk_nope: {} } })).toThrow(`config accounts: "pk_nope" is not an API key: ${API_KEY_RULE}`);
    expect(() => checkConfig({ accounts: { sk_test_a: { plan: 'gold' } } })).toThrow(/plan/);
    expect(() => checkConfig({ accounts: { sk_test_a: { balances: { bitcoin: 1 } } } })).toThrow(/bitcoin/);
    expect(() => checkConfig({ defaults: { auto_complete_seconds: -1 } })).toThrow(/auto_complete_seconds/);
    expect(checkConfig({ accounts: { sk_test_a: { plan: 'premium', balances: { cards_visa: 5 } } } })).toBeTruthy();
  });
});

describe('per-key state in memory', () => {
  it('a BoundedMap drops the least recently used entry beyond its limit', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    expect(map.get('a')).toBe(1); // a is now the most recently used
    map.set('c', 3);
    expect([map.has('a'), map.has('b'), map.has('c'), map.size]).toEqual([true, false, true, 2]);
  });

  it('rate-limit counts: at most RATE_LIMITED_KEYS_IN_MEMORY keys, a key pushed out starting its minute again', () => {
    expect(new RateLimiter().size).toBe(0);
    expect(RATE_LIMITED_KEYS_IN_MEMORY).toBeGreaterThanOrEqual(ACCOUNTS_IN_MEMORY);
    const limiter = new RateLimiter(3);
    expect(limiter.hit('sk_test_a', 2, 0).remaining).toBe(1);
    for (let i = 0; i < 1_000; i++) limiter.hit(`sk_test_${i}`, 2, 0);
    expect(limiter.size).toBe(3);
    expect(limiter.hit('sk_test_a', 2, 0).remaining).toBe(1);
  });

  it(`${ACCOUNTS_IN_MEMORY + 200} new keys through the sandbox: at most ${ACCOUNTS_IN_MEMORY} accounts and product lists in memory, every account still served`, async () => {
    const sandbox = await startSandbox({ port: 0, freezeClock: true });
    try {
      const first = 'sk_test_bounded_first';
      const get = (key: string) =>
        sandbox.server.inject({ method: 'GET', url: '/v1/balance', headers: { authorization: `Bearer ${key}` } });
      expect(
        (
          await sandbox.server.inject({
            method: 'PATCH',
            url: '/sandbox/account',
            headers: { authorization: `Bearer ${first}` },
            payload: { plan: 'premium' },
          })
        ).statusCode,
      ).toBe(200);
      for (let i = 0; i < ACCOUNTS_IN_MEMORY + 200; i++) expect((await get(`sk_test_bounded_${i}`)).statusCode).toBe(200);
      expect(sandbox.core.accounts.inMemory).toBeLessThanOrEqual(ACCOUNTS_IN_MEMORY);
      expect(sandbox.core.products.inMemory).toBeLessThanOrEqual(ACCOUNTS_IN_MEMORY);
      // The first key's account was pushed out of memory, not forgotten: read back with its settings.
      expect(sandbox.core.accounts.resolve(first).plan).toBe('premium');
      expect((await get(first)).statusCode).toBe(200);
    } finally {
      await sandbox.close();
    }
  }, 60_000);
});
