// The partner API client: openapi-fetch typed by the contract, plus what openapi-fetch leaves out —
// the bearer key and its mode, the gift card base address, a timeout, idempotency keys on POST, retries,
// typed errors with a data-or-throw call, and pagination.

import createClient, {
  defaultBodySerializer,
  type Client,
  type FetchResponse,
  type HeadersOptions,
  type MaybeOptionalInit,
  type Middleware,
} from 'openapi-fetch';
import type { paths } from '../../generated/openapi.js';
import { BASE_SERVER as base, GIFT_CARD_SERVER as alt, isGiftCardPath } from '../contract/servers.js';
import { API_KEY_RULE, apiKeyMode, type Mode } from './api-key.js';
import { Deadlines, type Deadline } from './deadlines.js';
import { errorFromResponse, PartnerConnectionError, PartnerResponseError, PartnerTimeoutError } from './errors.js';
import { MAX_TIMER_MS, retryPolicy, sendWithRetries, type FetchInit, type FetchLike, type RetryOptions } from './retry.js';
import type { FetchResult, HttpMethod, PageItem, PaginatedPath, PathsWithMethod } from './types.js';

export type { Mode } from './api-key.js';

export interface PartnerClientOptions {
  /** The secret API key: `sk_test_...` (test mode) or `sk_live_...` (live mode). */
  apiKey: string;
  /** The service address `{base_url}`, ending in `/v1` (for example `https://api.example.com/v1`). */
  baseUrl: string;
  /**
   * The gift card address `{alt_base_url}`, ending in `/api/v1`. Every path under `/gift-cards` is sent
   * there. No default: without it, gift card calls throw before sending anything.
   */
  giftCardBaseUrl?: string;
  /**
   * A fetch to use instead of `globalThis.fetch` (tests, proxies, instrumentation), called as
   * `fetch(request, { signal })`. Pass `init.signal` on, so that a timeout or your signal aborts the request;
   * the call throws `PartnerTimeoutError` at its deadline either way.
   */
  fetch?: FetchLike;
  /**
   * Time allowed for a whole call, retries and their waits included, in ms. Default 30,000.
   * 0 turns the timeout off. On expiry the call throws `PartnerTimeoutError`.
   */
  timeoutMs?: number;
  /**
   * Retry settings, or `false` for no retries. See `RetryOptions`. A GET is retried, and so is a POST that
   * carries an `Idempotency-Key` (every POST, with the default `idempotencyKeys`).
   */
  retry?: RetryOptions | false;
  /**
   * Send an `Idempotency-Key` (a fresh UUID v4) with every POST that has none, and the same key on its
   * retries. Default true. Your own key, set as a header of the call, is always kept. With `false`, a POST
   * carries a key only when you set one, and a POST without a key is never retried.
   */
  idempotencyKeys?: boolean;
  /** Extra headers sent with every request (the client sets `Authorization` itself). */
  headers?: HeadersOptions;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

type UpperMethod = Uppercase<HttpMethod>;
const lower = (method: UpperMethod) => method.toLowerCase() as 'get';
type Media = `${string}/${string}`;

// biome-ignore lint/complexity/noBannedTypes: `{}` is the empty object type, which extends Pick<T, K> only when K is optional.
type RequiredKeysOf<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

/**
 * Like openapi-fetch's methods, but resolves to the success body and throws on an error answer. `Paths` is the
 * partner API's; the simulation client's `call` has the same shape over the simulation API's.
 */
export type DataMethod<M extends HttpMethod, Paths extends {} = paths> = <
  P extends PathsWithMethod<M, Paths>,
  Init extends MaybeOptionalInit<Paths[P], M & keyof Paths[P]>,
>(
  url: P,
  ...init: InitParam<Init>
) => Promise<
  Paths[P][M & keyof Paths[P]] extends infer Op extends Record<string | number, unknown>
    ? Exclude<FetchResponse<Op, Init, Media>['data'], undefined>
    : never
>;

export interface PartnerClient {
  /** `test` or `live`, from the key's prefix. */
  readonly mode: Mode;
  readonly baseUrl: string;
  readonly giftCardBaseUrl: string | undefined;

