// The one reader of a bundled OpenAPI document (generated/openapi.json, generated/sandbox.json): JSON Pointer
// access (RFC 6901), `$ref`s followed, every operation with its method and path, and the HTTP status of each
// error code, the named examples of a media type and each webhook's example event. The sandbox and the trigger
// (shipped in the package), the conformance suite, the docs scripts and the tests read documents through it.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The operation keys of an OpenAPI path item, in the order OpenAPI 3.1 lists them. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Escapes one reference token of a JSON Pointer (RFC 6901): `~` as `~0`, `/` as `~1`. */
export const escapeToken = (segment: string | number): string => String(segment).replaceAll('~', '~0').replaceAll('/', '~1');

export const pointer = (...segments: (string | number)[]): string => segments.map((s) => `/${escapeToken(s)}`).join('');

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

export interface OperationEntry {
  /** The path template: `/cards/{code}/withdraw`. */
  path: string;
  method: HttpMethod;
  /** The path item (its shared `parameters`, `servers`). */
  item: JsonObject;
  operation: JsonObject;
}

/** Every operation of a document's `paths` (or `webhooks`), in document order. */
export function operationEntries(doc: JsonObject, section: 'paths' | 'webhooks' = 'paths'): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, node] of Object.entries(isObject(doc[section]) ? doc[section] : {})) {
    const item = deref(doc, node);
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (isObject(operation)) entries.push({ path, method, item, operation });
    }
  }
  return entries;
}

/** The error codes a response schema carries: the `error.code` const of each branch (`oneOf`, `allOf`, `$ref`). */
function errorCodesOf(doc: JsonObject, node: Json | undefined, depth = 0): string[] {
  const schema = deref(doc, node);
  if (!isObject(schema) || depth > 10) return [];
  const code = get(schema, '/properties/error/properties/code/const');
  const branches = [...(Array.isArray(schema.oneOf) ? schema.oneOf : []), ...(Array.isArray(schema.allOf) ? schema.allOf : [])];
  return [...(typeof code === 'string' ? [code] : []), ...branches.flatMap((b) => errorCodesOf(doc, b, depth + 1))];
}

/** The error codes one response of an operation documents (`INSUFFICIENT_BALANCE`, ...). */
export function responseErrorCodes(doc: JsonObject, response: Json | undefined): string[] {
  return errorCodesOf(doc, get(deref(doc, response), '/content/application~1json/schema'));
}

/**
 * The HTTP status of each error code, as the operations of a document answer it (`INSUFFICIENT_BALANCE` -> 400).
 * Throws when the document gives a code two statuses.
 */
export function errorStatuses(doc: JsonObject): Map<string, number> {
  const statuses = new Map<string, number>();
  for (const { path, method, operation } of operationEntries(doc)) {
    for (const [status, response] of Object.entries(isObject(operation.responses) ? operation.responses : {})) {
      if (!/^[45][0-9]{2}$/.test(status)) continue;
      for (const code of responseErrorCodes(doc, response)) {
        const known = statuses.get(code);
        if (known !== undefined && known !== Number(status))
          throw new Error(`the contract answers ${code} with ${known} and ${status} (${method.toUpperCase()} ${path})`);
        statuses.set(code, Number(status));
      }
    }
  }
  return statuses;
}

/** The error code a document answers with this status, when exactly one is (500 -> INTERNAL_ERROR). */
export function codeOfStatus(statuses: Map<string, number>, status: number): string {
  const codes = [...statuses].filter(([, s]) => s === status).map(([code]) => code);
  if (codes.length !== 1) throw new Error(`the contract answers ${status} with ${codes.length === 0 ? 'no error code' : codes.join(', ')}`);
  return codes[0]!;
}

export interface NamedExample {
  name: string;
  value: Json;
}

/** Named examples of a media type object: `examples` (each maybe a $ref) or a lone `example`. */
export function mediaExamples(doc: JsonObject, media: Json | undefined): NamedExample[] {
  if (!isObject(media)) return [];
  if (isObject(media.examples)) {
    return Object.entries(media.examples).map(([name, ex]) => {
      const resolved = deref(doc, ex);
      return { name, value: isObject(resolved) && 'value' in resolved ? (resolved.value ?? null) : null };
    });
  }
  return media.example !== undefined ? [{ name: 'default', value: media.example }] : [];
}

