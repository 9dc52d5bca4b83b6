// Webhook delivery: each attempt signs the stored event body with the endpoint's current secret (the
// toolkit's signWebhook, exactly as verifyWebhook verifies), POSTs it with a 10 s timeout, and records
// the outcome. A non-2xx answer or no answer is retried with exponential backoff and seeded jitter, with the
// same X-Service-Idempotency-Key, until the attempts run out; the delivery is then `failed`.
import { performance } from 'node:perf_hooks';
import { signWebhook } from '../../webhooks/sign.js';
import type { Clock } from './clock.js';
import { DELIVERY_JOB } from './events.js';
import type { Scheduler } from './scheduler.js';
import type { Db } from './store.js';
import { routeWebhookUrl, type WebhookRouteMap } from './webhook-routes.js';

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

export const DELIVERY_TIMEOUT_MS = 10_000;

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
  endpoint_code: string;
  event_id: string;
  status: string;
  attempt: number;
  idempotency_key: string;
}

export interface PostResult {
  status: number | null;
  durationMs: number;
  failure: string | null;
}

/** POSTs a signed body; never throws. `status` is null when no answer came (timeout, refused, ...). */
export async function postSigned(url: string, body: string, secret: string, idempotencyKey: string, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<PostResult> {
  const headers = await signWebhook(body, secret, { idempotencyKey });
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', 'User-Agent': 'partner-api-sandbox' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    await response.arrayBuffer().catch(() => undefined);
    const ok = response.status >= 200 && response.status < 300;
    return { status: response.status, durationMs: Math.round(performance.now() - started), failure: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    const name = (error as { name?: string }).name;
    const failure = name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} seconds` : `no answer (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message})`;
    return { status: null, durationMs: Math.round(performance.now() - started), failure };
  }
}

export class Delivery {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly scheduler: Scheduler;
  readonly schedule: RetrySchedule;
  private readonly routes: WebhookRouteMap;

  constructor(db: Db, clock: Clock, scheduler: Scheduler, schedule: RetrySchedule, routes: WebhookRouteMap = {}) {
    this.db = db;
    this.clock = clock;
    this.scheduler = scheduler;
    this.schedule = schedule;
    this.routes = routes;
    scheduler.register(DELIVERY_JOB, (payload, jobId) => this.attempt(String(payload.delivery), jobId), { async: true });
  }

  /** POSTs a signed body to an endpoint's url (or to the loopback receiver a webhook route names for it). */
  post(url: string, body: string, secret: string, idempotencyKey: string): Promise<PostResult> {
    return postSigned(routeWebhookUrl(this.routes, url), body, secret, idempotencyKey);
  }

  /** One attempt of one delivery, then its outcome recorded (and the next attempt scheduled). */
  async attempt(code: string, jobId: number): Promise<void> {
    const delivery = this.db.get<DeliveryRow>('SELECT code, endpoint_code, event_id, status, attempt, idempotency_key FROM deliveries WHERE code = ?', code);
    const endpoint = delivery
      ? this.db.get<{ url: string; secret: string; is_active: number }>('SELECT url, secret, is_active FROM webhook_endpoints WHERE code = ?', delivery.endpoint_code)
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
    const sentAt = this.clock.now();
    const attempt = delivery.attempt + 1;
    // The attempt is under way: the history shows it as the latest, with no answer or duration yet and no
    // retry due (a crash now counts it as made: it was sent, or about to be).
    this.db.run('UPDATE deliveries SET attempt = ?, response_code = NULL, duration_ms = NULL, last_attempt_at = ?, next_retry_at = NULL WHERE code = ?', attempt, sentAt, code);
    const result = await this.post(endpoint.url, event.body, endpoint.secret, delivery.idempotency_key);
    const delivered = result.failure === null;
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
        'UPDATE deliveries SET status = ?, response_code = ?, attempt = ?, duration_ms = ?, last_attempt_at = ?, next_retry_at = ? WHERE code = ?',
        status,
        result.status,
        attempt,
        result.durationMs,
        sentAt,
        nextRetry,
        code,
      );
      if (delivered) {
        this.db.run('UPDATE webhook_endpoints SET consecutive_failures = 0, last_success_at = ? WHERE code = ?', now, delivery.endpoint_code);
      } else {
        this.db.run('UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1, last_failure_at = ? WHERE code = ?', now, delivery.endpoint_code);
      }
      this.scheduler.complete(jobId);
    });
  }
}
