// The extensibility policy (docs/compatibility.md), checked on a bundle:
// - response bodies and event payloads are open: each of their examples still validates with an unknown
//   field added to any of its objects;
// - request bodies are closed: each request example is refused with an unknown field added to any of its objects;
// - no field the interface document does not list is required in a resource or payload it shows (the
//   fields come from the checklist: `detailed[].data`, `events.*.data`, `objects`, `error_details`).
import { contractModel } from '../../src/contract/model.ts';
import { propertiesAt, propertyPointers, itemsOrSelf, resolvePointer, SchemaValidator } from '../../scripts/lib/schema.ts';
import { escapeToken, get, isObject, pointer, type Json, type JsonObject } from '../../scripts/lib/pointer.ts';
import { collectExamples } from './examples.ts';
import type { Checklist } from './checklist.ts';

export const UNKNOWN_FIELD = 'x_unknown_field_for_the_policy_check';

/** Copies of a value with the unknown field added to one of its objects each, with the object's pointer. */
export function withUnknownField(value: unknown): { at: string; value: unknown }[] {
  const out: { at: string; value: unknown }[] = [];
  const visit = (node: unknown, at: string, set: (copy: unknown) => unknown): void => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) visit(item, `${at}/${i}`, (c) => set(node.map((x, j) => (j === i ? c : x))));
    } else if (isObject(node)) {
      out.push({ at: at || '/', value: set({ ...node, [UNKNOWN_FIELD]: 'x' }) });
      for (const [k, v] of Object.entries(node)) visit(v, `${at}/${escapeToken(k)}`, (c) => set({ ...node, [k]: c }));
    }
  };
  visit(value, '', (c) => c);
  return out;
}

type Kind = 'request' | 'response' | 'event';

/** The schemas of the event payloads: the request body schema of each webhook, `$ref`s followed. */
function eventSchemas(doc: JsonObject): Set<string> {
  const webhooks = contractModel(doc).webhooks.map((w) => w.path);
  return new Set(
    webhooks.map((w) => {
      const body = resolvePointer(doc, `${resolvePointer(doc, pointer('webhooks', w))}/post/requestBody`);
      return resolvePointer(doc, `${body}/content/${escapeToken('application/json')}/schema`);
    }),
  );
}

/**
 * Where an example of an OpenAPI bundle sits: a request body, a response (of an operation or a shared
 * response), an event payload (the examples of an event's schema or of a webhook body), or elsewhere.
 */
function kindOf(where: string, schema: string, events: Set<string>): Kind | undefined {
  if (/\/(headers|parameters)\//.test(where)) return undefined;
  if (/^\/paths\/[^/]+\/[^/]+\/requestBody\//.test(where)) return 'request';
  if (/^\/paths\/[^/]+\/[^/]+\/responses\//.test(where) || /^\/components\/responses\//.test(where)) return 'response';
  if (/^\/webhooks\/[^/]+\/post\/requestBody\//.test(where) || events.has(schema)) return 'event';
  return undefined;
}

/** Open responses and events, closed requests, shown by their examples. */
export function checkOpenness(doc: JsonObject): string[] {
  const validator = new SchemaValidator(doc, 'policy');
  const events = eventSchemas(doc);
  const problems: string[] = [];
  const counted = { request: 0, response: 0, event: 0 };
  for (const c of collectExamples(doc)) {
    const kind = kindOf(c.where, c.schema, events);
    if (!kind || validator.check(c.schema, c.value)) continue;
    counted[kind]++;
    for (const variant of withUnknownField(c.value)) {
      const refused = validator.check(c.schema, variant.value) !== undefined;
      if (kind === 'request' && !refused)
        problems.push(
          `${c.where}: a request body accepts an unknown field at ${variant.at} (request bodies are closed: additionalProperties false)`,
        );
      if (kind !== 'request' && refused)
        problems.push(
          `${c.where}: ${kind === 'event' ? 'an event' : 'a response'} refuses an unknown field at ${variant.at} (responses and events are open: no additionalProperties/unevaluatedProperties false)`,
        );
    }
  }
  for (const [kind, n] of Object.entries(counted)) if (n === 0) problems.push(`no ${kind} example was found to check`);
  return problems;
}

/** The `required` fields of a schema, through `$ref`, `allOf`, `oneOf` and `anyOf`. */
export function requiredAt(doc: JsonObject, ptr: string, depth = 0): Set<string> {
  const out = new Set<string>();
  const at = resolvePointer(doc, ptr);
  const node = get(doc, at);
  if (!isObject(node) || depth > 20) return out;
  if (Array.isArray(node['required'])) for (const r of node['required']) out.add(String(r));
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    const list = node[key];
    if (Array.isArray(list)) for (const i of list.keys()) for (const r of requiredAt(doc, `${at}/${key}/${i}`, depth + 1)) out.add(r);
  }
  return out;
}

function over(label: string, doc: JsonObject, ptrs: string[], documented: string[], problems: string[]): void {
  for (const ptr of ptrs) {
    const extra = [...requiredAt(doc, ptr)].filter((r) => !documented.includes(r));
    if (extra.length > 0) problems.push(`${label}: requires ${extra.join(', ')}, which the document does not list (make them optional)`);
  }
}

/** Required fields of the resources and payloads the document shows are among the fields it lists. */
export function checkRequiredDocumented(doc: JsonObject, checklist: Checklist): string[] {
  const problems: string[] = [];
  for (const e of checklist.detailed) {
    if (!e.success || !e.data) continue;
    const responsePtr = resolvePointer(doc, pointer('paths', e.path, e.method, 'responses', e.success));
    const dataPtrs = propertyPointers(doc, `${responsePtr}/content/${escapeToken('application/json')}/schema`, 'data').map((d) =>
      itemsOrSelf(doc, d),
    );
    over(`${e.method.toUpperCase()} ${e.path} ${e.success} data`, doc, dataPtrs, e.data, problems);
  }
  for (const [event, facts] of Object.entries(checklist.events)) {
    if (facts.data.length === 0 || facts.payload_shown === false) continue;
    const body = resolvePointer(doc, pointer('webhooks', event, 'post', 'requestBody'));
    const dataPtrs = propertyPointers(doc, `${body}/content/${escapeToken('application/json')}/schema`, 'data');
    over(`event ${event} data`, doc, dataPtrs, facts.data, problems);
  }
  for (const o of checklist.objects ?? []) {
    const schemaPtr = pointer('components', 'schemas', o.schema);
    const ptrs = o.property ? propertyPointers(doc, schemaPtr, o.property).map((p) => itemsOrSelf(doc, p)) : [schemaPtr];
    const name = o.property ? `${o.schema}.${o.property}` : o.schema;
    if (ptrs.length === 0 || get(doc, ptrs[0]!) === undefined) {
      problems.push(`${name}: missing (document: ${o.source})`);
      continue;
    }
    const fields = new Set(ptrs.flatMap((p) => [...propertiesAt(doc, p).keys()]));
    for (const f of o.fields) if (!fields.has(f)) problems.push(`${name}: has no field '${f}' (document: ${o.source})`);
    over(name, doc, ptrs, o.fields, problems);
  }
  for (const [code, fields] of Object.entries(checklist.error_details)) {
    const name = code
      .split('_')
      .map((w) => w[0] + w.slice(1).toLowerCase())
      .join('');
    const schemaPtr = pointer('components', 'schemas', `${name}Error`);
    if (get(doc, schemaPtr) === undefined) continue; // the checklist's error check reports it
    over(`${code} details`, doc, propertyPointers(doc, schemaPtr, 'error.details'), fields, problems);
  }
  return problems;
}

export type { Json };
