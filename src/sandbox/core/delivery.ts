// Webhook delivery: each attempt signs the stored event body with the endpoint's current secret (the
// toolkit's signWebhook, exactly as verifyWebhook verifies), POSTs it with a 10 s timeout to a target the
// sandbox's policy allows (./webhook-targets.ts), reads at most 64 KiB of the answer, and records the outcome
// with its reason. A non-2xx answer or no answer is retried with exponential backoff and seeded jitter, with the
// same X-Service-Idempotency-Key, until the attempts run out; the delivery is then `failed`. An account's delivery
// fault plan (./delivery-faults.ts) delays, holds and reorders, fails or duplicates its attempts here.
import { ANSWER_LIMIT_BYTES } from './bounds.js';
import type { ClientRequest } from 'node:http';
import { http } from '../../node-http.js';
import https from 'node:https';
import type net from 'node:net';
import { performance } from 'node:perf_hooks';
import { signWebhook } from '../../webhooks/sign.js';
import type { Clock } from './clock.js';
import { DeliveryFaults } from './delivery-faults.js';
import { DELIVERY_JOB } from './outbox.js';
import { contractLimits } from './limits.js';
import type { Scheduler } from './scheduler.js';
import type { Db } from './store.js';
import { routeWebhookUrl, type WebhookRouteMap } from './webhook-routes.js';
import { TARGET_REFUSED, WebhookTargets } from './webhook-targets.js';

/** The designed (provisional) retry schedule. */
export interface RetrySchedule {
  /** Attempts in all, the first one included. */
  maxAttempts: number;
  /** Wait after the first failed attempt; doubles after each further failure. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Each wait is scaled by a factor in [1 - jitter, 1 + jitter), drawn from a PRNG seeded per delivery. */
  jitter: number;
  /** Mixed into every delivery's seed, so a run can be replayed exactly. */
  seed: number;
}

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  maxAttempts: 8,
  baseDelayMs: 60_000,
  maxDelayMs: 6 * 3_600_000,
  jitter: 0.1,
  seed: 1,
};

/** How long a receiver has to answer: the contract's webhook response time-out (`x-plans.limits`). */
export const DELIVERY_TIMEOUT_MS = contractLimits().webhookResponseTimeoutMs;

/** The failure reason of an attempt that an account's delivery fault plan failed. */
export const FAULT_FAILURE = 'no answer (sandbox delivery fault)';

/** FNV-1a of a string: the seed of a delivery's jitter. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** mulberry32: one uniform draw in [0, 1) from a 32-bit seed. */
function draw(seed: number): number {
  let t = (seed + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** The wait after failed attempt number `attempt` (1-based) of a delivery. */
export function retryDelay(schedule: RetrySchedule, deliveryCode: string, attempt: number): number {
  const base = Math.min(schedule.baseDelayMs * 2 ** (attempt - 1), schedule.maxDelayMs);
  const factor = 1 - schedule.jitter + 2 * schedule.jitter * draw(hash(`${schedule.seed}:${deliveryCode}:${attempt}`));
  return Math.round(base * factor);
}

interface DeliveryRow {
  code: string;
  account_id: number;
  created_at: number;
  endpoint_code: string;
  event_id: string;
  status: string;
  attempt: number;
  idempotency_key: string;
}

export interface PostResult {
  status: number | null;
  durationMs: number;
  /** Why the post failed (`HTTP 503`, `no answer (ECONNREFUSED)` ...); null after a 2xx. */
  failure: string | null;
  /** Bytes of the answer's body read (at most about ANSWER_LIMIT_BYTES: the rest is never read). */
  bytesRead: number;
}

/**
 * POSTs a signed body; never throws. `status` is null when no answer came (time-out, refused, or a target the
 * policy refuses: no connection is made then). node:http rather than fetch: the policy's `lookup` checks the
 * address each connection is made to, and the answer's body is read only up to ANSWER_LIMIT_BYTES.
 */
export async function postSigned(
  url: string,
  body: string,
  secret: string,
  idempotencyKey: string,
  options: { timeoutMs?: number; targets?: WebhookTargets } = {},
): Promise<PostResult> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const headers = await signWebhook(body, secret, { idempotencyKey });
  const started = performance.now();
  let target: URL;
  let connect: { lookup?: net.LookupFunction };
  try {
    target = new URL(url);
    connect = options.targets?.connectOptions(target) ?? {};
  } catch (error) {
    return { status: null, durationMs: 0, failure: failureOf(error), bytesRead: 0 };
  }
  const payload = Buffer.from(body);
  return new Promise<PostResult>((resolve) => {
    let status: number | null = null;
    let bytesRead = 0;
    let settled = false;
    let request: ClientRequest | undefined;
    // Once the status is known, it is the outcome, whatever becomes of the rest of the answer.
    const settle = (failure?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      const answered = status === null ? (failure ?? 'no answer') : status >= 200 && status < 300 ? null : `HTTP ${status}`;
      resolve({ status, durationMs: Math.round(performance.now() - started), failure: answered, bytesRead });
    };
    const timer = setTimeout(() => settle(`no answer within ${timeoutMs / 1000} seconds`), timeoutMs);
    try {
      request = (target.protocol === 'https:' ? https.request : http.request)(
        target,
        {
          method: 'POST',
          agent: false,
          ...connect,
          headers: {
            ...headers,
            'Content-Type': 'application/json',
            'Content-Length': payload.length,
            'User-Agent': 'partner-api-sandbox',
          },
        },
        (response) => {
          status = response.statusCode ?? null;
          response.on('data', (chunk: Buffer) => {
            bytesRead += chunk.length;
            if (bytesRead >= ANSWER_LIMIT_BYTES) settle();
          });
          response.on('end', () => settle());
          response.on('close', () => settle());
          response.on('error', () => settle());
        },
      );
      request.on('error', (error) => settle(failureOf(error)));
      request.end(payload);
    } catch (error) {
      settle(failureOf(error));
    }
  });
}

/** The failure of a post that got no answer: the policy's refusal, or the error's code (`ECONNREFUSED`, a TLS error ...). */
function failureOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === TARGET_REFUSED) return `no answer: ${(error as Error).message}`;
  return `no answer (${code ?? (error as Error).message})`;
}

