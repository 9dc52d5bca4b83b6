// Automatic retries, as a fetch wrapper: openapi-fetch hands it the Request of each call.
//
// Only GET is retried. The API has no request idempotency keys, so a POST, PUT, PATCH or DELETE that
// failed on the way back (a 5xx, a lost connection) may already have been applied: sending it again could
// create a second card or send a second payout. Those methods are never retried automatically.

export type FetchLike = (request: Request) => Promise<Response>;

export interface RetryOptions {
  /** Retries after the first attempt (GET only). Default 2; 0 turns retries off. */
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

/** Statuses worth another try for a GET: 429 (rate limited) and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
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

/**
 * Wraps `fetch` so that a GET answered 429 or 5xx, or failing with a network error, is sent again, up to
 * `retries` times. The wait before retry n (0-based) is the response's `Retry-After` when present, else a
 * full-jitter exponential backoff: random() * min(maxDelayMs, baseDelayMs * 2^n). An aborted signal (the
 * caller's, or the client's timeout) stops at once, also during a wait.
 */
export function withRetries(fetch: FetchLike, options: RetryOptions = {}): FetchLike {
  const retries = options.retries ?? DEFAULT_RETRY.retries;
  const baseDelayMs = options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  for (const [name, value] of Object.entries({ retries, baseDelayMs, maxDelayMs })) {
    if (!Number.isInteger(value) || value < 0 || value > MAX_TIMER_MS) {
      throw new TypeError(`retry.${name} must be a whole number from 0 to ${MAX_TIMER_MS}, got ${String(value)}`);
    }
  }
  if (retries === 0) return fetch;

  const backoff = (attempt: number) => Math.floor(random() * Math.min(maxDelayMs, baseDelayMs * 2 ** attempt));

  return async function fetchWithRetries(request: Request): Promise<Response> {
    if (request.method !== 'GET') return fetch(request);
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      let response: Response;
      try {
        // A GET has no body (the Fetch spec forbids one), so nothing is consumed and the same Request can
        // be sent again: fetch() copies its input on each call. Cloning it would cost ~4 µs per call for
        // nothing; a Request with a body (never a GET) is still cloned, to keep it reusable.
        response = await fetch(last || request.body === null ? request : request.clone());
      } catch (error) {
        // A network error. An abort (caller or timeout) is final.
        if (last || request.signal.aborted) throw error;
        await sleep(backoff(attempt), request.signal);
        continue;
      }
      if (last || !isRetryableStatus(response.status)) return response;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'), now());
      if (retryAfter !== undefined && retryAfter > maxDelayMs) return response;
      await response.body?.cancel(); // release the connection of the discarded answer
      await sleep(retryAfter ?? backoff(attempt), request.signal);
    }
  };
}
