// The errors the client throws. `PartnerApiError` is an answer of the API in its error envelope;
// `PartnerResponseError` an error answer without that envelope (a proxy page, an empty body);
// `PartnerTimeoutError` a call that ran out of time; `PartnerConnectionError` a server that could not be reached.

import type { ErrorCode, ErrorDetails, HttpMethod, Meta, PathErrorCode, PathsWithMethod } from './types.js';

/** An error answer of the API: `{ success: false, error: { code, message, details }, meta? }`. */
export class PartnerApiError<Code extends ErrorCode = ErrorCode> extends Error {
  override readonly name = 'PartnerApiError';
  /** HTTP status of the answer (404, 422...). */
  readonly status: number;
  /** `error.code`: branch on it (`RESOURCE_NOT_FOUND`, `INSUFFICIENT_BALANCE`...). */
  readonly code: Code;
  /** `error.details`: structured context whose shape depends on `code`, or null. */
  readonly details: ErrorDetails<Code>;
  /** `meta.request_id` when the answer carries `meta`. Quote it to support. */
  readonly requestId: string | undefined;
  /** `meta` (`request_id`, `mode`, `timestamp`) when present. */
  readonly meta: Meta | undefined;
  /** The request method, uppercase (`GET`). */
  readonly method: string;
  /** The path template of the operation (`/cards/{code}`), or the URL when the operation is unknown. */
  readonly path: string;
  /** The raw response (its body is already read). Not enumerable, to keep logs short. */
  declare readonly response: Response;

  constructor(init: {
    status: number;
    code: Code;
    message: string;
    details: ErrorDetails<Code>;
    meta?: Meta | undefined;
    method: string;
    path: string;
    response: Response;
  }) {
    // `message` is the API's own message, verbatim; code, status and request id are fields.
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.meta = init.meta;
    this.requestId = init.meta?.request_id;
    this.method = init.method;
    this.path = init.path;
    Object.defineProperty(this, 'response', { value: init.response, enumerable: false });
  }
}

/**
 * One `PartnerApiError` per code, as a union discriminated by `code`: checking `error.code` narrows
 * `error.details` (`INSUFFICIENT_BALANCE` has `required`, `available`, `balance_type`).
 */
export type PartnerApiErrorOf<Code extends ErrorCode> = Code extends ErrorCode ? PartnerApiError<Code> : never;

/** The error of one operation: `PartnerApiErrorFor<'/cards/{code}/withdraw', 'post'>`. */
export type PartnerApiErrorFor<Path extends PathsWithMethod<Method>, Method extends HttpMethod> = PartnerApiErrorOf<
  PathErrorCode<Path, Method>
>;

/** An error answer (4xx/5xx) whose body is not the API's error envelope, or a 2xx without a body. */
export class PartnerResponseError extends Error {
  override readonly name = 'PartnerResponseError';
  readonly status: number;
  readonly method: string;
  readonly path: string;
  /** The URL the request was sent to, when known. */
  readonly url: string;
  /** The body: parsed JSON, text, or undefined when empty. */
  readonly body: unknown;
  declare readonly response: Response;

  constructor(init: { status: number; method: string; path: string; url?: string; body: unknown; response: Response }) {
    const url = init.url || init.response.url;
    const empty = init.body === undefined || init.body === '';
    const what = empty ? 'an empty body' : `a body that is not the API envelope: ${bodyExcerpt(init.body)}`;
    super(`${init.method} ${init.path} answered HTTP ${init.status} with ${what}${url ? ` (${init.method} ${url})` : ''}.`);
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.url = url;
    this.body = init.body;
    Object.defineProperty(this, 'response', { value: init.response, enumerable: false });
  }
}

const EXCERPT_LENGTH = 200;