export class Delivery {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly scheduler: Scheduler;
  readonly schedule: RetrySchedule;
  private readonly routes: WebhookRouteMap;
  /** Where webhooks may go, and what a ping's caller is told (./webhook-targets.ts). */
  readonly targets: WebhookTargets;
  /** The accounts' delivery fault plans (the simulation API sets them). */
  readonly faults = new DeliveryFaults();
  /**
   * First attempts a fault plan released, in the order to make them. Only the head is scheduled: the next is
   * scheduled when it is done, so the receiver sees them arrive in this order whether the clock runs or not.
   */
  private readonly releasing: string[] = [];
  /** Released first attempts, which are not held again. */
  private readonly released = new Set<string>();

  constructor(
    db: Db,
    clock: Clock,
    scheduler: Scheduler,
    schedule: RetrySchedule,
    routes: WebhookRouteMap = {},
    targets = new WebhookTargets({}, '127.0.0.1'),
  ) {
    this.db = db;
    this.clock = clock;
    this.scheduler = scheduler;
    this.schedule = schedule;
    this.routes = routes;
    this.targets = targets;
  }

  /**
   * POSTs a signed body to an endpoint's url under the target policy, or to the loopback receiver a webhook route
   * names for it (the operator's config chose that target: the policy does not apply).
   */
  post(url: string, body: string, secret: string, idempotencyKey: string): Promise<PostResult> {
    const routed = routeWebhookUrl(this.routes, url);
    return postSigned(routed, body, secret, idempotencyKey, routed === url ? { targets: this.targets } : {});
  }

  /** Lets held first attempts go, in this order (a plan filled its window, or was replaced or cleared). */
  release(codes: readonly string[]): void {
    const idle = this.releasing.length === 0;
    for (const code of codes) {
      this.released.add(code);
      this.releasing.push(code);
    }
    if (idle) this.releaseNext();
  }

  private releaseNext(): void {
    const code = this.releasing[0];
    if (code === undefined) return;
    // The next in line may be another account's: it is attempted on its own account's clock.
    const account = this.db.get<{ account_id: number }>('SELECT account_id FROM deliveries WHERE code = ?', code)?.account_id ?? 0;
    this.clock.within(account, () => this.scheduler.schedule(DELIVERY_JOB, this.clock.now(), { delivery: code }));
  }

  /** One attempt of one delivery, then its outcome recorded (and the next attempt scheduled). */
  async attempt(code: string, jobId: number): Promise<void> {
    const releasedNow = this.releasing[0] === code && this.released.has(code);
    try {
      await this.attemptOnce(code, jobId);
    } finally {
      if (releasedNow) {
        this.releasing.shift();
        this.released.delete(code);
        this.releaseNext();
      }
    }
  }

