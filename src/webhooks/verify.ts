import { contractFacts } from '../../generated/openapi-values.js';
import { bodyBytes, hmacSha256Hex, rawPayload, signedContent, syncSigner, timingSafeEqual, type RawBody } from './crypto.js';
import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './event-types.js';
import { getHeader, WEBHOOK_HEADERS, type HeadersLike } from './headers.js';

/** The timestamp tolerance of the contract (`x-plans` limit `webhook_timestamp_tolerance_seconds`): 300 seconds. */
export const DEFAULT_TOLERANCE_SECONDS = contractFacts.webhookTimestampToleranceSeconds;

export interface VerifyOptions {
  /**
   * Largest accepted distance, in seconds, between the signature's `t=` and the receiver's clock, in both
   * directions. Default 300 (the document's tolerance). A delivery exactly 300 s old is accepted; 301 s is
   * rejected (`timestamp_too_old`), and so is one stamped more than 300 s ahead (`timestamp_too_new`).
   */
  tolerance?: number;
  /** The receiver's clock: current Unix time in seconds. Default `() => Math.floor(Date.now() / 1000)`. */
  now?: () => number;
}

/** A parsed `X-Service-Signature` header. */
export interface ParsedSignatureHeader {
  /** The `t=` value, verbatim (it is part of the signed string). */
  timestamp: string;
  /** Every non-empty `v1=` value, in order. */
  signatures: string[];
}

/**
 * Splits `t=<timestamp>,v1=<hex>[,v1=<hex>...]` on commas. Unknown schemes (`v0=`, `v2=`) are ignored, so
 * that a future scheme does not break receivers. Throws `malformed_signature` or `no_v1_signature`.
 */
export function parseSignatureHeader(header: string): ParsedSignatureHeader {
  let timestamp: string | undefined;
  const signatures: string[] = [];
  const schemes = new Set<string>();
  for (const rawPart of header.split(',')) {
    const part = rawPart.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) {
      throw new WebhookVerificationError(
        'malformed_signature',
        `${WEBHOOK_HEADERS.signature} is malformed: "${truncate(part)}" is not a key=value pair. ` +
          'Expected t=<timestamp>,v1=<hex_signature>.',
      );
    }
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    schemes.add(key);
    if (key === 't') {
      if (timestamp !== undefined) {
        throw new WebhookVerificationError(
          'malformed_signature',
          `${WEBHOOK_HEADERS.signature} is malformed: it carries more than one t= value.`,
        );
      }
      timestamp = value;
    } else if (key === 'v1' && value !== '') {
      signatures.push(value);
    }
  }
  if (timestamp === undefined) {
    throw new WebhookVerificationError(
      'malformed_signature',
      `${WEBHOOK_HEADERS.signature} is malformed: it has no t=<timestamp> part. Expected t=<timestamp>,v1=<hex_signature>.`,
    );
  }
  if (!/^[0-9]{1,15}$/.test(timestamp)) {
    throw new WebhookVerificationError(
      'malformed_signature',
      `${WEBHOOK_HEADERS.signature} is malformed: t="${truncate(timestamp)}" is not a timestamp in whole seconds.`,
    );
  }
  if (signatures.length === 0) {
    const others = [...schemes].filter((s) => s !== 't');
    throw new WebhookVerificationError(
      'no_v1_signature',
      `${WEBHOOK_HEADERS.signature} has no v1= signature` +
        (others.length > 0 ? ` (found only: ${others.map((s) => `${s}=`).join(', ')})` : '') +
        '. Expected t=<timestamp>,v1=<hex_signature>.',
    );
  }
  return { timestamp, signatures };
}