  /** openapi-fetch methods: resolve to `{ data, error, response }` and never throw on an HTTP error. */
  GET: Client<paths, Media>['GET'];
  POST: Client<paths, Media>['POST'];
  PUT: Client<paths, Media>['PUT'];
  PATCH: Client<paths, Media>['PATCH'];
  DELETE: Client<paths, Media>['DELETE'];
  request: Client<paths, Media>['request'];
  /** Adds or removes openapi-fetch middleware. */
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;

  /**
   * Data or throw: `await client.call.GET('/cards/{code}', ...)` resolves to the success body
   * (`{ success, data, meta }`) or throws `PartnerApiError` (`PartnerResponseError` without an envelope).
   */
  call: {
    GET: DataMethod<'get'>;
    POST: DataMethod<'post'>;
    PUT: DataMethod<'put'>;
    PATCH: DataMethod<'patch'>;
    DELETE: DataMethod<'delete'>;
  };

  /** The success body of an openapi-fetch result, or throws its `PartnerApiError`. */
  unwrap<R extends FetchResult>(result: R): Exclude<R['data'], undefined>;

  /**
   * Every item of a list endpoint, page after page, from `params.query.page` (default 1) up to
   * `pagination.pages`. Throws `PartnerApiError` if a page fails (after GET retries).
   */
  paginate<P extends PaginatedPath>(
    path: P,
    ...init: InitParam<MaybeOptionalInit<paths[P], 'get'>>
  ): AsyncGenerator<PageItem<P>, void, undefined>;
}

/** True for the paths served at `{alt_base_url}` (the gift card operations), by the contract's prefixes of that address. */
export { isGiftCardPath };

/** The mode of a key (the rule of ./api-key.ts, which the sandbox applies too), or a TypeError that says what is wrong with it (never echoing the key). */
export function modeOfApiKey(apiKey: unknown): Mode {
  const expected = 'Pass the secret API key from the partner dashboard: sk_test_... (test mode) or sk_live_... (live mode).';
  if (typeof apiKey !== 'string' || apiKey === '') {
    throw new TypeError(`Partner API client: apiKey is missing or empty. ${expected}`);
  }
  if (/^bearer\s/i.test(apiKey)) {
    throw new TypeError('Partner API client: apiKey starts with "Bearer ". Pass the key alone; the client sends the Authorization header.');
  }
  if (/\s/.test(apiKey)) {
    throw new TypeError('Partner API client: apiKey contains whitespace (a space or line break copied with it?). Remove it.');
  }
  if (apiKey.startsWith('whsec_')) {
    throw new TypeError(`Partner API client: apiKey is a webhook signing secret (whsec_...), not an API key. ${expected}`);
  }
  const mode = apiKeyMode(apiKey);
  if (mode !== undefined) return mode;
  throw new TypeError(`Partner API client: apiKey does not start with ${API_KEY_RULE}. ${expected}`);
}

function checkUrl(name: string, value: unknown, example: string): string {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new TypeError(`Partner API client: ${name} must be an absolute http(s) URL such as ${example}; got ${JSON.stringify(value)}.`);
  }
  return (value as string).replace(/\/+$/, '');
}

/** The checked settings of a client: every mistake in the options is a TypeError that names it. */
function settingsOf(options: PartnerClientOptions) {
  const mode = modeOfApiKey(options?.apiKey);
  const baseUrl = checkUrl('baseUrl', options.baseUrl, `https://api.example.com${base.path} ({${base.variable}})`);
  const giftCardBaseUrl =
    options.giftCardBaseUrl === undefined
      ? undefined
      : checkUrl('giftCardBaseUrl', options.giftCardBaseUrl, `https://api.example.com${alt.path} ({${alt.variable}})`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // 2^31 - 1 ms (~24.8 days) is the longest delay a timer accepts; beyond, Node fires it after 1 ms.
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0 || timeoutMs > MAX_TIMER_MS) {
    throw new TypeError(
      `Partner API client: timeoutMs must be a number of ms from 0 (no timeout) to ${MAX_TIMER_MS}, got ${String(timeoutMs)}.`,
    );
  }
  return { mode, baseUrl, giftCardBaseUrl, timeoutMs };
}