/** The start of a body, on one line and quoted: enough to recognise a proxy page or another API. */
export function bodyExcerpt(body: unknown): string {
  const text = (typeof body === 'string' ? body : (JSON.stringify(body) ?? String(body))).replace(/\s+/g, ' ').trim();
  return JSON.stringify(text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH)}...` : text);
}

/** The server could not be reached (refused, unknown host, reset before an answer), after any retries. */
export class PartnerConnectionError extends Error {
  override readonly name = 'PartnerConnectionError';
  readonly method: string;
  readonly path: string;
  /** The URL of the request. */
  readonly url: string;
  /** `host:port` of that URL: the server that could not be reached. */
  readonly host: string;
  /** The system error code when fetch gave one (`ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`...). */
  readonly code: string | undefined;

  constructor(init: { method: string; path: string; url: string; cause: unknown }) {
    const host = hostOf(init.url);
    const code = systemCode(init.cause);
    const reason = code ?? causeMessage(init.cause);
    super(
      `${init.method} ${init.path}: could not reach ${host}${reason ? ` (${reason})` : ''}. Check baseUrl (and ` +
        `giftCardBaseUrl), and that the server at ${host} is up and reachable from here.`,
      { cause: init.cause },
    );
    this.method = init.method;
    this.path = init.path;
    this.url = init.url;
    this.host = host;
    this.code = code;
  }
}

function hostOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.port ? parsed.host : `${parsed.hostname}:${parsed.protocol === 'https:' ? 443 : 80}`;
  } catch {
    return url;
  }
}

/** The `code` of the error or of one of its causes (undici wraps it: TypeError "fetch failed" -> cause). */
function systemCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
  }
  return undefined;
}

function causeMessage(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  return cause instanceof Error ? cause.message : undefined;
}

/** The call did not complete within `timeoutMs` (retries and their waits included). */
export class PartnerTimeoutError extends Error {
  override readonly name = 'PartnerTimeoutError';
  readonly method: string;
  readonly path: string;
  readonly timeoutMs: number;

  constructor(init: { method: string; path: string; timeoutMs: number }) {
    super(
      `${init.method} ${init.path} timed out after ${init.timeoutMs} ms (timeoutMs). The request was aborted; ` +
        'a write may still have been applied by the API: check before repeating it.',
    );
    this.method = init.method;
    this.path = init.path;
    this.timeoutMs = init.timeoutMs;
  }
}

/** True when `error` is an API error. */
export function isPartnerApiError(error: unknown): error is PartnerApiErrorOf<ErrorCode>;
/**
 * True when `error` is an API error of the operation `method` `path`; its `code` is then narrowed to the
 * codes that operation documents. The method and path are checked at run time.
 */
export function isPartnerApiError<Method extends Uppercase<HttpMethod>, Path extends PathsWithMethod<Lowercase<Method>>>(
  error: unknown,
  method: Method,
  path: Path,
): error is PartnerApiErrorOf<PathErrorCode<Path, Lowercase<Method>>>;
export function isPartnerApiError(error: unknown, method?: string, path?: string): boolean {
  if (!(error instanceof PartnerApiError)) return false;
  if (method !== undefined && error.method !== method.toUpperCase()) return false;
  if (path !== undefined && error.path !== path) return false;
  return true;
}

interface ErrorEnvelopeLike {
  success: false;
  error: { code: string; message: string; details?: unknown };
  meta?: Meta;
}

function isErrorEnvelope(body: unknown): body is ErrorEnvelopeLike {
  if (typeof body !== 'object' || body === null) return false;
  const { success, error } = body as { success?: unknown; error?: unknown };
  if (success !== false || typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === 'string' && typeof message === 'string';
}

/** Builds the error for a failed openapi-fetch result. */
export function errorFromResponse(
  body: unknown,
  response: Response,
  method: string,
  path: string,
  url?: string,
): PartnerApiError | PartnerResponseError {
  if (isErrorEnvelope(body)) {
    return new PartnerApiError({
      status: response.status,
      code: body.error.code as ErrorCode,
      message: body.error.message,
      details: (body.error.details ?? null) as ErrorDetails<ErrorCode>,
      meta: body.meta,
      method,
      path,
      response,
    });
  }
  return new PartnerResponseError({ status: response.status, method, path, url, body, response });
}
