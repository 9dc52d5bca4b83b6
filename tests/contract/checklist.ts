// Checks a bundled contract against the checklist derived by hand from the interface document
// (tests/fixtures/seed-checklist.yaml). Each check returns one readable message per problem.
import fs from 'node:fs';
import { parse } from 'yaml';
import { escapeToken, get, isObject, pointer, type Json, type JsonObject } from '../../scripts/lib/pointer.ts';
import { allowedValues, itemsOrSelf, propertiesAt, propertyPointers, resolvePointer, SchemaValidator } from '../../scripts/lib/schema.ts';
import { contractModel } from '../../src/contract/model.ts';

export interface DocumentedError {
  status: string;
  code: string;
}
/** Values a field must accept and reject (the limits the document gives). */
export interface Values {
  accepts?: Json[];
  rejects?: Json[];
}
export interface DetailedEndpoint {
  method: string;
  path: string;
  source: string;
  parameters?: ({ in: string; name: string } & Values)[];
  body?: string[];
  body_values?: Record<string, Values>;
  success?: string;
  list?: boolean;
  data?: string[];
  absent?: string[];
  errors?: DocumentedError[];
  events?: string[];
}
export interface NamedEndpoint {
  capability: string;
  method: string;
  path: string;
  from?: 'spec';
  events?: string[];
}
export interface Checklist {
  detailed: DetailedEndpoint[];
  named: NamedEndpoint[];
  errors: Record<string, string | null>;
  error_details: Record<string, string[]>;
  global_errors: ErrorRule[];
  enums: { source: string; schema: string; property?: string; match: 'exact' | 'includes'; values: Json[] }[];
  /** `payload_shown: false`: the document gives only the base fields of the category, not the payload. */
  events: Record<string, { data: string[]; values?: Record<string, Json>; payload_shown?: boolean }>;
  delivery_headers: string[];
  /** Objects of resources and payloads the document shows, with the fields it lists for them. */
  objects?: { source: string; schema: string; property?: string; fields: string[] }[];
}

/** An error every operation of a kind documents. */
export interface ErrorRule {
  /** all; non-get or get: by method; path-param: with a path parameter; input: with parameters or a body. */
  on: 'all' | 'non-get' | 'get' | 'path-param' | 'input';
  status: string;
  code: string;
}

export function loadChecklist(file: string): Checklist {
  return parse(fs.readFileSync(file, 'utf8')) as Checklist;
}

const label = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

export interface Operation {
  method: string;
  path: string;
  /** JSON Pointer of the Operation Object. */
  ptr: string;
  op: JsonObject;
}

/** Every operation under `paths` of an OpenAPI bundle. */
export function operations(doc: JsonObject): Operation[] {
  return contractModel(doc).operations.map((o) => ({ method: o.method, path: o.path, ptr: o.pointer, op: o.node }));
}

/** The error codes a response carries: in its schema (`error.code` const) and in its examples. */
export function responseCodes(doc: JsonObject, responsePtr: string): { schema: Set<string>; examples: Set<string> } {
  const schema = new Set<string>();
  const examples = new Set<string>();
  const response = get(doc, resolvePointer(doc, responsePtr));
  const media = isObject(response) && isObject(response['content']) ? response['content']['application/json'] : undefined;
  if (!isObject(media)) return { schema, examples };
  const mediaPtr = `${resolvePointer(doc, responsePtr)}/content/${escapeToken('application/json')}`;
  const branches = (ptr: string): string[] => {
    const at = resolvePointer(doc, ptr);
    const node = get(doc, at);
    if (isObject(node)) {
      for (const key of ['oneOf', 'anyOf']) {
        const list = node[key];
        if (Array.isArray(list)) return list.flatMap((_, i) => branches(`${at}/${key}/${i}`));
      }
    }
    return [at];
  };
  for (const branch of branches(`${mediaPtr}/schema`)) {
    for (const value of allowedValues(doc, propertyPointers(doc, branch, 'error.code')) ?? []) schema.add(String(value));
  }
  if (isObject(media['examples'])) {
    for (const name of Object.keys(media['examples'])) {
      const example = get(doc, resolvePointer(doc, `${mediaPtr}/examples/${escapeToken(name)}`));
      const value = isObject(example) ? example['value'] : undefined;
      const code = isObject(value) && isObject(value['error']) ? value['error']['code'] : undefined;
      if (typeof code === 'string') examples.add(code);
    }
  }
  return { schema, examples };
}

