// Sends example events to a webhook receiver, signed exactly as the service signs (the toolkit's signEvent:
// X-Service-Signature, X-Service-Timestamp, X-Service-Idempotency-Key). Prism ignores `webhooks`; this is
// how a partner exercises a receiver locally.
import type { Json } from '../contract/json.js';
import { signEvent } from '../webhooks/sign.js';

export interface Delivery {
  type: string;
  /** HTTP status of the receiver's answer, or undefined when no answer came (network error, time-out). */
  status?: number;
  statusText?: string;
  ms: number;
  ok: boolean;
  error?: string;
  /** The first 200 characters of the receiver's answer, when it was not 2xx. */
  answer?: string;
}

/** Parses and checks a receiver URL: http or https only. */
export function receiverUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--url ${JSON.stringify(value)} is not a URL; expected http://host[:port]/path or https://...`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`--url must be an http:// or https:// URL, got ${url.protocol}//`);
  }
  return url;
}

/** POSTs one signed event to `url` and reports the answer. Never throws for the receiver's failures. */
export async function deliver(url: URL, type: string, event: Json, secret: string, timeoutMs = 10_000): Promise<Delivery> {
  const { body, headers } = await signEvent(event as object, secret);
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', 'User-Agent': 'partner-api-trigger' },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    const ms = Math.round(performance.now() - started);
    return {
      type,
      status: response.status,
      statusText: response.statusText,
      ms,
      ok: response.ok,
      ...(response.ok ? {} : { answer: text.slice(0, 200) }),
    };
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${timeoutMs / 1000} s (the service times out after 10 s and retries)`
        : (cause?.code ?? cause?.message ?? (error as Error).message);
    return { type, ms, ok: false, error: reason };
  }
}

/** Connection errors that mean nothing listens at the URL: the same for every event, so said once. */
const UNREACHABLE = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'bad port'];

/** The reason a delivery got no answer because the receiver cannot be reached at all, or undefined. */
export function unreachable(d: Delivery): string | undefined {
  return d.status === undefined && UNREACHABLE.includes(d.error ?? '') ? d.error : undefined;
}

/** Text from elsewhere (a receiver's answer, a system error) on one line: runs of whitespace become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * One line for a delivery, whatever the receiver answered: "card.frozen  200 OK  12 ms", or for a failure
 * "card.frozen  500 Internal Server Error  12 ms  (not acknowledged: the service would retry) answered: "..."".
 */
export function formatDelivery(d: Delivery, width = 0): string {
  const name = d.type.padEnd(width);
  if (d.status === undefined) return `${name}  FAILED  ${d.ms} ms  ${oneLine(d.error ?? '')}`.trimEnd();
  const status = `${d.status} ${oneLine(d.statusText ?? '')}`.trimEnd();
  const line = `${name}  ${status}  ${d.ms} ms`;
  if (d.ok) return line;
  const answer = oneLine(d.answer ?? '');
  return `${line}  (not acknowledged: the service would retry)${answer ? ` answered: ${JSON.stringify(answer)}` : ''}`;
}
