import { bodyBytes, hmacSha256Hex, rawPayload, signedContent, syncSigner, type RawBody } from './crypto.js';
import { WEBHOOK_HEADERS } from './headers.js';

/**
 * The three headers of a delivery, named and formatted as the service sends them. (A type alias, not an
 * interface, so that it is assignable to `Record<string, string>` and `HeadersInit`.)
 */
export type WebhookDeliveryHeaders = {
  /** `t=<timestamp>,v1=<lowercase hex HMAC-SHA256 of "<timestamp>.<raw_body>">` */
  'X-Service-Signature': string;
  /** The same timestamp as `t=`, in seconds. */
  'X-Service-Timestamp': string;
  /** Unique per event; the same value on every retry of that event. */
  'X-Service-Idempotency-Key': string;
};

export interface SignOptions {
  /** Unix time in seconds to sign with. Default: now. */
  timestamp?: number;
  /**
   * The idempotency key to send. Default: a fresh `idem_<32 hex>`. The document does not show the service's
   * key format; this default is provisional. Reuse the same key to simulate a retry of one event.
   */
  idempotencyKey?: string;
}

/**
 * The lowercase hex HMAC-SHA256 of `<timestamp>.<raw_body>`, keyed with the endpoint secret exactly as given
 * (the whole `whsec_...` string, UTF-8). This is the `v1=` value.
 */
export async function computeSignature(secret: string, timestamp: number | string, body: RawBody): Promise<string> {
  const t = String(timestamp);
  if (!/^[0-9]{1,15}$/.test(t)) throw new RangeError(`timestamp must be whole Unix seconds, got ${t}`);
  if (typeof secret !== 'string' || secret === '') throw new TypeError('secret must be a non-empty string');
  const payload = rawPayload(body);
  const sign = syncSigner();
  return sign ? sign(secret, t, payload) : hmacSha256Hex(secret, signedContent(t, bodyBytes(payload)));
}

/**
 * Signs a raw body the way the service does and returns the exact delivery headers. For tests, local tools
 * and the trigger CLI: send `body` byte for byte with these headers and `Content-Type: application/json`.
 */
export async function signWebhook(body: RawBody, secret: string, options: SignOptions = {}): Promise<WebhookDeliveryHeaders> {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = await computeSignature(secret, timestamp, body);
  return {
    [WEBHOOK_HEADERS.signature]: `t=${timestamp},v1=${signature}`,
    [WEBHOOK_HEADERS.timestamp]: timestamp,
    [WEBHOOK_HEADERS.idempotencyKey]: options.idempotencyKey ?? newIdempotencyKey(),
  };
}

/** Serialises an event with `JSON.stringify` and signs it: the body to send and its headers. */
export async function signEvent(
  event: object,
  secret: string,
  options: SignOptions = {},
): Promise<{ body: string; headers: WebhookDeliveryHeaders }> {
  const body = JSON.stringify(event);
  return { body, headers: await signWebhook(body, secret, options) };
}

function newIdempotencyKey(): string {
  return `idem_${globalThis.crypto.randomUUID().replaceAll('-', '')}`;
}