/**
 * Verifies one webhook delivery and returns its event, parsed from the body.
 *
 * Follows the document's rules: the signed string is `<t>.<raw_body>`; the expected signature is the
 * lowercase hex HMAC-SHA256 of it, keyed with the endpoint secret exactly as given (the whole `whsec_...`
 * string, UTF-8); every `v1=` value of the header is compared in constant time against every secret; the
 * timestamp must lie within ±`tolerance` seconds of `now`. When `X-Service-Timestamp` is present it must equal
 * `t=` (it is not required: `t=` is the signed value).
 *
 * It returns a promise so that one call works on every runtime: where node:crypto exists (Node, Bun, Deno)
 * the work is done synchronously with it and the promise is already settled; elsewhere (Workers, browsers)
 * it uses Web Crypto, which is async. On Node, `verifyWebhookSync` gives the same result without a promise.
 *
 * @param body The raw request body, exactly as received: a string, Buffer, Uint8Array or ArrayBuffer. Never
 *   a parsed object (throws `body_not_raw`).
 * @param headers The request headers (`Headers`, or a record with any casing).
 * @param secret The endpoint secret (`whsec_...`), or several: the delivery is accepted when any one matches.
 * @param options `tolerance` (seconds, default 300) and `now` (Unix seconds).
 * @typeParam E The event type returned. Default: the union of every documented event, keyed by `type`.
 *   The body is parsed, not validated against the schema: validate it yourself if you need that guarantee.
 * @throws WebhookVerificationError with a `code` naming the cause (as a rejection).
 */