  /**
   * A first attempt the account's faults put off: delayed (the job runs again when due) or held (the delivery
   * stays pending until its window is released). True when it is put off and the job is done.
   */
  private deferFirstAttempt(delivery: DeliveryRow, jobId: number): boolean {
    const { code } = delivery;
    const due = this.faults.delayedUntil(delivery.account_id, delivery.created_at);
    if (due > this.clock.now()) {
      this.db.transaction(() => {
        this.scheduler.schedule(DELIVERY_JOB, due, { delivery: code });
        this.scheduler.complete(jobId);
      });
      return true;
    }
    const order = this.released.has(code) ? undefined : this.faults.hold(delivery.account_id, code);
    if (!order) return false;
    this.scheduler.complete(jobId);
    if (order.length > 0) this.release(order);
    return true;
  }

  private async attemptOnce(code: string, jobId: number): Promise<void> {
    const delivery = this.db.get<DeliveryRow>(
      'SELECT code, account_id, created_at, endpoint_code, event_id, status, attempt, idempotency_key FROM deliveries WHERE code = ?',
      code,
    );
    const endpoint = delivery
      ? this.db.get<{ url: string; secret: string; is_active: number }>(
          'SELECT url, secret, is_active FROM webhook_endpoints WHERE code = ?',
          delivery.endpoint_code,
        )
      : undefined;
    const event = delivery ? this.db.get<{ body: string }>('SELECT body FROM events WHERE id = ?', delivery.event_id) : undefined;
    if (delivery?.status !== 'pending' || !endpoint || !event) {
      this.scheduler.complete(jobId);
      return;
    }
    if (endpoint.is_active !== 1) {
      // Designed: a delivery to an endpoint disabled meanwhile is failed, without an attempt.
      this.db.transaction(() => {
        this.db.run("UPDATE deliveries SET status = 'failed', next_retry_at = NULL WHERE code = ?", code);
        this.scheduler.complete(jobId);
      });
      return;
    }
    if (delivery.attempt === 0 && this.deferFirstAttempt(delivery, jobId)) return;
    const sentAt = this.clock.now();
    const attempt = delivery.attempt + 1;
    // The attempt is under way: the history shows it as the latest, with no answer or duration yet and no
    // retry due (a crash now counts it as made: it was sent, or about to be).
    this.db.run(
      'UPDATE deliveries SET attempt = ?, response_code = NULL, failure_reason = NULL, duration_ms = NULL, last_attempt_at = ?, next_retry_at = NULL WHERE code = ?',
      attempt,
      sentAt,
      code,
    );
    // Both choices are drawn before the post, in the order the attempts start: drawn after it, they would follow
    // the order the receiver answers in, and a seed would not repeat.
    const fails = this.faults.fails(delivery.account_id);
    const duplicates = !fails && this.faults.duplicates(delivery.account_id);
    // A failure the plan chose is recorded as an attempt that got no answer, without a post.
    const result: PostResult = fails
      ? { status: null, durationMs: 0, failure: FAULT_FAILURE, bytesRead: 0 }
      : await this.post(endpoint.url, event.body, endpoint.secret, delivery.idempotency_key);
    const delivered = result.failure === null;
    // A duplicate the plan chose is the same body posted again at once with the same idempotency key, as a retry
    // after an answer lost on the way back would be; the history keeps the one delivered attempt.
    if (delivered && duplicates) await this.post(endpoint.url, event.body, endpoint.secret, delivery.idempotency_key);
    const now = this.clock.now();
    this.db.transaction(() => {
      let status = 'delivered';
      let nextRetry: number | null = null;
      if (!delivered) {
        if (attempt < this.schedule.maxAttempts) {
          status = 'pending';
          nextRetry = sentAt + retryDelay(this.schedule, code, attempt);
          this.scheduler.schedule(DELIVERY_JOB, nextRetry, { delivery: code });
        } else {
          status = 'failed';
        }
      }
      this.db.run(
        'UPDATE deliveries SET status = ?, response_code = ?, failure_reason = ?, attempt = ?, duration_ms = ?, last_attempt_at = ?, next_retry_at = ? WHERE code = ?',
        status,
        result.status,
        this.targets.historyReason(result.failure),
        attempt,
        result.durationMs,
        sentAt,
        nextRetry,
        code,
      );
      if (delivered) {
        this.db.run(
          'UPDATE webhook_endpoints SET consecutive_failures = 0, last_success_at = ? WHERE code = ?',
          now,
          delivery.endpoint_code,
        );
      } else {
        this.db.run(
          'UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1, last_failure_at = ? WHERE code = ?',
          now,
          delivery.endpoint_code,
        );
      }
      this.scheduler.complete(jobId);
    });
  }
}