/** Each webhook's event type and example event (the event schema's `examples[0]`, or the body's example). */
export function exampleEvents(doc: JsonObject): { type: string; event: Json }[] {
  const events: { type: string; event: Json }[] = [];
  for (const [type, itemNode] of Object.entries(isObject(doc.webhooks) ? doc.webhooks : {})) {
    const item = deref(doc, itemNode);
    const op = isObject(item) ? item.post : undefined;
    const body = isObject(op) ? deref(doc, op.requestBody) : undefined;
    const media = isObject(body) && isObject(body.content) ? body.content['application/json'] : undefined;
    const fromMedia = mediaExamples(doc, media)[0]?.value;
    const schema = isObject(media) ? deref(doc, media.schema) : undefined;
    const fromSchema = isObject(schema) && Array.isArray(schema.examples) ? schema.examples[0] : undefined;
    const event = fromMedia ?? fromSchema;
    if (event !== undefined) events.push({ type, event });
    else events.push({ type, event: null });
  }
  return events;
}

/**
 * The ping sent to a webhook endpoint's url (`x-ping` of `createWebhookEndpoint`, a pointer to its schema in the
 * bundle): the schema and its event `type`, the `const` of one of its `allOf` branches.
 */
export function webhookPing(doc: JsonObject): { schema: JsonObject; type: string } {
  const create = operationEntries(doc).find((e) => e.operation['operationId'] === 'createWebhookEndpoint');
  const where = create?.operation['x-ping'];
  if (typeof where !== 'string' || !where.startsWith('#/')) throw new Error('the contract names no x-ping on createWebhookEndpoint');
  const schema = get(doc, where.slice(1));
  if (!isObject(schema)) throw new Error(`the contract's x-ping ${where} names no schema`);
  const branches = (Array.isArray(schema['allOf']) ? schema['allOf'] : []).map((b) => deref(doc, b));
  const type = branches
    .map((b) =>
      isObject(b) && isObject(b['properties']) && isObject(b['properties']['type']) ? b['properties']['type']['const'] : undefined,
    )
    .find((c): c is string => typeof c === 'string');
  if (type === undefined) throw new Error(`the contract's ping schema ${where} gives no type const`);
  return { schema, type };
}

/** A refusal the contract's `x-refusals` names: its status and code (and the `details.reason` it carries, if any). */
export interface RefusalAnswer {
  status: number;
  code: string;
  reason?: string;
}

/** The contract's refusals (`x-refusals` at the root): the checks in the order they are made, and the wrong-method answer. */
export interface Refusals {
  order: { check: string; answers: RefusalAnswer[] }[];
  wrongMethod: RefusalAnswer & { allowHeader: boolean; details: string[] };
}

export function refusalsOf(doc: JsonObject): Refusals {
  const root = doc['x-refusals'];
  if (!isObject(root) || !Array.isArray(root['order']) || !isObject(root['wrong_method']))
    throw new Error('the contract has no x-refusals with an order and a wrong_method');
  const wrong = root['wrong_method'];
  if (typeof wrong['status'] !== 'number' || typeof wrong['code'] !== 'string')
    throw new Error("the contract's x-refusals.wrong_method has no status and code");
  return {
    order: root['order'] as unknown as Refusals['order'],
    wrongMethod: {
      status: wrong['status'],
      code: wrong['code'],
      allowHeader: wrong['allow_header'] === true,
      details: Array.isArray(wrong['details']) ? (wrong['details'] as string[]) : [],
    },
  };
}

/**
 * The methods the contract gives the path a request names (without its base path: `/cards/123`), or undefined when
 * no path template matches; a literal segment wins over a parameter (`/payouts/beneficiaries` is not `/payouts/{code}`).
 */
export function pathMethods(doc: JsonObject): (path: string) => string[] | undefined {
  const byTemplate = new Map<string, string[]>();
  for (const e of operationEntries(doc)) byTemplate.set(e.path, [...(byTemplate.get(e.path) ?? []), e.method.toUpperCase()]);
  const params = (template: string) => template.split('{').length;
  const matchers = [...byTemplate]
    .sort(([a], [b]) => params(a) - params(b))
    .map(([template, methods]) => ({
      re: new RegExp(
        `^${template
          .split(/\{[^}]+\}/)
          .map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}/?$`,
      ),
      methods,
    }));
  return (path) => matchers.find((m) => m.re.test(path))?.methods;
}
