// Automatic retries, as a fetch wrapper: openapi-fetch hands it the Request of each call.
//
// A GET is retried, and so is a POST that carries an `Idempotency-Key` header: the API answers a retry with
// the same key with the first response instead of running the operation again. PUT, PATCH and DELETE, and a
// POST without a key, are never retried automatically: one that failed on the way back (a 5xx, a lost
// connection) may already have been applied, and sending it again could create a second card or payout.

/** What the client passes a fetch besides the Request: the call's signal (its timeout and yours). */
export interface FetchInit {
  signal?: AbortSignal;
}

/**
 * A fetch: `globalThis.fetch` fits. The client passes the call's `AbortSignal` as `init.signal` (not on the
 * Request, which costs a few µs per call to link); a fetch that honours it aborts the request on timeout.
 */
export type FetchLike = (request: Request, init?: FetchInit) => Promise<Response>;

export interface RetryOptions {
  /** Retries after the first attempt (of a GET, or a POST with an `Idempotency-Key`). Default 2; 0 turns retries off. */
  retries?: number;
  /** First backoff ceiling, doubled at each retry. Default 500 ms. */
  baseDelayMs?: number;
  /**
   * Longest wait before one retry. Default 20,000 ms. The exponential backoff is capped at this value; a
   * `Retry-After` asking for longer is not shortened: the response is returned as it is (no retry).
   */
  maxDelayMs?: number;
  /** Waits `ms`, rejecting with `signal.reason` when the signal aborts. Injected by tests. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter. Default `Math.random`. Injected by tests. */
  random?: () => number;
  /** Current time in ms, to read a `Retry-After` HTTP date. Default `Date.now`. Injected by tests. */
  now?: () => number;
}

/** The longest delay a timer accepts (2^31 - 1 ms); Node fires longer ones after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

export const DEFAULT_RETRY = { retries: 2, baseDelayMs: 500, maxDelayMs: 20_000 } as const;

/** Statuses worth another try for a retryable request: 408 (request timeout), 429 (rate limited), every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * A `Retry-After` value in milliseconds: whole seconds (`"30"`) or an HTTP date
 * (`"Wed, 21 Oct 2026 07:28:00 GMT"`, a date in the past gives 0). Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // HTTP dates always name a day or a month; this also keeps Date.parse's lenient forms ("1.5") out.
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Waits `ms` milliseconds; rejects with the signal's reason if it aborts first. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** True for a request that may be sent twice: a GET, or a POST with an `Idempotency-Key` header. */
export function isRetryableRequest(request: Request): boolean {
  return request.method === 'GET' || (request.method === 'POST' && request.headers.has('idempotency-key'));
}

/** Retry settings, checked, with their defaults applied. */
export type RetryPolicy = Required<Pick<RetryOptions, 'retries' | 'baseDelayMs' | 'maxDelayMs' | 'sleep' | 'random' | 'now'>>;

export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  const retries = options.retries ?? DEFAULT_RETRY.retries;
  const baseDelayMs = options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs;
  for (const [name, value] of Object.entries({ retries, baseDelayMs, maxDelayMs })) {
    if (!Number.isInteger(value) || value < 0 || value > MAX_TIMER_MS) {
      throw new TypeError(`retry.${name} must be a whole number from 0 to ${MAX_TIMER_MS}, got ${String(value)}`);
    }
  }
  return {
    retries,
    baseDelayMs,
    maxDelayMs,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
  };
}

const NEVER_ABORTED = new AbortController().signal;

/**
 * Sends `request`, and sends it again while it fails with 408, 429, a 5xx or a network error, up to
 * `policy.retries` more times, if `isRetryableRequest(request)`. The wait before retry n (0-based) is the
 * response's `Retry-After` when present, else a full-jitter exponential backoff:
 * random() * min(maxDelayMs, baseDelayMs * 2^n). An aborted signal stops at once, also during a wait.
 * `resend` gives the Request of each retry (the first was consumed); by default a clone taken before sending.
 * `retryable` overrides `isRetryableRequest(request)` when the caller already knows.
 */
export function sendWithRetries(
  fetch: FetchLike,
  policy: RetryPolicy,
  request: Request,
  init?: FetchInit,
  resend?: () => Request,
  retryable?: boolean,
): Promise<Response> {
  if (policy.retries === 0 || !(retryable ?? isRetryableRequest(request))) return fetch(request, init);
  return retryLoop(fetch, policy, request, init, resend);
}

async function retryLoop(
  fetch: FetchLike,
  policy: RetryPolicy,
  request: Request,
  init: FetchInit | undefined,
  resend: (() => Request) | undefined,
): Promise<Response> {
  const signal = init?.signal ?? request.signal ?? NEVER_ABORTED;
  // A GET has no body (the Fetch spec forbids one), so nothing is consumed and the same Request can be sent
  // again: fetch() copies its input on each call. A Request with a body is consumed by fetch, so each retry
  // needs a fresh one: `resend`, else a clone taken before each attempt but the last (~30 µs each).
  const next = resend ?? (request.body === null ? () => request : undefined);
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= policy.retries;
    let response: Response;
    try {
      const sent = attempt > 0 && next ? next() : next || last ? request : request.clone();
      response = await fetch(sent, init);
    } catch (error) {
      // A network error. An abort (caller or timeout) is final.
      if (last || signal.aborted) throw error;
      await policy.sleep(backoff(policy, attempt), signal);
      continue;
    }
    if (last || !isRetryableStatus(response.status)) return response;
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'), policy.now());
    if (retryAfter !== undefined && retryAfter > policy.maxDelayMs) return response;
    await response.body?.cancel(); // release the connection of the discarded answer
    await policy.sleep(retryAfter ?? backoff(policy, attempt), signal);
  }
}

function backoff(policy: RetryPolicy, attempt: number): number {
  return Math.floor(policy.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt));
}

/**
 * Wraps `fetch` with `sendWithRetries`: a GET, or a POST with an `Idempotency-Key`, answered 408, 429 or 5xx
 * or failing with a network error is sent again, up to `retries` times.
 */
export function withRetries(fetch: FetchLike, options: RetryOptions = {}): FetchLike {
  const policy = retryPolicy(options);
  if (policy.retries === 0) return fetch;
  return (request, init) => sendWithRetries(fetch, policy, request, init);
}