/** Does an operation document this error: the status, with the code in its schema and an example? */
function errorProblem(doc: JsonObject, o: Operation, e: DocumentedError, why: string): string | undefined {
  const responses = o.op['responses'];
  if (!isObject(responses) || !(e.status in responses)) {
    return `${label(o.method, o.path)}: missing response ${e.status} ${e.code} (${why})`;
  }
  const codes = responseCodes(doc, `${o.ptr}/responses/${escapeToken(e.status)}`);
  if (!codes.schema.has(e.code))
    return `${label(o.method, o.path)}: response ${e.status} does not include ${e.code} in its schema (${why})`;
  if (!codes.examples.has(e.code)) return `${label(o.method, o.path)}: response ${e.status} has no example of ${e.code} (${why})`;
  return undefined;
}

/** (b) Every endpoint the document details or names exists, with its documented parameters, body and data. */
export function checkEndpoints(doc: JsonObject, checklist: Checklist): string[] {
  const problems: string[] = [];
  const validator = new SchemaValidator(doc, 'openapi');
  /** Checks `accepts` and `rejects` against a field defined by one or more schemas (allOf semantics). */
  const checkValues = (where: string, pointers: string[], values: Values): void => {
    if (pointers.length === 0) return;
    for (const value of values.accepts ?? []) {
      const errors = pointers.map((p) => validator.check(p, value)).filter(Boolean);
      if (errors.length > 0) problems.push(`${where} must accept ${JSON.stringify(value)}: ${errors.join('; ')}`);
    }
    for (const value of values.rejects ?? []) {
      if (pointers.every((p) => validator.check(p, value) === undefined)) problems.push(`${where} must reject ${JSON.stringify(value)}`);
    }
  };
  const ops = operations(doc);
  const find = (method: string, path: string) => ops.find((o) => o.method === method && o.path === path);

  for (const e of checklist.named) {
    const o = find(e.method, e.path);
    if (!o) problems.push(`${label(e.method, e.path)} (${e.capability}): missing from paths`);
    else for (const event of e.events ?? []) checkEmits(o, event, problems);
  }

  for (const e of checklist.detailed) {
    const o = find(e.method, e.path);
    if (!o) {
      problems.push(`${label(e.method, e.path)}: missing from paths (document: ${e.source})`);
      continue;
    }
    const where = label(e.method, e.path);
    // Parameters: the operation's and its Path Item's.
    const itemPtr = o.ptr.slice(0, o.ptr.lastIndexOf('/'));
    const params = [`${o.ptr}/parameters`, `${itemPtr}/parameters`].flatMap((ptr) => {
      const list = get(doc, ptr);
      return Array.isArray(list) ? list.map((_, i) => resolvePointer(doc, `${ptr}/${i}`)) : [];
    });
    for (const p of e.parameters ?? []) {
      const at = params.find((q) => {
        const node = get(doc, q);
        return isObject(node) && node['name'] === p.name && node['in'] === p.in;
      });
      if (!at) problems.push(`${where}: missing ${p.in} parameter '${p.name}'`);
      else checkValues(`${where}: ${p.in} parameter '${p.name}'`, [`${at}/schema`], p);
    }
    if (e.body) {
      const bodyPtr = `${resolvePointer(doc, `${o.ptr}/requestBody`)}/content/${escapeToken('application/json')}/schema`;
      const fields = get(doc, bodyPtr) === undefined ? new Map<string, string[]>() : propertiesAt(doc, bodyPtr);
      for (const field of e.body) if (!fields.has(field)) problems.push(`${where}: request body has no field '${field}'`);
      for (const [field, values] of Object.entries(e.body_values ?? {})) {
        checkValues(`${where}: body field '${field}'`, fields.get(field) ?? [], values);
      }
    }
    if (e.success) {
      const responsePtr = `${o.ptr}/responses/${escapeToken(e.success)}`;
      if (get(doc, responsePtr) === undefined) {
        problems.push(`${where}: missing success response ${e.success}`);
      } else if (e.data || e.absent) {
        const schemaPtr = `${resolvePointer(doc, responsePtr)}/content/${escapeToken('application/json')}/schema`;
        const dataPtrs = propertyPointers(doc, schemaPtr, 'data');
        const fields = new Set<string>();
        for (const d of dataPtrs) for (const name of propertiesAt(doc, itemsOrSelf(doc, d)).keys()) fields.add(name);
        for (const field of e.data ?? []) if (!fields.has(field)) problems.push(`${where}: ${e.success} data has no field '${field}'`);
        for (const field of e.absent ?? []) if (fields.has(field)) problems.push(`${where}: ${e.success} data must not have '${field}'`);
        if (e.list && !dataPtrs.some((d) => itemsOrSelf(doc, d) !== resolvePointer(doc, d))) {
          problems.push(`${where}: ${e.success} data is not an array`);
        }
      }
    }
    for (const event of e.events ?? []) checkEmits(o, event, problems);
  }
  return problems;
}

