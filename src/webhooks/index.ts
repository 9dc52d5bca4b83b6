// Receive and verify the service's signed webhooks; sign test deliveries; deduplicate retries.
// node:crypto where the runtime has it, Web Crypto elsewhere: runs on Node >= 20 and on Web-standard runtimes.
// See docs/webhooks.md.

export { WebhookVerificationError, isWebhookVerificationError, type WebhookVerificationErrorCode } from './errors.js';
export { WEBHOOK_HEADERS, getHeader, type HeadersLike } from './headers.js';
export type { RawBody } from './crypto.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  parseSignatureHeader,
  verifyWebhook,
  verifyWebhookRequest,
  verifyWebhookSync,
  type ParsedSignatureHeader,
  type VerifyOptions,
} from './verify.js';
export { computeSignature, signEvent, signWebhook, type SignOptions, type WebhookDeliveryHeaders } from './sign.js';
export {
  DEFAULT_DEDUP_TTL_SECONDS,
  MemoryDedupStore,
  createDeduplicator,
  type DedupResult,
  type DedupStore,
  type Deduplicator,
  type DeduplicatorOptions,
} from './dedup.js';
export type { WebhookEvent, WebhookEventMap, WebhookEventOf, WebhookEventType } from './event-types.js';
