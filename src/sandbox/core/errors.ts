// Errors the sandbox answers, in the API's failure envelope. A handler throws an ApiError; the server turns
// it into `{ success: false, error: { code, message, details }, meta }` with its status.

/** The closed list of `details.reason` values (Contract 1.1, ErrorReason). */
export type ErrorReason =
  | 'card_not_active'
  | 'card_not_frozen'
  | 'card_not_usable'
  | 'card_balance_too_low'
  | 'ops_balance_too_low'
  | 'webhook_endpoint_required'
  | 'verification_level_too_low'
  | 'customer_restricted'
  | 'identity_not_mismatched'
  | 'customer_not_active'
  | 'identity_already_verified'
  | 'kyc_already_approved'
  | 'poa_under_review'
  | 'poa_already_approved'
  | 'webhook_ping_failed'
  | 'idempotency_key_reused'
  | 'quote_expired'
  | 'quote_already_confirmed'
  | 'beneficiary_rail_mismatch'
  // Events (sandbox-money)
  | 'webhook_endpoint_inactive'
  | 'webhook_endpoint_not_subscribed';

export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | null;
  readonly headers: Record<string, string>;
  /**
   * What the operation recorded before this error is kept (its transaction commits): a provider's failure that
   * is itself a fact, whose event is sent. Any other error rolls the operation back.
   */
  readonly keepsChanges: boolean;
  constructor(status: number, code: string, message: string, details: Record<string, unknown> | null = null, headers: Record<string, string> = {}, keepsChanges = false) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
    this.keepsChanges = keepsChanges;
  }
}

export const notFound = (what: string): ApiError => new ApiError(404, 'RESOURCE_NOT_FOUND', `${what} not found.`, null);

export const validationError = (message: string, fields: FieldError[], extra: Record<string, unknown> = {}): ApiError =>
  new ApiError(422, 'VALIDATION_ERROR', message, { fields, ...extra });

/** A refusal caused by a resource's state: 422 VALIDATION_ERROR with `details.reason` and `current_status`. */
export const stateError = (reason: ErrorReason, message: string, currentStatus?: string, extra: Record<string, unknown> = {}): ApiError =>
  new ApiError(422, 'VALIDATION_ERROR', message, {
    fields: [],
    reason,
    ...(currentStatus !== undefined ? { current_status: currentStatus } : {}),
    ...extra,
  });

export const planUpgradeRequired = (message: string): ApiError => new ApiError(402, 'PLAN_UPGRADE_REQUIRED', message, null);

export const planLimitReached = (message: string, details: Record<string, unknown>): ApiError =>
  new ApiError(403, 'PLAN_LIMIT_REACHED', message, details);

/** 502 OPERATION_FAILED: a provider failed an operation that had started; what it recorded (its event) is kept. */
export const providerFailed = (message: string): ApiError => new ApiError(502, 'OPERATION_FAILED', message, null, {}, true);
