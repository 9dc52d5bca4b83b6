// The suite's own requests (set-up, arrangements, checks), outside Dredd: one call with a key, the partner API
// at --server or --alt-server for the suite's key (the simulation API's calls are simulation.ts's), and the
// one-line curl command that replays a request (every failure of the report ends with one).
import type { Json } from '../lib/pointer.ts';
import type { ConformanceConfig } from './types.ts';

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** One request with a given key (any server). */
export async function call(url: string, key: string, method = 'GET', body?: unknown): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

export const join = (base: string, path: string) => base.replace(/\/$/, '') + path;
export const dataOf = (a: Answer): unknown => (a.body && typeof a.body === 'object' ? (a.body as { data?: unknown }).data : undefined);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Api {
  call(method: string, path: string, body?: unknown, server?: string): Promise<{ status: number; body: Json | undefined }>;
}

/** The partner API for the suite's key (or the one given), at --server (or the server given). */
export function api(config: ConformanceConfig, key = config.apiKey): Api {
  return {
    async call(method, path, body, server = config.server) {
      const answer = await call(join(server, path), key, method, body);
      // A body that is not JSON (or none) is `undefined` here.
      return { status: answer.status, body: typeof answer.body === 'string' ? undefined : (answer.body as Json | undefined) };
    },
  };
}

const quote = (s: string) => (/^[A-Za-z0-9_\-./:=@,+]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The one-line curl command that replays a request. */
export function curlOf(method: string, url: string, headers: Record<string, string>, body?: string): string {
  const parts = ['curl', '-sS', '-X', method, quote(url)];
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() !== 'accept') parts.push('-H', quote(`${name}: ${value}`));
  if (body !== undefined && body !== '') parts.push('--data-raw', quote(body));
  return parts.join(' ');
}

/** A response body for the report: its JSON on one line (or its text), cut at `max` characters. */
export function bodyText(body: unknown, max = 1000): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (text === undefined || text === '') return '(empty)';
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}
