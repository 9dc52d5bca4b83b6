// Normalise a dereferenced contract into a flat model the comparer walks: operations keyed by
// "METHOD /path", events keyed by event name (from OpenAPI `webhooks` and the AsyncAPI messages), plus
// servers, security and schemes. Schemas are simplified: `allOf` is merged into one schema.
import { contractModel } from '../../src/contract/model.ts';

// biome-ignore lint/suspicious/noExplicitAny: a node of a document as $RefParser dereferenced it, untyped; the code checks each field it reads.
export type Schema = Record<string, any>;

export interface Parameter {
  name: string;
  in: string;
  required: boolean;
  deprecated: boolean;
  description?: string;
  schema: Schema;
}

export interface Operation {
  key: string; // "POST /cards/{code}/withdraw"
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  /** Alternatives, each "schemeA+schemeB" (AND); "(none)" is anonymous access. */
  security: string[];
  servers: string[] | null;
  parameters: Map<string, Parameter>; // "query:limit"
  requestBody: { required: boolean; description?: string; content: Map<string, Schema> } | null;
  responses: Map<string, { description?: string; content: Map<string, Schema>; headers: Map<string, Parameter> }>;
}

export interface EventDef {
  name: string; // "card.frozen"
  source: 'webhooks' | 'asyncapi';
  description?: string;
  deprecated: boolean;
  payload: Schema;
  headers: Map<string, Parameter>;
}

export interface Model {
  version: string;
  asyncapiVersion: string | null;
  hasAsyncapi: boolean;
  servers: Map<string, Record<string, string>>; // url -> variable defaults
  securitySchemes: Map<string, Schema>;
  operations: Map<string, Operation>;
  events: Map<string, EventDef>; // "webhooks card.frozen", "asyncapi card.frozen"
}

const NUM_MAX = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
const NUM_MIN = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties'];

const isObj = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const typesOf = (s: Schema): string[] | null => (s.type === undefined ? null : [s.type].flat());

/** Merges two already-normalised schemas as `allOf` would: the result accepts what both accept. */
function mergeTwo(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (k === 'type') {
      const ta = typesOf(a) ?? [],
        tb: string[] = [v].flat();
      const meet = (t: string) =>
        tb.includes(t) ? [t] : (t === 'number' && tb.includes('integer')) || (t === 'integer' && tb.includes('number')) ? ['integer'] : [];
      const both = [...new Set(ta.flatMap(meet))];
      out.type = both.length === 1 ? both[0] : both;
    } else if (k === 'enum') out.enum = prev.filter((x: unknown) => v.some((y: unknown) => JSON.stringify(x) === JSON.stringify(y)));
    else if (k === 'required') out.required = [...new Set([...prev, ...v])];
    else if (SUBSCHEMA_MAPS.includes(k)) {
      const m: Schema = { ...prev };
      for (const [p, s] of Object.entries(v as Schema)) m[p] = m[p] === undefined ? s : mergeTwo(m[p], s);
      out[k] = m;
    } else if (k === 'items' && isObj(prev) && isObj(v)) out.items = mergeTwo(prev, v);
    else if (k === 'additionalProperties' || k === 'unevaluatedProperties')
      out[k] = prev === false || v === false ? false : isObj(prev) && isObj(v) ? mergeTwo(prev, v) : v;
    else if (NUM_MAX.includes(k)) out[k] = Math.min(prev, v);
    else if (NUM_MIN.includes(k)) out[k] = Math.max(prev, v);
    else if (k === 'description' || k === 'title' || k === 'examples' || k === 'example')
      out[k] = prev; // the outer one wins
    else out[k] = v;
  }
  // A const narrows an enum to itself.
  if (out.const !== undefined && out.enum) delete out.enum;
  return out;
}

/**
 * Returns a simplified copy of a dereferenced schema: `allOf` merged into its parent,
 * `unevaluatedProperties: false` read as `additionalProperties: false`, `$ref`-free and acyclic.
 */