export function verifyWebhook<E = WebhookEvent>(
  body: RawBody,
  headers: HeadersLike,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<E> {
  if (syncSigner() === undefined) return verifyWithWebCrypto<E>(body, headers, secret, options);
  try {
    return Promise.resolve(verifyWebhookSync<E>(body, headers, secret, options));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * `verifyWebhook` without a promise, for runtimes with node:crypto (Node >= 20.16, Bun, Deno): returns the
 * event or throws `WebhookVerificationError`. On a runtime without node:crypto it throws an `Error` that says
 * to use `await verifyWebhook(...)`.
 */
export function verifyWebhookSync<E = WebhookEvent>(
  body: RawBody,
  headers: HeadersLike,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): E {
  const sign = syncSigner();
  if (sign === undefined) {
    throw new Error('verifyWebhookSync needs node:crypto, which this runtime does not have: use `await verifyWebhook(...)`.');
  }
  const delivery = readDelivery(body, headers, secret, options);
  const matched = delivery.secrets.some((key) => matchesAny(delivery.signatures, sign(key, delivery.timestamp, delivery.payload)));
  return acceptDelivery<E>(delivery, matched, options);
}

async function verifyWithWebCrypto<E>(
  body: RawBody,
  headers: HeadersLike,
  secret: string | readonly string[],
  options: VerifyOptions,
): Promise<E> {
  const delivery = readDelivery(body, headers, secret, options);
  const content = signedContent(delivery.timestamp, bodyBytes(delivery.payload));
  let matched = false;
  for (const key of delivery.secrets) {
    if (matchesAny(delivery.signatures, await hmacSha256Hex(key, content))) {
      matched = true;
      break;
    }
  }
  return acceptDelivery<E>(delivery, matched, options);
}

/** What a delivery carries once its inputs are checked and its signature header parsed. */
interface Delivery extends ParsedSignatureHeader {
  body: RawBody;
  /** The body as it is hashed and parsed: the string given, or the bytes. */
  payload: string | Uint8Array;
  secrets: readonly string[];
  tolerance: number;
}

/** Checks the inputs and headers, in the order the errors are reported; no cryptography. */
function readDelivery(body: RawBody, headers: HeadersLike, secret: string | readonly string[], options: VerifyOptions): Delivery {
  const secrets = normaliseSecrets(secret);
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
  if (!(tolerance >= 0)) throw new RangeError(`tolerance must be a number of seconds >= 0, got ${String(tolerance)}`);
  const payload = rawPayload(body);

  const header = getHeader(headers, WEBHOOK_HEADERS.signature);
  if (header === undefined || header.trim() === '') {
    throw new WebhookVerificationError(
      'missing_signature',
      `The ${WEBHOOK_HEADERS.signature} header is missing. Every delivery from the service carries it; ` +
        'check that a proxy does not strip it and that this request comes from the service.',
    );
  }
  const { timestamp, signatures } = parseSignatureHeader(header);

  const timestampHeader = getHeader(headers, WEBHOOK_HEADERS.timestamp);
  if (timestampHeader !== undefined && timestampHeader.trim() !== timestamp) {
    throw new WebhookVerificationError(
      'timestamp_header_mismatch',
      `${WEBHOOK_HEADERS.timestamp} ("${truncate(timestampHeader)}") differs from t=${timestamp} in ` +
        `${WEBHOOK_HEADERS.signature}; the two are always equal in a genuine delivery.`,
    );
  }
  return { body, payload, secrets, tolerance, timestamp, signatures };
}

function matchesAny(signatures: readonly string[], expected: string): boolean {
  return signatures.some((candidate) => timingSafeEqual(candidate, expected));
}

/** Refuses a mismatch or a timestamp out of tolerance, else parses the event. */
function acceptDelivery<E>(delivery: Delivery, matched: boolean, options: VerifyOptions): E {
  const { timestamp, tolerance } = delivery;
  if (!matched) throw new WebhookVerificationError('signature_mismatch', mismatchMessage(delivery.secrets, delivery.body));

  const now = options.now ? options.now() : Math.floor(Date.now() / 1000);
  const age = now - Number(timestamp);
  if (age > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `The signature timestamp t=${timestamp} is ${age} s old, beyond the ${tolerance} s tolerance. ` +
        'This is a replay of an old delivery, or the receiver clock is wrong (check NTP).',
    );
  }
  if (-age > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_too_new',
      `The signature timestamp t=${timestamp} is ${-age} s in the future, beyond the ${tolerance} s tolerance. ` +
        'The receiver clock is probably behind (check NTP).',
    );
  }

  return parseEvent<E>(delivery.payload);
}

/**
 * Reads and verifies a Fetch API `Request` (Web-standard runtimes: Deno, Bun, Cloudflare Workers, Next.js
 * route handlers, Hono). Consumes the body.
 */
export async function verifyWebhookRequest<E = WebhookEvent>(
  request: { arrayBuffer(): Promise<ArrayBuffer>; headers: HeadersLike },
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<E> {
  return verifyWebhook<E>(await request.arrayBuffer(), request.headers, secret, options);
}

function normaliseSecrets(secret: string | readonly string[]): readonly string[] {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (!Array.isArray(secrets) || secrets.length === 0 || !secrets.every((s) => typeof s === 'string' && s !== '')) {
    throw new WebhookVerificationError(
      'invalid_secret',
      'No endpoint secret was given (expected a non-empty whsec_... string or a non-empty list of them). ' +
        'Is the environment variable that holds it set?',
    );
  }
  return secrets;
}

function mismatchMessage(secrets: readonly string[], body: unknown): string {
  const hints = [
    'the wrong endpoint secret (each endpoint has its own; a rotated secret invalidates the old one at once)',
    typeof body === 'string'
      ? 'a body that is not the raw body (re-serialised with JSON.stringify, re-encoded, or trimmed)'
      : 'a body that is not the raw body (re-serialised, re-encoded, or trimmed)',
  ];
  if (secrets.some((s) => s !== s.trim())) {
    hints.unshift('whitespace around the secret: one of the given secrets starts or ends with whitespace (a newline from an env file?)');
  } else {
    hints.push('whitespace or quotes copied into the secret');
  }
  if (secrets.some((s) => !s.trim().startsWith('whsec_'))) {
    hints.push('a value that is not an endpoint secret (it starts with whsec_; an API key sk_... will not do)');
  }
  return `No v1= signature in ${WEBHOOK_HEADERS.signature} matches the body and timestamp. Likely causes: ${hints.join('; ')}.`;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function parseEvent<E>(payload: string | Uint8Array): E {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof payload === 'string' ? payload : decoder.decode(payload));
  } catch (cause) {
    throw new WebhookVerificationError(
      'invalid_json',
      `The signature is valid but the body is not UTF-8 JSON: ${(cause as Error).message}`,
      { cause },
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new WebhookVerificationError(
      'invalid_json',
      `The signature is valid but the body is JSON ${parsed === null ? 'null' : Array.isArray(parsed) ? 'array' : typeof parsed}, not an event object.`,
    );
  }
  return parsed as E;
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}
