/** The names of the three delivery headers, as the service sends them. */
export const WEBHOOK_HEADERS = {
  signature: 'X-Service-Signature',
  timestamp: 'X-Service-Timestamp',
  idempotencyKey: 'X-Service-Idempotency-Key',
} as const;

/**
 * Request headers as frameworks hand them over: a Fetch `Headers` object (Web-standard runtimes, Next.js,
 * Hono), or a plain record with any key casing (Node's `req.headers`, Express, Fastify, Koa).
 */
export type HeadersLike = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * One header's value, looked up case-insensitively. Repeated values (an array in a record) are joined with
 * `,` as HTTP does. Returns `undefined` when the header is absent.
 */
export function getHeader(headers: HeadersLike, name: string): string | undefined {
  if (typeof headers.get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const wanted = name.toLowerCase();
  let value = record[name] ?? record[wanted];
  if (value === undefined) {
    for (const key of Object.keys(record)) {
      if (key.toLowerCase() === wanted) {
        value = record[key];
        break;
      }
    }
  }
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join(',');
}