export function normaliseSchema(schema: unknown, seen = new Map<object, Schema>()): Schema {
  if (schema === true || schema === undefined) return {};
  if (schema === false) return { not: {} };
  if (!isObj(schema)) return {};
  const cached = seen.get(schema);
  if (cached) return cached;
  const out: Schema = {};
  seen.set(schema, out); // a cycle reads the partial result
  const { allOf, ...own } = schema;
  let merged: Schema = {};
  for (const [k, v] of Object.entries(own)) {
    if (SUBSCHEMA_MAPS.includes(k) && isObj(v))
      merged[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, normaliseSchema(s, seen)]));
    else if (
      (k === 'items' || k === 'additionalProperties' || k === 'unevaluatedProperties' || k === 'not' || k === 'contains') &&
      isObj(v)
    )
      merged[k] = normaliseSchema(v, seen);
    else if ((k === 'oneOf' || k === 'anyOf' || k === 'prefixItems') && Array.isArray(v))
      merged[k] = v.map((s) => normaliseSchema(s, seen));
    else merged[k] = v;
  }
  if (Array.isArray(allOf)) {
    const parts = allOf.map((s) => normaliseSchema(s, seen));
    merged = [...parts].reduce((acc, p) => mergeTwo(acc, p), merged);
  }
  if (merged.unevaluatedProperties === false) {
    merged.additionalProperties = false;
    delete merged.unevaluatedProperties;
  }
  if (merged.const !== undefined && merged.enum) delete merged.enum;
  Object.assign(out, merged);
  return out;
}

function securityAlternatives(req: unknown): string[] | null {
  if (!Array.isArray(req)) return null;
  if (req.length === 0) return ['(none)'];
  return req
    .map((r) => {
      const keys = Object.keys(r ?? {}).sort();
      return keys.length === 0 ? '(none)' : keys.map((k) => (r[k]?.length ? `${k}[${[...r[k]].sort().join(',')}]` : k)).join('+');
    })
    .sort();
}

function serverUrls(servers: unknown): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const s of Array.isArray(servers) ? servers : []) {
    const vars: Record<string, string> = {};
    for (const [k, v] of Object.entries<Schema>(s.variables ?? {})) vars[k] = String(v.default);
    out.set(s.url, vars);
  }
  return out;
}

function parameters(list: unknown[], seen: Map<object, Schema>): Map<string, Parameter> {
  const out = new Map<string, Parameter>();
  for (const p of list as Schema[]) {
    if (!isObj(p) || !p.name) continue;
    out.set(`${p.in}:${p.name}`, {
      name: p.name,
      in: p.in,
      required: p.required === true,
      deprecated: p.deprecated === true,
      description: p.description,
      schema: normaliseSchema(p.schema ?? firstSchema(p.content), seen),
    });
  }
  return out;
}

function headers(map: unknown, seen: Map<object, Schema>): Map<string, Parameter> {
  return parameters(
    Object.entries(isObj(map) ? map : {}).map(([name, h]) => ({ ...h, name, in: 'header' })),
    seen,
  );
}

const firstSchema = (content: unknown) => (isObj(content) ? Object.values<Schema>(content)[0]?.schema : undefined);

function contentMap(content: unknown, seen: Map<object, Schema>): Map<string, Schema> {
  return new Map(Object.entries<Schema>(isObj(content) ? content : {}).map(([mt, c]) => [mt, normaliseSchema(c?.schema, seen)]));
}

