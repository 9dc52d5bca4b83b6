// Errors the sandbox answers, in the API's failure envelope: one catalogue keyed by error code, in the spirit of
// stripe-node's src/Error.ts. The code is the contract's (`ErrorCode`), its HTTP status is the one the contract's
// operations answer it with (read from generated/openapi.json), and its `details` are typed as the contract gives
// them for that code. A handler throws what `apiError` (or a helper below) makes; the server turns it into
// `{ success: false, error: { code, message, details }, meta }` with its status.
import type { components } from '../../../generated/openapi.js';
import type { ErrorCode, ErrorDetails } from '../../client/types.js';
import { codeOfStatus as contractCodeOfStatus } from '../../contract/bundle.js';
import { get } from '../../contract/json.js';
import type { Refusals } from '../../contract/model.js';
import { sandboxModel } from './contract.js';

/** The closed list of `details.reason` values (the contract's ErrorReason). */
export type ErrorReason = components['schemas']['ErrorReason'];

/**
 * The `details` the contract gives for an error code: its declared fields (the generated type intersects them
 * with the envelope's untyped `details`, which an object literal cannot satisfy), or null where it allows null.
 */
export type DetailsOf<C extends ErrorCode> =
  ErrorDetails<C> extends infer D ? (D extends null ? null : { [K in keyof D as string extends K ? never : K]: D[K] }) : never;

export interface FieldError {
  field: string;
  message: string;
}

/**
 * The answers outside every operation (docs/sandbox.md, "Answers outside the operations"): the status is the
 * sandbox's, the code the contract's, and the details the sandbox's own.
 */
export const OUTSIDE_OPERATIONS = {
  /** Not HTTP/1.1 that Node's parser reads (a garbage request line, CR, LF or NUL in a header): no operation is reached. */
  400: 'VALIDATION_ERROR',
  /** The request did not arrive whole in time. */
  408: 'VALIDATION_ERROR',
  413: 'VALIDATION_ERROR',
  415: 'VALIDATION_ERROR',
  /** The request line and headers are too large (a long query too). */
  431: 'VALIDATION_ERROR',
  501: 'INTERNAL_ERROR',
} as const satisfies Record<number, ErrorCode>;
type OutsideStatus = keyof typeof OUTSIDE_OPERATIONS;

let statuses: Map<string, number> | undefined;
let messageMaxLength: number | undefined;
let wrongMethod: (Refusals['wrongMethod'] & { code: ErrorCode }) | undefined;

/** The longest `error.message` the contract's ErrorEnvelope allows. */
export function errorMessageMaxLength(): number {
  messageMaxLength ??= Number(get(sandboxModel().schema('ErrorEnvelope')?.node, '/properties/error/properties/message/maxLength'));
  return messageMaxLength;
}

/** The HTTP status the contract answers an error code with. */
export function statusOf(code: ErrorCode): number {
  statuses ??= sandboxModel().errorStatuses;
  const status = statuses.get(code);
  if (status === undefined) throw new Error(`the contract documents no status for the error code ${code}`);
  return status;
}

/** The contract's answer to a method a path does not have (`x-refusals.wrong_method`: 405 with `Allow`). */
export function wrongMethodAnswer(): Refusals['wrongMethod'] & { code: ErrorCode } {
  wrongMethod ??= sandboxModel().refusals.wrongMethod as Refusals['wrongMethod'] & { code: ErrorCode };
  return wrongMethod;
}

/** The error code the contract answers with this status, when exactly one is (500 -> INTERNAL_ERROR). */
export function codeOfStatus(status: number): ErrorCode {
  statuses ??= sandboxModel().errorStatuses;
  return contractCodeOfStatus(statuses, status) as ErrorCode;
}

export interface ErrorOptions {
  /** Response headers (`Retry-After` of a 429). */
  headers?: Record<string, string>;
  /** Keep what the operation recorded before the error (see `keepsChanges`). */
  keepsChanges?: boolean;
}

