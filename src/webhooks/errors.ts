/**
 * Why a webhook delivery was rejected. One code per cause, so a receiver can log, count and alert on it.
 *
 * - `invalid_secret`: no endpoint secret was given (undefined, empty string or empty list). A setup error.
 * - `body_not_raw`: the body is not the raw request body (a parsed object, `undefined`, a number...).
 * - `missing_signature`: no `X-Service-Signature` header.
 * - `malformed_signature`: the header is not `t=<timestamp>,v1=<hex>` (no `t=`, a non-numeric `t=`, a part without `=`).
 * - `no_v1_signature`: the header has a timestamp but no `v1=` value.
 * - `timestamp_header_mismatch`: `X-Service-Timestamp` is present and differs from the header's `t=`.
 * - `signature_mismatch`: no `v1=` value equals the HMAC of `<t>.<raw_body>` under any of the secrets.
 * - `timestamp_too_old`: the signature is valid but `t=` is more than `tolerance` seconds in the past.
 * - `timestamp_too_new`: the signature is valid but `t=` is more than `tolerance` seconds in the future.
 * - `invalid_json`: the signature is valid but the body is not a JSON object (or not UTF-8).
 */
export type WebhookVerificationErrorCode =
  | 'invalid_secret'
  | 'body_not_raw'
  | 'missing_signature'
  | 'malformed_signature'
  | 'no_v1_signature'
  | 'timestamp_header_mismatch'
  | 'signature_mismatch'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'invalid_json';

/** The only error `verifyWebhook` throws for a bad delivery. Switch on `code`; `message` is for people. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly code: WebhookVerificationErrorCode;

  constructor(code: WebhookVerificationErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** True for a `WebhookVerificationError`, also across bundles or realms (checks `name` and `code`). */
export function isWebhookVerificationError(value: unknown): value is WebhookVerificationError {
  return (
    value instanceof WebhookVerificationError ||
    (value instanceof Error && value.name === 'WebhookVerificationError' && typeof (value as { code?: unknown }).code === 'string')
  );
}