function checkEmits(o: Operation, event: string, problems: string[]): void {
  const events = o.op['x-events'];
  if (!Array.isArray(events) || !events.includes(event)) {
    problems.push(`${label(o.method, o.path)}: x-events does not list ${event}`);
  }
}

/** (e) Each operation documents the errors the document gives for it; each code has its documented status. */
export function checkErrors(doc: JsonObject, checklist: Checklist): string[] {
  const problems: string[] = [];
  const ops = operations(doc);
  for (const e of checklist.detailed) {
    const o = ops.find((x) => x.method === e.method && x.path === e.path);
    if (!o) continue; // reported by checkEndpoints
    for (const err of e.errors ?? []) {
      const problem = errorProblem(doc, o, err, `document: ${e.source}`);
      if (problem) problems.push(problem);
    }
  }
  problems.push(...checkErrorRules(doc, checklist.global_errors));
  // Where a code appears, it appears under its documented status; and every code appears somewhere.
  const seen = new Set<string>();
  for (const o of ops) {
    const responses = o.op['responses'];
    if (!isObject(responses)) continue;
    for (const status of Object.keys(responses)) {
      const codes = responseCodes(doc, `${o.ptr}/responses/${escapeToken(status)}`);
      for (const code of new Set([...codes.schema, ...codes.examples])) {
        seen.add(code);
        const documented = checklist.errors[code];
        if (documented && documented !== status) {
          problems.push(`${label(o.method, o.path)}: ${code} is under ${status}, the document gives ${documented}`);
        }
        if (!(code in checklist.errors))
          problems.push(`${label(o.method, o.path)}: ${status} has code ${code}, which the document does not list`);
      }
    }
  }
  for (const code of Object.keys(checklist.errors)) {
    if (!seen.has(code)) problems.push(`error code ${code}: no operation's response carries it`);
  }
  // The documented `details` fields.
  for (const [code, fields] of Object.entries(checklist.error_details)) {
    const withCode = ops.flatMap((o) => {
      const responses = o.op['responses'];
      if (!isObject(responses)) return [];
      return Object.keys(responses).flatMap((status) => {
        const schemaPtr = `${resolvePointer(doc, `${o.ptr}/responses/${escapeToken(status)}`)}/content/${escapeToken('application/json')}/schema`;
        const node = get(doc, resolvePointer(doc, schemaPtr));
        const branches =
          isObject(node) && Array.isArray(node['oneOf'])
            ? node['oneOf'].map((_, i) => `${resolvePointer(doc, schemaPtr)}/oneOf/${i}`)
            : [schemaPtr];
        return branches.filter((b) => allowedValues(doc, propertyPointers(doc, b, 'error.code'))?.includes(code));
      });
    });
    if (withCode.length === 0) continue; // reported above
    for (const branch of withCode.slice(0, 1)) {
      const details = new Set(propertyPointers(doc, branch, 'error.details').flatMap((p) => [...propertiesAt(doc, p).keys()]));
      for (const field of fields) if (!details.has(field)) problems.push(`error ${code}: details has no field '${field}'`);
    }
  }
  return problems;
}

/** Checks that every operation of each rule's kind documents the rule's error (status, code, example). */
export function checkErrorRules(doc: JsonObject, rules: ErrorRule[]): string[] {
  const problems: string[] = [];
  for (const o of operations(doc)) {
    const itemPtr = o.ptr.slice(0, o.ptr.lastIndexOf('/'));
    const params = [`${o.ptr}/parameters`, `${itemPtr}/parameters`].flatMap((ptr) => {
      const list = get(doc, ptr);
      return Array.isArray(list) ? list.map((_, i) => get(doc, resolvePointer(doc, `${ptr}/${i}`))).filter(isObject) : [];
    });
    const kinds = {
      all: true,
      'non-get': o.method !== 'get',
      get: o.method === 'get',
      'path-param': params.some((p) => p['in'] === 'path'),
      input: params.length > 0 || 'requestBody' in o.op,
    };
    for (const rule of rules) {
      if (!kinds[rule.on]) continue;
      const problem = errorProblem(doc, o, rule, `rule: ${rule.on === 'all' ? 'every operation' : `every ${rule.on} operation`}`);
      if (problem) problems.push(problem);
    }
  }
  return problems;
}

