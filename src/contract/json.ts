// JSON values and JSON Pointers (RFC 6901), the ground the contract model (./model.ts) stands on: reading the
// node at a pointer, and following a node's internal `$ref`s to the node and pointer they name. Only
// src/contract/ follows `$ref`s; every other module asks the model.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The operation keys of an OpenAPI path item, in the order OpenAPI 3.1 lists them. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Escapes one reference token of a JSON Pointer (RFC 6901): `~` as `~0`, `/` as `~1`. */
export const escapeToken = (segment: string | number): string => String(segment).replaceAll('~', '~0').replaceAll('/', '~1');

export const pointer = (...segments: (string | number)[]): string => segments.map((s) => `/${escapeToken(s)}`).join('');

/**
 * Reads the node at a JSON Pointer (`/paths/~1cards/get`, an Ajv instancePath), or undefined. A pointer in URI
 * fragment form (`#/paths/...`, a `$ref`'s) is percent-decoded first (RFC 6901, section 6); a plain one is not, so
 * a key holding `%` is read as it is.
 */
export function get(doc: unknown, ptr: string): Json | undefined {
  if (ptr === '' || ptr === '#') return doc as Json;
  const fragment = ptr.startsWith('#');
  let node: unknown = doc;
  for (const raw of (fragment ? ptr.slice(1) : ptr).split('/').slice(1)) {
    const decoded = fragment && raw.includes('%') ? decodeURIComponent(raw) : raw;
    const key = decoded.includes('~') ? decoded.replaceAll('~1', '/').replaceAll('~0', '~') : decoded;
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = node[key];
    else return undefined;
  }
  return node as Json | undefined;
}

/** A node of a document with the JSON Pointer it is found at. */
export interface Located<T = Json> {
  pointer: string;
  node: T;
}

/**
 * Follows internal `$ref`s (`#/components/...`) from a node found at `at` until a node without `$ref`: that node
 * and its pointer (`at` itself when the node has no `$ref`). A cycle stops at the last node reached.
 */
export function follow(doc: unknown, node: Json | undefined, at: string): Located<Json | undefined> {
  let seen: Set<string> | undefined;
  let current = node;
  let where = at;
  while (isObject(current) && typeof current['$ref'] === 'string' && current['$ref'].startsWith('#')) {
    const ref = current['$ref'];
    seen ??= new Set();
    if (seen.has(ref)) break;
    seen.add(ref);
    current = get(doc, ref);
    where = ref.slice(1);
  }
  return { pointer: where, node: current };
}
