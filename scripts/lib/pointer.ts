// JSON Pointer helpers (RFC 6901) for reading bundled documents.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const escape = (segment: string | number): string =>
  String(segment).replaceAll('~', '~0').replaceAll('/', '~1');

export const pointer = (...segments: (string | number)[]): string => segments.map((s) => `/${escape(s)}`).join('');

/** Reads the node at a JSON Pointer (`/paths/~1cards/get`), or undefined. */
export function get(doc: unknown, ptr: string): Json | undefined {
  if (ptr === '' || ptr === '#') return doc as Json;
  let node: unknown = doc;
  for (const raw of ptr.replace(/^#/, '').split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = node[key];
    else return undefined;
  }
  return node as Json | undefined;
}

/** Follows internal `$ref`s (`#/components/...`) until a node without `$ref`. */
export function deref(doc: unknown, node: Json | undefined): Json | undefined {
  const seen = new Set<string>();
  let current = node;
  while (isObject(current) && typeof current['$ref'] === 'string' && current['$ref'].startsWith('#')) {
    const ref = current['$ref'];
    if (seen.has(ref)) break;
    seen.add(ref);
    current = get(doc, ref.slice(1));
  }
  return current;
}
