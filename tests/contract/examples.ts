// Every example in a bundled document must validate against its schema (Ajv, JSON Schema 2020-12) and use
// only the fields its schema documents (response and event schemas are open, so validation alone would not
// catch a misspelt field).
//
// Examples checked, with the schema each is checked against:
// - schema `examples` (array) and `example`     -> that schema (any depth: properties, allOf ...)
// - media type `examples.*.value` and `example` -> the media type's `schema` (OpenAPI)
// - parameter / header `examples.*.value`, `example` -> its `schema` (OpenAPI)
// - message `examples[].payload` / `.headers`   -> the message's `payload` / `headers` (AsyncAPI)
import { SchemaValidator, undocumentedFields } from '../../scripts/lib/schema.ts';
import { escapeToken, isObject, type Json, type JsonObject } from '../../scripts/lib/pointer.ts';
import { contractModel } from '../../src/contract/model.ts';

/** Keywords whose value is a schema, a list of schemas or a map of schemas. */
const SUBSCHEMA = [
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
];
const SUBSCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

export interface ExampleCase {
  /** Where the example is, as a JSON Pointer into the document. */
  where: string;
  /** JSON Pointer of the schema it must match. */
  schema: string;
  value: unknown;
}

/** Finds every example of an OpenAPI 3.1 or AsyncAPI 3.0 bundle, with the schema it must match. */
export function collectExamples(doc: JsonObject): ExampleCase[] {
  const cases: ExampleCase[] = [];

  const inSchema = (node: Json | undefined, at: string): void => {
    if (!isObject(node)) return;
    if (Array.isArray(node['examples'])) {
      for (const [i, value] of node['examples'].entries()) cases.push({ where: `${at}/examples/${i}`, schema: at, value });
    }
    if ('example' in node) cases.push({ where: `${at}/example`, schema: at, value: node['example'] });
    for (const key of SUBSCHEMA) if (isObject(node[key])) inSchema(node[key], `${at}/${key}`);
    for (const key of SUBSCHEMA_LIST) {
      const list = node[key];
      if (Array.isArray(list)) for (const [i, item] of list.entries()) inSchema(item, `${at}/${key}/${i}`);
    }
    for (const key of SUBSCHEMA_MAP) {
      const map = node[key];
      if (isObject(map)) for (const [name, sub] of Object.entries(map)) inSchema(sub, `${at}/${key}/${escapeToken(name)}`);
    }
  };

  /** An OpenAPI media type, parameter or header: `schema` with `example` or named `examples`. */
  const withSchema = (node: JsonObject, at: string): void => {
    const schemaAt = `${at}/schema`;
    inSchema(node['schema'], schemaAt);
    if ('example' in node) cases.push({ where: `${at}/example`, schema: schemaAt, value: node['example'] });
    if (isObject(node['examples'])) {
      for (const [name, example] of Object.entries(node['examples'])) {
        const resolved = contractModel(doc).resolve(example).node;
        if (isObject(resolved) && 'value' in resolved) {
          cases.push({ where: `${at}/examples/${escapeToken(name)}`, schema: schemaAt, value: resolved['value'] });
        }
      }
    }
  };

  /** An AsyncAPI message: `payload` and `headers` schemas, and `examples: [{ payload, headers }]`. */
  const message = (node: JsonObject, at: string): void => {
    for (const part of ['payload', 'headers'] as const) {
      if (isObject(node[part]) && !('$ref' in node[part] && Object.keys(node[part]).length === 1)) {
        inSchema(node[part], `${at}/${part}`);
      }
    }
    const examples = node['examples'];
    if (Array.isArray(examples)) {
      examples.forEach((example, i) => {
        if (!isObject(example)) return;
        for (const part of ['payload', 'headers'] as const) {
          if (part in example) cases.push({ where: `${at}/examples/${i}/${part}`, schema: `${at}/${part}`, value: example[part] });
        }
      });
    }
  };

  const walk = (node: Json | undefined, at: string): void => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${at}/${i}`);
      return;
    }
    if (!isObject(node) || '$ref' in node) return;
    // Schemas collected by name: OpenAPI and AsyncAPI `components/schemas`.
    if (at === '/components/schemas') {
      for (const [name, schema] of Object.entries(node)) inSchema(schema, `${at}/${escapeToken(name)}`);
      return;
    }
    if (doc['asyncapi'] && (at === '/components/messages' || /\/messages$/.test(at))) {
      for (const [name, msg] of Object.entries(node)) {
        if (isObject(msg) && !('$ref' in msg)) message(msg, `${at}/${escapeToken(name)}`);
      }
      return;
    }
    if (at === '/components/examples') return; // checked where they are used
    if ('schema' in node && isObject(node['schema'])) withSchema(node, at);
    for (const [key, value] of Object.entries(node)) {
      if (['schema', 'examples', 'example', 'value'].includes(key)) continue;
      walk(value, `${at}/${escapeToken(key)}`);
    }
  };

  walk(doc, '');
  return cases;
}

/** Validates every example of a bundle; returns one message per example that does not match. */
export function checkExamples(doc: JsonObject, name: string): string[] {
  const validator = new SchemaValidator(doc, name);
  const matches = (ptr: string, value: unknown) => validator.check(ptr, value) === undefined;
  const problems: string[] = [];
  for (const c of collectExamples(doc)) {
    try {
      const errors = validator.check(c.schema, c.value);
      if (errors) problems.push(`${name}#${c.where}: example does not match its schema (${c.schema}): ${errors}`);
      // Open schemas accept any field, so a misspelt one would pass: an example uses documented fields only.
      else
        for (const field of undocumentedFields(doc, c.schema, c.value, matches)) {
          problems.push(`${name}#${c.where}: example has a field its schema (${c.schema}) does not document: ${field}`);
        }
    } catch (error) {
      problems.push(`${name}#${c.where}: its schema ${c.schema} does not compile: ${(error as Error).message}`);
    }
  }
  return problems;
}
