// The timeouts of one client's calls, with one timer. Every call of a client has the same `timeoutMs`, so the
// deadlines come due in the order the calls start: a FIFO queue and one pending timer (for the oldest call
// still running) cover them all. A setTimeout and a clearTimeout per call cost more than the rest of the
// client's own work per call. When no call is running the timer stays armed but unref'd (on Node), so that
// it neither keeps the process alive nor has to be armed again for the next call.

export interface Deadline {
  /** Marks the call finished: its deadline will not fire. Safe to call twice. */
  clear(): void;
}

interface Entry extends Deadline {
  at: number;
  onExpire: () => void;
  done: boolean;
}

export class Deadlines {
  private readonly queue: Entry[] = [];
  private head = 0;
  private live = 0;
  private timer: Timer | undefined;
  private readonly ms: number;

  constructor(ms: number) {
    this.ms = ms;
  }

  /** Calls `onExpire` once `ms` have passed, unless `clear()` is called first. */
  add(onExpire: () => void): Deadline {
    const entry: Entry = {
      at: performance.now() + this.ms,
      onExpire,
      done: false,
      clear: () => this.finish(entry),
    };
    this.queue.push(entry);
    if (this.live++ === 0 && this.timer !== undefined) this.timer.ref?.();
    if (this.timer === undefined) this.timer = setTimeout(this.fire, this.ms) as Timer;
    return entry;
  }

  private finish(entry: Entry): void {
    if (entry.done) return;
    entry.done = true;
    if (--this.live === 0) {
      // Nothing is running: forget the finished calls, and let the timer not keep the process alive.
      this.timer?.unref?.();
      this.queue.length = 0;
      this.head = 0;
    }
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const now = performance.now();
    while (this.head < this.queue.length) {
      const entry = this.queue[this.head]!;
      if (!entry.done && entry.at > now) break;
      this.head++;
      if (!entry.done) {
        this.finish(entry);
        entry.onExpire();
      }
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    const next = this.queue[this.head];
    if (next !== undefined) this.timer = setTimeout(this.fire, Math.max(0, next.at - now)) as Timer;
  };
}

/** A timer handle: Node's has ref() and unref(); elsewhere it is a number. */
type Timer = ReturnType<typeof setTimeout> & { ref?: () => unknown; unref?: () => unknown };