/** A call's options with the gift card address as its base, for a path served there. */
function routed(method: UpperMethod, path: string, init: Record<string, unknown>, giftCardBaseUrl: string | undefined) {
  if (!isGiftCardPath(path) || init.baseUrl !== undefined) return init;
  if (giftCardBaseUrl === undefined) {
    throw new Error(
      `Partner API client: ${method} ${path} is served at the gift card address {${alt.variable}}, which ends ` +
        `in ${alt.path}. Pass giftCardBaseUrl to createPartnerClient.`,
    );
  }
  return { ...init, baseUrl: giftCardBaseUrl };
}

/**
 * The call's signal: the caller's, joined with the call's deadline when there is one. At the deadline the
 * request is aborted with a PartnerTimeoutError, and `expire` (set by a call that races its deadline) is told.
 */
class CallDeadline {
  readonly signal: AbortSignal | undefined;
  timedOut = false;
  expire: ((reason: unknown) => void) | undefined;
  private readonly deadline: Deadline | undefined;

  constructor(
    deadlines: Deadlines | undefined,
    callerSignal: AbortSignal | undefined,
    timeout: ConstructorParameters<typeof PartnerTimeoutError>[0],
  ) {
    this.signal = callerSignal;
    if (deadlines === undefined) return;
    const controller = new AbortController();
    this.signal = callerSignal ? AbortSignal.any([callerSignal, controller.signal]) : controller.signal;
    this.deadline = deadlines.add(() => {
      this.timedOut = true;
      const reason = new PartnerTimeoutError(timeout);
      controller.abort(reason);
      this.expire?.(reason);
    });
  }

  /** The call's result, or its PartnerTimeoutError at the deadline, for a fetch that may ignore the signal. */
  race<T>(pending: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.expire = reject;
      pending.then(resolve, reject);
    });
  }

  get armed(): boolean {
    return this.deadline !== undefined;
  }

  clear(): void {
    this.deadline?.clear();
  }
}

/** What a call's transport saw: the Request sent, its serialised body (for a retry's Request), and fetch's promise. */
interface Sending {
  request?: Request;
  body?: unknown;
  sent?: Promise<Response>;
}

/**
 * The openapi-fetch init of a call: its transport (retries, the deadline's signal), and for a POST the
 * `Idempotency-Key` and a body serialiser that keeps the body for a retry.
 */
function callInitOf(
  method: UpperMethod,
  init: Record<string, unknown>,
  fetch: FetchLike,
  fetchInit: FetchInit | undefined,
  retry: ReturnType<typeof retryPolicy>,
  sendsKeys: boolean,
  sending: Sending,
): Record<string, unknown> {
  // (openapi-fetch calls it with the merged headers too, as declared by BodySerializer.)
  const serialise = (init.bodySerializer ?? defaultBodySerializer) as (body: unknown, headers?: unknown) => unknown;
  const transport = (request: Request): Promise<Response> => {
    sending.request = request;
    const resend = sending.body === undefined ? undefined : () => new Request(request, { body: sending.body as RequestInit['body'] });
    sending.sent = sendWithRetries(fetch, retry, request, fetchInit, resend, retryable);
    return sending.sent;
  };
  const callInit: Record<string, unknown> = { ...init, fetch: transport };
  // A GET, or a POST with a key, may be sent again; undefined: let the Request say (a middleware's key).
  let retryable: boolean | undefined = method === 'GET' || (method !== 'POST' ? false : undefined);
  if (method === 'POST') {
    if (hasIdempotencyKey(init)) retryable = true;
    else if (sendsKeys) {
      // Set before openapi-fetch builds the Request: a header set on a built Request costs ~3 µs.
      callInit.headers = withHeader(init.headers, IDEMPOTENCY_KEY, globalThis.crypto.randomUUID());
      retryable = true;
    }
    if (init.body !== undefined) callInit.bodySerializer = (body: unknown, headers?: unknown) => (sending.body = serialise(body, headers));
  }
  return callInit;
}

