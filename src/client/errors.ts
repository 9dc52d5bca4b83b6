// The errors the client throws. `PartnerApiError` is an answer of the API in its error envelope;
// `PartnerResponseError` an error answer without that envelope (a proxy page, an empty body);
// `PartnerTimeoutError` a call that ran out of time.

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
  /** The body: parsed JSON, text, or undefined when empty. */
  readonly body: unknown;
  declare readonly response: Response;

  constructor(init: { status: number; method: string; path: string; body: unknown; response: Response }) {
    const what = init.body === undefined || init.body === '' ? 'an empty body' : 'a body that is not the API envelope';
    super(`${init.method} ${init.path} answered HTTP ${init.status} with ${what}.`);
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.body = init.body;
    Object.defineProperty(this, 'response', { value: init.response, enumerable: false });
  }
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
  return new PartnerResponseError({ status: response.status, method, path, body, response });
}
