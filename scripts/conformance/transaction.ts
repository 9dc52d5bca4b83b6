// Small helpers over a Dredd transaction: its URI (path, query, path parameters), headers and body, a copy
// of it, where it is sent, and skipping it with a reason.
import type { Json } from '../lib/pointer.ts';
import type { DreddTransaction } from './types.ts';

/** A request URI split into its path and query. */
export function splitUri(uri: string): { pathname: string; query: URLSearchParams } {
  const i = uri.indexOf('?');
  return i < 0
    ? { pathname: uri, query: new URLSearchParams() }
    : { pathname: uri.slice(0, i), query: new URLSearchParams(uri.slice(i + 1)) };
}

/** Sets the transaction's path and query (Dredd sends `fullPath`, the report reads `uri`). */
export function setUri(t: DreddTransaction, pathname: string, query: URLSearchParams): void {
  const prefix = t.fullPath.slice(0, t.fullPath.length - t.request.uri.length);
  const q = query.toString();
  t.request.uri = q ? `${pathname}?${q}` : pathname;
  t.fullPath = prefix + t.request.uri;
}

/** Path parameters of a concrete path, by name, given its template. */
export function pathParams(template: string, pathname: string): Map<string, string> {
  const names = template.split('/');
  const values = pathname.split('/');
  const out = new Map<string, string>();
  names.forEach((seg, i) => {
    const m = /^\{(.+)\}$/.exec(seg);
    if (m) out.set(m[1]!, decodeURIComponent(values[i] ?? ''));
  });
  return out;
}

/** A path template with its parameters put in (`/cards/{code}` -> `/cards/7c9e…`). */
export function fillTemplate(template: string, params: Map<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params.get(name) ?? ''));
}

/** Sets (or with `undefined` removes) a request header, whatever its case. */
export function setHeader(t: DreddTransaction, name: string, value: string | undefined): void {
  for (const key of Object.keys(t.request.headers)) if (key.toLowerCase() === name.toLowerCase()) delete t.request.headers[key];
  if (value !== undefined) t.request.headers[name] = value;
}

/** A JSON body, or undefined when there is none or it is not JSON. */
export function parseBody(body: string): Json | undefined {
  if (!body) return undefined;
  try {
    return JSON.parse(body) as Json;
  } catch {
    return undefined;
  }
}

/** A copy of a transaction under another name (one per example, or per error code). */
export function clone(t: DreddTransaction, suffix: string): DreddTransaction {
  const copy = structuredClone({ ...t, conformance: undefined }) as DreddTransaction;
  copy.name = `${t.name} > ${suffix}`;
  copy.id = `${t.id} ${suffix}`;
  return copy;
}

/** Sets one path parameter of a transaction's request. */
export function setPathParam(t: DreddTransaction, path: string, name: string, value: string): void {
  const { pathname, query } = splitUri(t.request.uri);
  const params = pathParams(path, pathname);
  params.set(name, value);
  setUri(t, fillTemplate(path, params), query);
}

/** Sends a transaction to the gift card base address ({alt_base_url}) instead of --server. */
export function sendToAltServer(t: DreddTransaction, altServer: string): void {
  const url = new URL(altServer);
  const prefix = url.pathname.replace(/\/$/, '');
  t.protocol = url.protocol;
  t.host = url.hostname;
  t.port = url.port || (url.protocol === 'https:' ? '443' : '80');
  t.fullPath = prefix + t.request.uri;
}

/** Marks a transaction skipped, with the reason the report gives. */
export function skip(t: DreddTransaction, reason: string): void {
  t.skip = true;
  t.conformance!.skipReason = reason;
}