/** Method, path template and URL of an error response. */
type Origin = { method: string; path: string; url: string };
type Send = (method: UpperMethod, path: string, init: Record<string, unknown> | undefined) => Promise<FetchResult>;
type PageInit = { params?: { query?: Record<string, unknown> } };

/** The success body of a result, or the error it stands for, built with the call's origin. */
function unwrapWith(origins: WeakMap<Response, Origin>) {
  return function unwrap<R extends FetchResult>(result: R): Exclude<R['data'], undefined> {
    const { response } = result;
    const origin = origins.get(response) ?? { method: '', path: response.url, url: response.url };
    if (response.ok && result.data !== undefined) return result.data as Exclude<R['data'], undefined>;
    if (response.ok) throw new PartnerResponseError({ status: response.status, ...origin, body: undefined, response });
    throw errorFromResponse(result.error, response, origin.method, origin.path, origin.url);
  };
}

/** Every item of a list, page after page, from `params.query.page` (default 1) to `pagination.pages`. */
async function* pages(send: Send, unwrap: (result: FetchResult) => unknown, path: string, init?: PageInit) {
  const query = init?.params?.query ?? {};
  let page = typeof query.page === 'number' ? query.page : 1;
  for (;;) {
    const body = unwrap(await send('GET', path, { ...init, params: { ...init?.params, query: { ...query, page } } })) as {
      data?: unknown;
      pagination?: { pages?: unknown };
    };
    const pages = body.pagination?.pages;
    if (!Array.isArray(body.data) || typeof pages !== 'number') {
      throw new TypeError(`Partner API client: GET ${path} page ${page} has no data array or no pagination.pages.`);
    }
    yield* body.data;
    if (page >= pages) return;
    page += 1;
  }
}

/**
 * What a failed call throws: its timeout (unless the caller aborted), a connection error when fetch itself
 * failed after its retries (not an abort), or the error as it came.
 */
async function callFailure(
  error: unknown,
  call: { method: string; path: string; timeoutMs: number },
  deadline: CallDeadline,
  callerSignal: AbortSignal | undefined,
  sending: Sending,
): Promise<unknown> {
  if (deadline.timedOut && !callerSignal?.aborted) return new PartnerTimeoutError(call);
  const fromFetch =
    sending.sent !== undefined &&
    (await sending.sent.then(
      () => false,
      (rejection: unknown) => rejection === error,
    ));
  if (fromFetch && !deadline.signal?.aborted)
    return new PartnerConnectionError({ method: call.method, path: call.path, url: sending.request!.url, cause: error });
  return error;
}

