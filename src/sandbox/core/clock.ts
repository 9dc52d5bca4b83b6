// The sandbox's clocks: one per account (test clocks), so that suites sharing one sandbox never move each
// other's time, or, with `mode: 'shared'`, one for all. Timestamps, monthly limits, expiries, retry schedules,
// the rate limit window and the 4-hourly balance check all read the clock of the account they act for.
//
// That account is ambient rather than passed: a request's handler, a job and an event run inside `within`
// (an AsyncLocalStorage scope), and `now()` reads the clock of the account in scope, so the product modules
// read time as they did with one clock. Outside any scope (start-up, a request before its key is known) the
// sandbox's own clock (owner 0) answers; an account's clock starts from it on first use.
import { AsyncLocalStorage } from 'node:async_hooks';
import { AccountClock, type ClockSnapshot } from './account-clock.js';
import { ACCOUNTS_IN_MEMORY } from './bounds.js';
import { BoundedMap } from './bounded-map.js';
import type { Db } from './store.js';

export type { ClockSnapshot } from './account-clock.js';

/** `per-account`: each account has its clock (the default); `shared`: one clock for every account. */
export type ClockMode = 'shared' | 'per-account';
export const CLOCK_MODES: readonly ClockMode[] = ['per-account', 'shared'];

/** The owner of the sandbox's own clock (no account). */
export const SANDBOX_CLOCK = 0;

export class Clock {
  readonly mode: ClockMode;
  private readonly db: Db;
  private readonly scope = new AsyncLocalStorage<number>();
  private readonly base: AccountClock;
  /** The clocks of the most recently used accounts (the others are read again from their rows). */
  private readonly clocks = new BoundedMap<number, AccountClock>(ACCOUNTS_IN_MEMORY);
  /** How far ahead of real time any clock has been: `horizon()` is never before any clock's time. */
  private ahead = 0;
  private readonly noteChange = (clock: AccountClock) => {
    this.ahead = Math.max(this.ahead, clock.now() - Date.now());
  };

  constructor(db: Db, options: { mode?: ClockMode } = {}) {
    this.db = db;
    this.mode = options.mode ?? 'per-account';
    for (const row of db.all<{ now_ms: number; offset_ms: number; frozen: number }>('SELECT now_ms, offset_ms, frozen FROM clocks')) {
      this.ahead = Math.max(this.ahead, row.frozen === 1 ? row.now_ms - Date.now() : row.offset_ms);
    }
    this.base = new AccountClock(db, SANDBOX_CLOCK, { now_ms: Date.now(), frozen: false }, this.noteChange);
  }

  /** A time no clock is past yet: the jobs due anywhere have a `run_at` at or before it. */
  horizon(): number {
    return Date.now() + this.ahead;
  }

  /** Runs `fn` (and what it awaits, schedules or emits) on the clock of `accountId`. */
  within<T>(accountId: number, fn: () => T): T {
    return this.scope.run(accountId, fn);
  }

  /** The account in scope (SANDBOX_CLOCK outside any). */
  get account(): number {
    return this.scope.getStore() ?? SANDBOX_CLOCK;
  }

  /** The clock of `accountId` (the one clock in shared mode). */
  of(accountId: number): AccountClock {
    if (this.mode === 'shared' || accountId === SANDBOX_CLOCK) return this.base;
    let clock = this.clocks.get(accountId);
    if (!clock) {
      clock = new AccountClock(this.db, accountId, this.base.state(), this.noteChange);
      this.clocks.set(accountId, clock);
    }
    return clock;
  }

  /** The accounts whose timers run on the clock of `accountId`: that one, or every account in shared mode. */
  sharers(accountId: number): number | 'all' {
    return this.mode === 'shared' ? 'all' : accountId;
  }

  /** The clock of the account in scope. */
  get current(): AccountClock {
    return this.of(this.account);
  }

  /** Milliseconds since the epoch on the clock in scope, never less than a value it returned before. */
  now(): number {
    return this.current.now();
  }

  iso(ms?: number): string {
    return ms === undefined ? this.current.iso() : new Date(ms).toISOString();
  }

  get frozen(): boolean {
    return this.current.frozen;
  }

  /** Stops the clock in scope at its current time: it then moves only when advanced. */
  freeze(): void {
    this.current.freeze();
  }

  /** Lets the clock in scope follow real time again, from its current time. */
  resume(): void {
    this.current.resume();
  }

  /** Moves the clock in scope to `ms`. Forward only: a time before now throws a RangeError. */
  set(ms: number): void {
    this.current.set(ms);
  }

  /** Freezes every clock, the sandbox's own and each account's kept one (a start with `freezeClock`). */
  freezeAll(): void {
    this.base.freeze();
    for (const { account_id } of this.db.all<{ account_id: number }>(
      'SELECT account_id FROM clocks WHERE account_id <> ?',
      SANDBOX_CLOCK,
    )) {
      this.of(account_id).freeze();
    }
  }

  /** Writes the time of every clock in memory (before the store closes). */
  persist(): void {
    this.base.persist();
    for (const { account_id } of this.db.all<{ account_id: number }>(
      'SELECT account_id FROM clocks WHERE account_id <> ?',
      SANDBOX_CLOCK,
    )) {
      this.of(account_id).persist();
    }
  }

  /** The state of an account's clock, for a snapshot. */
  state(accountId: number): ClockSnapshot {
    return this.of(accountId).state();
  }

  /** Whether the clock of `accountId` has moved apart: it has a row of its own (without one, it starts from the sandbox's). */
  hasOwnRow(accountId: number): boolean {
    return this.db.get('SELECT 1 FROM clocks WHERE account_id = ?', accountId) !== undefined;
  }

  /** Drops an account's clock, row and all: it starts again from the sandbox's own clock, as a new account's does. */
  reset(accountId: number): void {
    this.clocks.delete(accountId);
    this.db.run('DELETE FROM clocks WHERE account_id = ?', accountId);
  }

  /**
   * Drops the clocks, rows and all, of every account but `kept`: their accounts are gone (a sandbox snapshot made
   * before them was restored), and a new account may take one's id.
   */
  keepOnly(kept: ReadonlySet<number>): void {
    for (const clock of [...this.clocks.values()]) if (!kept.has(clock.owner)) this.reset(clock.owner);
    for (const { account_id } of this.db.all<{ account_id: number }>('SELECT account_id FROM clocks')) {
      if (!kept.has(account_id) && account_id !== SANDBOX_CLOCK) this.reset(account_id);
    }
  }

  /** Puts back an account's clock as `state` gave it (earlier than now too). */
  restore(accountId: number, state: ClockSnapshot): void {
    this.of(accountId).restore(state);
  }
}
