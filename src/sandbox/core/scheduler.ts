// Timers as rows: every job is a row with `run_at`, in the time of the clock of its account (the account in
// scope when it was scheduled: ./clock.ts), and one timer loop for all. A job is due when its account's clock
// reaches `run_at`; due jobs run in `run_at` order, on their account's clock set to each job's time. A
// synchronous job runs in the transaction that deletes its row; an asynchronous one (a delivery attempt)
// deletes its row when it records its outcome, so a job cut short by a crash runs again after a restart.
import type { Clock } from './clock.js';
import type { Db } from './store.js';

/**
 * The core a job runs with (`SandboxCore`). Empty here and completed by ./context.ts through declaration merging,
 * the way fastify's decorators complete its instance: the core's types import the scheduler, so the scheduler
 * imports nothing of them, and no module of the core imports itself back through it.
 */
// biome-ignore lint/suspicious/noEmptyInterface: completed by `declare module` in ./context.ts.
export interface JobCore {}

type JobHandler = (payload: object, jobId: number) => void | Promise<void>;

/**
 * A kind of job, declared by a product module (or the core: a webhook delivery's attempt): its name in the jobs table, the type of its payload (stored as JSON
 * by `schedule`, read back by `run`), and what it runs. An `async` job deletes its own row (see `complete`).
 */
export interface Job<P extends object = object> {
  readonly kind: string;
  readonly async: boolean;
  /**
   * An outcome the sandbox decides by itself, scheduled only for an account that does not choose outcomes: when it
   * falls due on an account made manual since, it does not run, and its record waits to be chosen.
   */
  readonly automatic: boolean;
  // A method, so that a list of jobs of different payloads is a `Job[]`.
  run(core: JobCore, payload: P, jobId: number): void | Promise<void>;
}

/** A job of kind `kind` whose payload is `P`: `defineJob<{ card: string }>('card.issue', (core, { card }) => ...)`. */
export function defineJob<P extends object>(
  kind: string,
  run: Job<P>['run'],
  options: { async?: boolean; automatic?: boolean } = {},
): Job<P> {
  return { kind, async: options.async ?? false, automatic: options.automatic ?? false, run };
}

interface JobRow {
  id: number;
  run_at: number;
  kind: string;
  payload: string;
  account_id: number;
}

const JOB_COLUMNS = 'id, run_at, kind, payload, account_id';

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

  /** Registers kinds of job, each run with `core`; a kind registered twice throws (its rows would be ambiguous). */
  registerJobs(jobs: readonly Job[], core: JobCore): void {
    for (const job of jobs) {
      if (this.handlers.has(job.kind)) throw new Error(`two jobs of kind ${job.kind}`);
      // The job runs in the scope of its account (runDue), whose settings decide an automatic outcome.
      const fn: JobHandler = (payload, jobId) => {
        if (!job.automatic || !core.accounts.byId(this.clock.account).manual) return job.run(core, payload, jobId);
        if (job.async) this.complete(jobId);
      };
      this.handlers.set(job.kind, { fn, async: job.async });
    }
  }

  /** Adds a job with its payload on the clock of the account in scope (call inside the transaction of the change that needs it). */
  schedule<P extends object>(job: Job<P>, runAt: number, payload: NoInfer<P>): void {
    this.db.run(
      'INSERT INTO jobs (run_at, kind, payload, account_id) VALUES (?, ?, ?, ?)',
      runAt,
      job.kind,
      JSON.stringify(payload),
      this.clock.account,
    );
    this.poke();
  }

  /** Deletes the row of an async job once its outcome is recorded (inside that transaction). */
  complete(jobId: number): void {
    this.db.run('DELETE FROM jobs WHERE id = ?', jobId);
  }

  /** Runs due jobs as the clock follows real time. */
  start(intervalMs = 100): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.runAllDue(), intervalMs);
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
    setImmediate(() => this.runAllDue());
  }

  /** The next job not running of the accounts on the clock of `owner` (./clock.ts `sharers`), due at or before `until`. */
  private nextDue(until: number, owner: number): JobRow | undefined {
    const sharers = this.clock.sharers(owner);
    const rows =
      sharers === 'all'
        ? this.db.all<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE run_at <= ? ORDER BY run_at, id LIMIT ?`, until, this.claimed.size + 1)
        : this.db.all<JobRow>(
            `SELECT ${JOB_COLUMNS} FROM jobs WHERE account_id = ? AND run_at <= ? ORDER BY run_at, id LIMIT ?`,
            sharers,
            until,
            this.claimed.size + 1,
          );
    return rows.find((r) => !this.claimed.has(r.id));
  }

  /** Runs the jobs each clock has reached: one pass per account with a job due (one for all on a shared clock). */
  private runAllDue(): void {
    if (this.draining || this.stopped) return;
    if (this.clock.mode === 'shared') {
      this.runDue(this.clock.of(0).now(), 0);
      return;
    }
    // The accounts with a job before the horizon (no clock is past it) may have one due: each runs on its clock.
    const owners = this.db.all<{ account_id: number }>('SELECT DISTINCT account_id FROM jobs WHERE run_at <= ?', this.clock.horizon());
    for (const { account_id } of owners) this.runDue(this.clock.of(account_id).now(), account_id);
  }

  /**
   * Runs every job of the clock of `owner` (the account in scope by default) due at or before `until` that is
   * not running; starts async ones without waiting.
   */
  runDue(until: number, owner: number = this.clock.account): void {
    if (this.draining || this.stopped) return;
    this.draining = true;
    try {
      for (let job = this.nextDue(until, owner); job; job = this.nextDue(until, owner)) {
        const clock = this.clock.of(job.account_id);
        if (job.run_at > clock.now()) clock.set(job.run_at);
        this.clock.within(job.account_id, () => this.runOne(job));
      }
    } finally {
      this.draining = false;
    }
  }

  private runOne(job: JobRow): void {
    const handler = this.handlers.get(job.kind);
    const payload = JSON.parse(job.payload) as object;
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
   * Moves the clock of the account in scope to `target`, running every job of that clock that falls due on
   * the way, in order, with the clock set to each job's time; async jobs of one time finish before the next
   * time's jobs run. Other accounts' clocks and jobs are left as they are.
   */
  async advanceTo(target: number): Promise<void> {
    const owner = this.clock.account;
    const clock = this.clock.of(owner);
    if (target < clock.now()) throw new RangeError(`the clock moves forward only (now ${clock.iso()})`);
    for (;;) {
      await this.settle();
      const job = this.nextDue(target, owner);
      if (!job) break;
      this.runDue(job.run_at, owner);
    }
    await this.settle();
    clock.set(Math.max(target, clock.now()));
  }

  /** Jobs waiting on the clock of `owner` (every job on a shared clock), for the simulation API and tests. */
  pending(owner: number = this.clock.account): { run_at: number; kind: string }[] {
    const sharers = this.clock.sharers(owner);
    return sharers === 'all'
      ? this.db.all<{ run_at: number; kind: string }>('SELECT run_at, kind FROM jobs ORDER BY run_at, id')
      : this.db.all<{ run_at: number; kind: string }>('SELECT run_at, kind FROM jobs WHERE account_id = ? ORDER BY run_at, id', sharers);
  }
}
