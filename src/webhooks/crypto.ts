// Internal helpers shared by verify and sign. No `node:` import, so the module runs unchanged on Node (>= 20),
// Deno, Bun, Cloudflare Workers, Vercel Edge and browsers. Where the runtime offers node:crypto (through
// `process.getBuiltinModule`: Node >= 20.16, Bun, Deno) the HMAC is computed with it, synchronously; elsewhere
// with Web Crypto (`crypto.subtle`, async).

import { WebhookVerificationError } from './errors.js';

/** A raw request body: exactly the bytes received (or that string). `Buffer` is a `Uint8Array`. */
export type RawBody = string | Uint8Array | ArrayBuffer | ArrayBufferView;

const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The body as given when it is a string (hashed and parsed as is), else its bytes; see `bodyBytes`. */
export function rawPayload(body: unknown): string | Uint8Array {
  return typeof body === 'string' ? body : bodyBytes(body);
}

/** The body as bytes, without copying; throws `body_not_raw` for anything but a string or bytes. */
export function bodyBytes(body: unknown): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (Object.prototype.toString.call(body) === '[object ArrayBuffer]') return new Uint8Array(body as ArrayBuffer);
  throw new WebhookVerificationError('body_not_raw', bodyNotRawMessage(body));
}

function bodyNotRawMessage(body: unknown): string {
  const got = body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body === 'object' ? 'an object' : typeof body;
  return (
    `The webhook body must be the raw request body (a string, Buffer, Uint8Array or ArrayBuffer) exactly as ` +
    `received, but got ${got}. ` +
    (typeof body === 'object' && body !== null
      ? 'A JSON body parser (express.json(), bodyParser.json(), a framework default) or JSON.parse ran before ' +
        'verification; re-serialising the parsed object does not reproduce the signed bytes. '
      : 'Was the body read at all? ') +
    "Read the body as bytes or text for this route (for example express.raw({ type: 'application/json' })) and parse it after verifying."
  );
}

/** The signed content: the bytes of `<timestamp>.` followed by the raw body bytes, unchanged. */
export function signedContent(timestamp: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${timestamp}.`);
  const out = new Uint8Array(prefix.length + body.length);
  out.set(prefix, 0);
  out.set(body, prefix.length);
  return out;
}

// Imported HMAC keys by secret. Importing costs about as much as signing a 1 KB body, and a receiver uses one
// or two secrets, so a small cache (cleared when it outgrows MAX_KEYS) makes verification about twice as fast.
const MAX_KEYS = 16;
// Spelled this way so that it type-checks with the DOM lib and with @types/node alone.
type HmacKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;
const keys = new Map<string, Promise<HmacKey>>();

function hmacKey(secret: string): Promise<HmacKey> {
  let key = keys.get(secret);
  if (key === undefined) {
    if (keys.size >= MAX_KEYS) keys.clear();
    key = globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    key.catch(() => keys.delete(secret));
    keys.set(secret, key);
  }
  return key;
}

/** Lowercase hex HMAC-SHA256 of `data`, keyed with the UTF-8 bytes of `secret` as given (whsec_ prefix included). */
export async function hmacSha256Hex(secret: string, data: Uint8Array<ArrayBuffer>): Promise<string> {
  const key = await hmacKey(secret);
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, data));
  let hex = '';
  for (const byte of mac) hex += HEX[byte];
  return hex;
}

/**
 * Compares two strings in time that depends only on their length (which is public: 64 hex characters),
 * never on where they first differ.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

// --- node:crypto, when the runtime has it -------------------------------------------------------------

interface NodeHmac {
  update(data: string | Uint8Array): NodeHmac;
  digest(encoding: 'hex'): string;
}
interface NodeCrypto {
  createHmac(algorithm: 'sha256', key: string): NodeHmac;
}

function loadNodeCrypto(): NodeCrypto | undefined {
  try {
    const runtime = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
    const crypto = runtime.process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
    return typeof crypto?.createHmac === 'function' ? crypto : undefined;
  } catch {
    return undefined;
  }
}

const nodeCrypto = loadNodeCrypto();
let webCryptoForced = false;

/** Computes the `v1=` signature of `<timestamp>.<body>` synchronously. */
export type SyncSigner = (secret: string, timestamp: string, body: string | Uint8Array) => string;

const nodeSigner: SyncSigner | undefined =
  nodeCrypto && ((secret, timestamp, body) => nodeCrypto.createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex'));

/** The node:crypto signer, or undefined on a runtime without node:crypto (then use `hmacSha256Hex`). */
export function syncSigner(): SyncSigner | undefined {
  return webCryptoForced ? undefined : nodeSigner;
}

/**
 * Tests and benchmarks only (not exported by the package): `true` makes this module behave as on a runtime
 * without node:crypto, so that the Web Crypto path runs on Node too; `false` restores the default.
 */
export function forceWebCrypto(on: boolean): void {
  webCryptoForced = on;
}