export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  const { mode, baseUrl, giftCardBaseUrl, timeoutMs } = settingsOf(options);
  const defaultFetch = options.fetch === undefined;
  const baseFetch: FetchLike = options.fetch ?? ((request, init) => globalThis.fetch(request, init));
  const retry = retryPolicy(options.retry === false ? { retries: 0 } : options.retry);
  const sendsKeys = options.idempotencyKeys ?? true;
  const deadlines = timeoutMs > 0 ? new Deadlines(timeoutMs) : undefined;

  const raw = createClient<paths, Media>({
    baseUrl,
    fetch: baseFetch,
    headers: { ...headersObject(options.headers), Authorization: `Bearer ${options.apiKey}` },
  });

  // Method, path template and URL of each error response, for the errors `unwrap` builds.
  const origins = new WeakMap<Response, Origin>();

  async function send(method: UpperMethod, path: string, init: Record<string, unknown> | undefined): Promise<FetchResult> {
    const options = routed(method, path, init ?? {}, giftCardBaseUrl);
    // The call's signal (timeout and caller's) goes to fetch as `init.signal`, not on openapi-fetch's Request:
    // linking a signal to a Request costs about as much as the rest of the client's work.
    const callerSignal = (options.signal as AbortSignal | undefined | null) ?? undefined;
    const deadline = new CallDeadline(deadlines, callerSignal, { method, path, timeoutMs });
    const { signal } = deadline;
    const fetch = (options.fetch as FetchLike | undefined) ?? baseFetch;
    // globalThis.fetch honours init.signal, body included; a fetch of yours may not (one written for a
    // Request alone drops init), so the call then also races its deadline.
    const raceDeadline = deadline.armed && (options.fetch !== undefined || !defaultFetch);
    const sending: Sending = {};
    const callInit = callInitOf(method, options, fetch, signal ? { signal } : undefined, retry, sendsKeys, sending);
    try {
      const pending = raw.request(lower(method), path as never, callInit as never);
      const result = raceDeadline ? await deadline.race(pending) : await pending;
      // Only what unwrap turns into an error needs its origin.
      if (!result.response.ok || result.data === undefined) {
        // (a sent Request's URL is read only for an error: the getter serialises it)
        origins.set(result.response, { method, path, url: sending.request?.url ?? result.response.url });
      }
      return result;
    } catch (error) {
      throw await callFailure(error, { method, path, timeoutMs }, deadline, callerSignal, sending);
    } finally {
      deadline.clear();
    }
  }

  const unwrap = unwrapWith(origins);

  const method = (m: UpperMethod) => (path: string, init?: Record<string, unknown>) => send(m, path, init);
  const dataMethod = (m: UpperMethod) => async (path: string, init?: Record<string, unknown>) => unwrap(await send(m, path, init));

  const paginate = (path: string, init?: PageInit) => pages(send, unwrap, path, init);

  const client = {
    mode,
    baseUrl,
    giftCardBaseUrl,
    GET: method('GET'),
    POST: method('POST'),
    PUT: method('PUT'),
    PATCH: method('PATCH'),
    DELETE: method('DELETE'),
    request: (m: string, path: string, init?: Record<string, unknown>) => send(m.toUpperCase() as UpperMethod, path, init),
    use: (...middleware: Middleware[]) => raw.use(...middleware),
    eject: (...middleware: Middleware[]) => raw.eject(...middleware),
    call: {
      GET: dataMethod('GET'),
      POST: dataMethod('POST'),
      PUT: dataMethod('PUT'),
      PATCH: dataMethod('PATCH'),
      DELETE: dataMethod('DELETE'),
    },
    unwrap,
    paginate,
  };
  return client as unknown as PartnerClient;
}

const IDEMPOTENCY_KEY = 'Idempotency-Key';

/** True when the call sets an `Idempotency-Key` itself, in `headers` or `params.header`, in any case. */
function hasIdempotencyKey(init: Record<string, unknown>): boolean {
  const params = init.params as { header?: Record<string, unknown> } | undefined;
  return hasHeader(init.headers, IDEMPOTENCY_KEY) || hasHeader(params?.header, IDEMPOTENCY_KEY);
}

function hasHeader(headers: unknown, name: string): boolean {
  if (headers === undefined || headers === null) return false;
  const wanted = name.toLowerCase();
  if (headers instanceof Headers) return headers.has(wanted);
  const entries: [string, unknown][] = Array.isArray(headers) ? headers : Object.entries(headers);
  return entries.some(([key, value]) => key.toLowerCase() === wanted && value !== undefined && value !== null);
}

/** The call's headers plus one (a copy: the caller's object is never changed). */
function withHeader(headers: unknown, name: string, value: string): HeadersOptions {
  if (headers === undefined || headers === null) return { [name]: value };
  if (headers instanceof Headers || Array.isArray(headers)) {
    const copy = new Headers(headers as ConstructorParameters<typeof Headers>[0]);
    copy.set(name, value);
    return copy;
  }
  return { ...(headers as Record<string, string>), [name]: value };
}

function headersObject(headers: HeadersOptions | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  const entries: [string, unknown][] =
    headers instanceof Headers || Array.isArray(headers)
      ? [...new Headers(headers as ConstructorParameters<typeof Headers>[0])]
      : Object.entries(headers);
  for (const [key, value] of entries) {
    // The client owns Authorization: it always carries the key given as apiKey.
    if (value === null || value === undefined || key.toLowerCase() === 'authorization') continue;
    out[key] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}