/** Enums: each documented set is the field's enum (exact) or within it (includes). */
export function checkEnums(doc: JsonObject, checklist: Checklist): string[] {
  const problems: string[] = [];
  for (const e of checklist.enums) {
    const schemaPtr = pointer('components', 'schemas', e.schema);
    if (get(doc, schemaPtr) === undefined) {
      problems.push(`${e.schema}: missing from components/schemas (document: ${e.source})`);
      continue;
    }
    const pointers = e.property ? propertyPointers(doc, schemaPtr, e.property) : [schemaPtr];
    const name = e.property ? `${e.schema}.${e.property}` : e.schema;
    if (pointers.length === 0) {
      problems.push(`${name}: missing (document: ${e.source})`);
      continue;
    }
    const found = pointers.flatMap((p) => valuesOf(doc, p, e.match === 'includes'));
    const values = found.map((f) => f.value);
    const missing = e.values.filter((v) => !values.includes(v));
    if (missing.length > 0) problems.push(`${name}: missing value(s) ${missing.join(', ')} (document: ${e.source})`);
    if (e.match === 'exact') {
      // A value the contract adds is allowed only when it is marked x-provisional.
      const extra = found.filter((f) => !f.provisional && !e.values.includes(f.value)).map((f) => f.value);
      if (extra.length > 0)
        problems.push(
          `${name}: value(s) ${extra.join(', ')} not in the document's closed set and not x-provisional (document: ${e.source})`,
        );
    }
  }
  return problems;
}

/** The values a schema allows (enum, const; with `withExamples`, also its examples), through $ref, oneOf, anyOf, allOf. */
function valuesOf(
  doc: JsonObject,
  ptr: string,
  withExamples: boolean,
  provisional = false,
  depth = 0,
): { value: Json; provisional: boolean }[] {
  const at = resolvePointer(doc, ptr);
  const node = get(doc, at);
  if (!isObject(node) || depth > 20) return [];
  const mark = provisional || node['x-provisional'] === true;
  const own: Json[] = [
    ...(Array.isArray(node['enum']) ? node['enum'] : []),
    ...('const' in node ? [node['const'] as Json] : []),
    ...(withExamples && Array.isArray(node['examples']) ? node['examples'] : []),
  ];
  const nested = ['oneOf', 'anyOf', 'allOf'].flatMap((key) => {
    const list = node[key];
    return Array.isArray(list) ? list.flatMap((_, i) => valuesOf(doc, `${at}/${key}/${i}`, withExamples, mark, depth + 1)) : [];
  });
  return [...own.map((value) => ({ value, provisional: mark })), ...nested];
}

/** Finds the AsyncAPI message of an event: by its `name`, else by its key. Returns its pointer. */
function asyncMessage(doc: JsonObject, event: string): string | undefined {
  const messages = get(doc, '/components/messages');
  if (!isObject(messages)) return undefined;
  for (const [key, message] of Object.entries(messages)) {
    if (isObject(message) && (message['name'] === event || key === event)) return pointer('components', 'messages', key);
  }
  return undefined;
}

/** The examples of a schema (its `examples` array), resolved through `$ref`. */
function schemaExamples(doc: JsonObject, ptr: string): Json[] {
  const node = get(doc, resolvePointer(doc, ptr));
  return isObject(node) && Array.isArray(node['examples']) ? node['examples'] : [];
}

/**
 * (d) Every event has a schema and a valid example in both documents (OpenAPI `webhooks`, AsyncAPI
 * messages), its `type` is fixed to its name, and its payload has the fields the document gives.
 */
