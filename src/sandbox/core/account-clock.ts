// One clock of the sandbox (an account's, or the sandbox's own), persisted as a row of `clocks` and forward
// only. Running, it follows real time plus an offset; frozen, it moves only when set. ./clock.ts holds them.
import type { Db } from './store.js';

/** A clock's time and whether it is frozen: what a snapshot keeps and `restore` puts back. */
export interface ClockSnapshot {
  now_ms: number;
  frozen: boolean;
}

interface ClockRow {
  now_ms: number;
  offset_ms: number;
  frozen: number;
}

export class AccountClock {
  private readonly db: Db;
  /** The account whose clock this is (0: the sandbox's own clock). */
  readonly owner: number;
  private offset = 0;
  private frozenAt: number | undefined;
  private last: number;

  /** Told of every change, once it is written. */
  private readonly changed: (clock: AccountClock) => void;

  /** The clock of `owner` as its row keeps it, or, without a row, starting from `start` (not written until it changes). */
  constructor(db: Db, owner: number, start: ClockSnapshot, changed: (clock: AccountClock) => void = () => {}) {
    this.db = db;
    this.owner = owner;
    this.changed = changed;
    const row = db.get<ClockRow>('SELECT now_ms, offset_ms, frozen FROM clocks WHERE account_id = ?', owner);
    this.last = row?.now_ms ?? start.now_ms;
    if (row) {
      this.offset = row.offset_ms;
      this.frozenAt = row.frozen === 1 ? row.now_ms : undefined;
    } else if (start.frozen) this.frozenAt = start.now_ms;
    else this.offset = start.now_ms - Date.now();
  }

  /** Milliseconds since the epoch, never less than a value returned before. */
  now(): number {
    const computed = this.frozenAt ?? Date.now() + this.offset;
    if (computed > this.last) this.last = computed;
    return this.last;
  }

  iso(ms: number = this.now()): string {
    return new Date(ms).toISOString();
  }

  get frozen(): boolean {
    return this.frozenAt !== undefined;
  }

  /** Stops the clock at its current time: it then moves only when set. */
  freeze(): void {
    this.frozenAt = this.now();
    this.persist();
  }

  /** Lets the clock follow real time again, from its current time. */
  resume(): void {
    const now = this.now();
    this.frozenAt = undefined;
    this.offset = now - Date.now();
    this.persist();
  }

  /** Moves the clock to `ms`. Forward only: a time before now throws a RangeError. */
  set(ms: number): void {
    const now = this.now();
    if (!Number.isSafeInteger(ms) || ms < now) throw new RangeError(`the clock moves forward only (now ${this.iso(now)})`);
    if (this.frozenAt !== undefined) this.frozenAt = ms;
    else this.offset = ms - Date.now();
    this.last = ms;
    this.persist();
  }

  /** Its time and whether it is frozen (a snapshot of the account). */
  state(): ClockSnapshot {
    return { now_ms: this.now(), frozen: this.frozen };
  }

  /**
   * Puts back a state `state()` gave: the time it had (earlier than now too: a snapshot's restore is the one
   * move backwards), frozen there, or running on from there.
   */
  restore(state: ClockSnapshot): void {
    if (!Number.isSafeInteger(state.now_ms)) throw new RangeError('a clock state needs now_ms, milliseconds since the epoch');
    this.frozenAt = state.frozen ? state.now_ms : undefined;
    this.offset = state.now_ms - Date.now();
    this.last = state.now_ms;
    this.persist();
  }

  persist(): void {
    this.db.run(
      'INSERT OR REPLACE INTO clocks (account_id, now_ms, offset_ms, frozen) VALUES (?, ?, ?, ?)',
      this.owner,
      this.now(),
      this.offset,
      this.frozenAt !== undefined ? 1 : 0,
    );
    this.changed(this);
  }
}
