// The sandbox's one clock, persisted and forward only. By default it follows real time (plus any
// advance); frozen, it moves only when advanced. Timestamps, monthly limits, expiries, retry schedules and
// the 4-hourly balance check all read it.
import type { Db } from './store.js';

/** What a snapshot keeps of the clock: its time and whether it is frozen. */
export interface ClockState {
  now: number;
  frozen: boolean;
}

interface ClockRow {
  now_ms: number;
  offset_ms: number;
  frozen: number;
}

export class Clock {
  private readonly db: Db;
  private offset: number;
  private frozenAt: number | undefined;
  private last: number;

  constructor(db: Db) {
    this.db = db;
    let row = db.get<ClockRow>('SELECT now_ms, offset_ms, frozen FROM clock WHERE id = 1');
    if (!row) {
      row = { now_ms: Date.now(), offset_ms: 0, frozen: 0 };
      db.run('INSERT INTO clock (id, now_ms, offset_ms, frozen) VALUES (1, ?, ?, ?)', row.now_ms, row.offset_ms, row.frozen);
    }
    this.offset = row.offset_ms;
    this.frozenAt = row.frozen === 1 ? row.now_ms : undefined;
    this.last = row.now_ms;
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

  /** Stops the clock at its current time (tests). */
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

  state(): ClockState {
    return { now: this.now(), frozen: this.frozen };
  }

  /**
   * Puts the clock back to a state it had (a restored snapshot): the one move backward, since everything that read
   * the later time (records, timers) is put back with it.
   */
  restore(state: ClockState): void {
    this.last = state.now;
    if (state.frozen) this.frozenAt = state.now;
    else {
      this.frozenAt = undefined;
      this.offset = state.now - Date.now();
    }
    this.persist();
  }

  persist(): void {
    this.db.run(
      'UPDATE clock SET now_ms = ?, offset_ms = ?, frozen = ? WHERE id = 1',
      this.now(),
      this.offset,
      this.frozenAt !== undefined ? 1 : 0,
    );
  }
}