export function checkEvents(openapi: JsonObject, asyncapi: JsonObject, checklist: Checklist): string[] {
  const problems: string[] = [];
  const docs = { openapi, asyncapi };
  const validators = { openapi: new SchemaValidator(openapi, 'openapi'), asyncapi: new SchemaValidator(asyncapi, 'asyncapi') };
  const names = Object.keys(checklist.events);

  const webhooks = contractModel(openapi).webhooks.map((w) => w.path);
  // An event the document does not list is designed here: marked provisional as a whole.
  for (const extra of webhooks.filter((w) => !names.includes(w))) {
    const body = `${resolvePointer(openapi, pointer('webhooks', extra))}/post/requestBody`;
    const schema = get(
      openapi,
      resolvePointer(openapi, `${resolvePointer(openapi, body)}/content/${escapeToken('application/json')}/schema`),
    );
    if (!isObject(schema) || schema['x-provisional'] !== true)
      problems.push(`openapi: webhook ${extra} is not an event of the document (an event designed here is marked x-provisional: true)`);
  }

  for (const [event, facts] of Object.entries(checklist.events)) {
    const schemas: { openapi?: string; asyncapi?: string } = {};
    const item = get(openapi, resolvePointer(openapi, pointer('webhooks', event)));
    if (!isObject(item)) {
      problems.push(`openapi: event ${event} is missing from webhooks`);
    } else {
      const bodyPtr = `${resolvePointer(openapi, pointer('webhooks', event))}/post/requestBody`;
      const schemaPtr = `${resolvePointer(openapi, bodyPtr)}/content/${escapeToken('application/json')}/schema`;
      if (get(openapi, schemaPtr) === undefined) problems.push(`openapi: webhook ${event} has no POST application/json body schema`);
      else schemas.openapi = schemaPtr;
    }
    const messagePtr = asyncMessage(asyncapi, event);
    if (!messagePtr) {
      problems.push(`asyncapi: event ${event} has no message in components/messages`);
    } else if (get(asyncapi, `${messagePtr}/payload`) === undefined) {
      problems.push(`asyncapi: message ${event} has no payload`);
    } else {
      schemas.asyncapi = `${resolvePointer(asyncapi, messagePtr)}/payload`;
    }

    for (const which of ['openapi', 'asyncapi'] as const) {
      const ptr = schemas[which];
      if (!ptr) continue;
      const doc = docs[which];
      const examples = schemaExamples(doc, ptr);
      if (which === 'asyncapi') {
        const message = get(doc, resolvePointer(doc, messagePtr ?? ''));
        if (isObject(message) && Array.isArray(message['examples'])) {
          for (const m of message['examples']) if (isObject(m) && 'payload' in m) examples.push(m['payload'] as Json);
        }
      }
      if (examples.length === 0) problems.push(`${which}: event ${event} has no example`);
      for (const [i, example] of examples.entries()) {
        const errors = validators[which].check(ptr, example);
        if (errors) problems.push(`${which}: example ${i} of event ${event} does not match its schema: ${errors}`);
        if (!isObject(example) || example['type'] !== event)
          problems.push(`${which}: example ${i} of event ${event} has type '${isObject(example) ? String(example['type']) : '?'}'`);
      }
      const type = allowedValues(doc, propertyPointers(doc, ptr, 'type'));
      if (!type || type.length === 0 || !type.every((t) => t === event))
        problems.push(`${which}: event ${event} does not fix 'type' to '${event}'`);
      const dataPtrs = propertyPointers(doc, ptr, 'data');
      const fields = new Set(dataPtrs.flatMap((d) => [...propertiesAt(doc, d).keys()]));
      for (const field of facts.data) if (!fields.has(field)) problems.push(`${which}: event ${event} data has no field '${field}'`);
      // A documented value (or each of a list of values) must be accepted by every definition of the field.
      for (const [field, documented] of Object.entries(facts.values ?? {})) {
        for (const value of Array.isArray(documented) ? documented : [documented]) {
          for (const p of propertyPointers(doc, ptr, `data.${field}`)) {
            if (validators[which].check(p, value)) {
              problems.push(`${which}: event ${event} data.${field} does not accept the documented value ${JSON.stringify(value)}`);
            }
          }
        }
      }
    }
  }

  // The delivery headers on every OpenAPI webhook.
  for (const event of webhooks) {
    const opPtr = `${resolvePointer(openapi, pointer('webhooks', event))}/post`;
    const params = get(openapi, `${opPtr}/parameters`);
    const names = Array.isArray(params)
      ? params
          .map((_, i) => get(openapi, resolvePointer(openapi, `${opPtr}/parameters/${i}`)))
          .filter(isObject)
          .map((p) => p['name'])
      : [];
    for (const header of checklist.delivery_headers)
      if (!names.includes(header)) problems.push(`openapi: webhook ${event} does not document header ${header}`);
  }
  return problems;
}