function operation(key: string, op: Schema, pathParams: unknown[], globalSecurity: string[], seen: Map<object, Schema>): Operation {
  const params = parameters([...(pathParams ?? []), ...(op.parameters ?? [])], seen);
  const rb = op.requestBody;
  return {
    key,
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    deprecated: op.deprecated === true,
    security: securityAlternatives(op.security) ?? globalSecurity,
    servers: op.servers ? [...serverUrls(op.servers).keys()] : null,
    parameters: params,
    requestBody: isObj(rb) ? { required: rb.required === true, description: rb.description, content: contentMap(rb.content, seen) } : null,
    responses: new Map(
      Object.entries<Schema>(op.responses ?? {}).map(([status, r]) => [
        status,
        {
          description: r?.description,
          content: contentMap(r?.content, seen),
          headers: headers(r?.headers, seen),
        },
      ]),
    ),
  };
}

/** The event type of a payload: its `type` const when it declares one (the envelope convention). */
const eventName = (payload: Schema, fallback: string): string => {
  const c = payload?.properties?.type?.const;
  return typeof c === 'string' ? c : fallback;
};

export function normalise(openapi: Schema, asyncapi: Schema | null): Model {
  const seen = new Map<object, Schema>();
  const globalSecurity = securityAlternatives(openapi.security) ?? ['(none)'];
  const operations = new Map<string, Operation>();
  const model = contractModel(openapi);
  for (const o of model.operations) {
    const key = `${o.method.toUpperCase()} ${o.path}`;
    const item: Schema = o.item.node;
    operations.set(key, operation(key, o.node, item.parameters, globalSecurity, seen));
  }
  const events = new Map<string, EventDef>();
  for (const webhook of model.webhooks) {
    const [name, op, item]: [string, Schema, Schema] = [webhook.path, webhook.node, webhook.item.node];
    const payload = normaliseSchema(firstSchema(op.requestBody?.content), seen);
    const n = eventName(payload, name);
    events.set(`webhooks ${n}`, {
      name: n,
      source: 'webhooks',
      description: op.description ?? payload.description,
      deprecated: op.deprecated === true,
      payload,
      headers: parameters(
        [...(item.parameters ?? []), ...(op.parameters ?? [])].filter((p: Schema) => p?.in === 'header'),
        seen,
      ),
    });
  }
  if (asyncapi) {
    const messages = new Map<string, Schema>();
    for (const ch of Object.values<Schema>(asyncapi.channels ?? {})) {
      for (const [k, msg] of Object.entries<Schema>(ch?.messages ?? {})) messages.set(k, msg);
    }
    // Only messages on a channel are sent; components alone are read when the document has no channels.
    if (!messages.size) for (const [k, msg] of Object.entries<Schema>(asyncapi.components?.messages ?? {})) messages.set(k, msg);
    for (const [k, msg] of messages) {
      // AsyncAPI 3 allows { schemaFormat, schema } multi-format payloads.
      const raw = isObj(msg?.payload) && msg.payload.schemaFormat && msg.payload.schema ? msg.payload.schema : msg?.payload;
      const payload = normaliseSchema(raw, seen);
      const n = eventName(payload, msg?.name ?? k);
      const hs = normaliseSchema(msg?.headers, seen);
      const required: string[] = hs.required ?? [];
      events.set(`asyncapi ${n}`, {
        name: n,
        source: 'asyncapi',
        description: msg?.description ?? payload.description,
        deprecated: msg?.deprecated === true,
        payload,
        headers: new Map(
          Object.entries<Schema>(hs.properties ?? {}).map(([h, s]) => [
            `header:${h}`,
            {
              name: h,
              in: 'header',
              required: required.includes(h),
              deprecated: s.deprecated === true,
              description: s.description,
              schema: s,
            },
          ]),
        ),
      });
    }
  }
  return {
    version: String(openapi.info?.version ?? ''),
    asyncapiVersion: asyncapi ? String(asyncapi.info?.version ?? '') : null,
    hasAsyncapi: asyncapi !== null,
    servers: serverUrls(openapi.servers),
    securitySchemes: new Map(
      model.componentNames('securitySchemes').map((name): [string, Schema] => [name, model.component('securitySchemes', name)?.node ?? {}]),
    ),
    operations,
    events,
  };
}