export class ApiError<C extends ErrorCode = ErrorCode> extends Error {
  readonly status: number;
  readonly code: C;
  readonly details: DetailsOf<C> | Record<string, unknown> | null;
  readonly headers: Record<string, string>;
  /**
   * What the operation recorded before this error is kept (its transaction commits): a provider's failure that
   * is itself a fact, whose event is sent. Any other error rolls the operation back.
   */
  readonly keepsChanges: boolean;

  /** Made by `apiError` or `outsideOperations` only: the status always comes from the catalogue. */
  private constructor(
    status: number,
    code: C,
    message: string,
    details: DetailsOf<C> | Record<string, unknown> | null,
    options: ErrorOptions,
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = options.headers ?? {};
    this.keepsChanges = options.keepsChanges ?? false;
  }

  /** The error `code`, with the status the contract gives it and `details` of the shape it gives them. */
  static of<C extends ErrorCode>(code: C, message: string, details: DetailsOf<C>, options: ErrorOptions = {}): ApiError<C> {
    return new ApiError(statusOf(code), code, message, details, options);
  }

  /** An answer whose status and code the contract's `x-refusals` gives outside the catalogue (the wrong method). */
  static refusal<C extends ErrorCode>(
    answer: { status: number; code: C },
    message: string,
    details: Record<string, unknown> | null,
  ): ApiError<C> {
    return new ApiError(answer.status, answer.code, message, details, {});
  }

  /** An answer outside every operation (OUTSIDE_OPERATIONS), in the envelope with the contract's code for it. */
  static outsideOperations<S extends OutsideStatus>(
    status: S,
    message: string,
    details: Record<string, unknown> | null,
  ): ApiError<(typeof OUTSIDE_OPERATIONS)[S]> {
    return new ApiError(status, OUTSIDE_OPERATIONS[status], message, details, {});
  }
}

/** The error `code`, with the status the contract gives it and `details` of the shape it gives them. */
export function apiError<C extends ErrorCode>(code: C, message: string, details: DetailsOf<C>, options: ErrorOptions = {}): ApiError<C> {
  return ApiError.of(code, message, details, options);
}

/** An answer outside every operation (OUTSIDE_OPERATIONS), in the envelope with the contract's code for it. */
export function outsideOperations<S extends OutsideStatus>(
  status: S,
  message: string,
  details: Record<string, unknown> | null,
): ApiError<(typeof OUTSIDE_OPERATIONS)[S]> {
  return ApiError.outsideOperations(status, message, details);
}

export const notFound = (what: string): ApiError => apiError('RESOURCE_NOT_FOUND', `${what} not found.`, null);

export const validationError = (message: string, fields: FieldError[], extra: DetailsOf<'VALIDATION_ERROR'> = {}): ApiError =>
  apiError('VALIDATION_ERROR', message, { fields, ...extra });

/** A refusal caused by a resource's state: VALIDATION_ERROR with `details.reason` and `current_status`. */
export const stateError = (
  reason: ErrorReason,
  message: string,
  currentStatus?: string,
  extra: DetailsOf<'VALIDATION_ERROR'> = {},
): ApiError =>
  apiError('VALIDATION_ERROR', message, {
    fields: [],
    reason,
    ...(currentStatus !== undefined ? { current_status: currentStatus } : {}),
    ...extra,
  });

export const planUpgradeRequired = (message: string): ApiError => apiError('PLAN_UPGRADE_REQUIRED', message, null);

export const planLimitReached = (message: string, details: DetailsOf<'PLAN_LIMIT_REACHED'>): ApiError =>
  apiError('PLAN_LIMIT_REACHED', message, details);

/** OPERATION_FAILED: a provider failed an operation that had started; what it recorded (its event) is kept. */
export const providerFailed = (message: string): ApiError => apiError('OPERATION_FAILED', message, null, { keepsChanges: true });
