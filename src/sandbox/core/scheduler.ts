// Timers as rows: every job is a row with `run_at` (clock time). Due jobs run in `run_at` order with the
// clock set to each job's time. A synchronous job runs in the transaction that deletes its row; an
// asynchronous one (a delivery attempt) deletes its row when it records its outcome, so a job cut short
// by a crash runs again after a restart.
import type { Clock } from './clock.js';
import type { Db } from './store.js';

export type JobHandler = (payload: Record<string, unknown>, jobId: number) => void | Promise<void>;

interface JobRow {
  id: number;
  run_at: number;
  kind: string;
  payload: string;
}

export class Scheduler {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly handlers = new Map<string, { fn: JobHandler; async: boolean }>();
  private readonly claimed = new Set<number>();
  private readonly inflight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  private stopped = false;
  /** Called with any error a job throws (the job's row is kept for an async job, deleted for a sync one). */
  onError: (error: unknown, kind: string) => void = () => {};

  constructor(db: Db, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  /** Registers a job kind. `async` jobs delete their own row (see `complete`). */
  register(kind: string, fn: JobHandler, options: { async?: boolean } = {}): void {
    this.handlers.set(kind, { fn, async: options.async ?? false });
  }

  /** Adds a job (call inside the transaction of the change that needs it). */
  schedule(kind: string, runAt: number, payload: Record<string, unknown>): void {
    this.db.run('INSERT INTO jobs (run_at, kind, payload) VALUES (?, ?, ?)', runAt, kind, JSON.stringify(payload));
    this.poke();
  }

  /** Deletes the row of an async job once its outcome is recorded (inside that transaction). */
  complete(jobId: number): void {
    this.db.run('DELETE FROM jobs WHERE id = ?', jobId);
  }

  /** Runs due jobs as the clock follows real time. */
  start(intervalMs = 100): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.runDue(this.clock.now()), intervalMs);
    this.timer.unref();
  }

  /** Stops running jobs (before the store closes); rows stay for the next start. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Soon, runs the jobs already due (a change just scheduled one for now). */
  poke(): void {
    setImmediate(() => this.runDue(this.clock.now()));
  }

  private nextDue(until: number): JobRow | undefined {
    const rows = this.db.all<JobRow>(
      'SELECT id, run_at, kind, payload FROM jobs WHERE run_at <= ? ORDER BY run_at, id LIMIT ?',
      until,
      this.claimed.size + 1,
    );
    return rows.find((r) => !this.claimed.has(r.id));
  }

  /** Runs every job due at or before `until` that is not running; starts async ones without waiting. */
  runDue(until: number): void {
    if (this.draining || this.stopped) return;
    this.draining = true;
    try {
      for (let job = this.nextDue(until); job; job = this.nextDue(until)) {
        if (job.run_at > this.clock.now()) this.clock.set(job.run_at);
        this.runOne(job);
      }
    } finally {
      this.draining = false;
    }
  }

  private runOne(job: JobRow): void {
    const handler = this.handlers.get(job.kind);
    const payload = JSON.parse(job.payload) as Record<string, unknown>;
    if (!handler) {
      this.db.run('DELETE FROM jobs WHERE id = ?', job.id);
      this.onError(new Error(`no handler for job ${job.kind}`), job.kind);
      return;
    }
    if (!handler.async) {
      try {
        this.db.transaction(() => {
          this.db.run('DELETE FROM jobs WHERE id = ?', job.id);
          void handler.fn(payload, job.id);
        });
      } catch (error) {
        this.db.run('DELETE FROM jobs WHERE id = ?', job.id);
        this.onError(error, job.kind);
      }
      return;
    }
    this.claimed.add(job.id);
    const run = (async () => {
      try {
        await handler.fn(payload, job.id);
      } catch (error) {
        this.onError(error, job.kind);
      } finally {
        this.claimed.delete(job.id);
      }
    })();
    this.inflight.add(run);
    void run.finally(() => this.inflight.delete(run));
  }

  /** Waits for the async jobs under way. */
  async settle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all([...this.inflight]);
  }

  /**
   * Moves the clock to `target`, running every job that falls due on the way, in order, with the clock
   * set to each job's time; async jobs of one time finish before the next time's jobs run.
   */
  async advanceTo(target: number): Promise<void> {
    if (target < this.clock.now()) throw new RangeError(`the clock moves forward only (now ${this.clock.iso()})`);
    for (;;) {
      await this.settle();
      const job = this.nextDue(target);
      if (!job) break;
      this.runDue(job.run_at);
    }
    await this.settle();
    this.clock.set(Math.max(target, this.clock.now()));
  }

  /** Jobs waiting, for the simulation API and tests. */
  pending(): { run_at: number; kind: string }[] {
    return this.db.all<{ run_at: number; kind: string }>('SELECT run_at, kind FROM jobs ORDER BY run_at, id');
  }
}
