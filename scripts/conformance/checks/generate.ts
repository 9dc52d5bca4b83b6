// Valid values generated from the contract's schemas with fast-check: every value a schema of a request (a
// body, a query parameter) allows, drawn within its rules (its type, `enum`/`const`, bounds, lengths, `pattern`,
// formats, `x-decimal-places`, required and optional properties, the branches of a `oneOf`), and biased towards
// the unusual but valid: text with letters beyond ASCII, an optional field present, a bound reached. The
// caller keeps only what the contract's own schema (Ajv) accepts, so a value this generator gets wrong is
// dropped, never sent as valid.
import fc from 'fast-check';
import { contractModel } from '../../../src/contract/model.ts';
import { isObject, type Json, type JsonObject } from '../../lib/pointer.ts';

/** Letters a valid text is drawn from: ASCII, and some beyond it (accents, a ligature, CJK, a dash). */
const LETTERS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ', ...'éèçñøßÅÖœ字中–'];

/** A text of `min` to `max` characters (at most 40: long enough for a name, short enough to read in a report). */
const text = (min: number, max: number) =>
  fc.array(fc.constantFrom(...LETTERS), { minLength: min, maxLength: Math.max(min, Math.min(max, 40)) }).map((cs) => {
    const s = cs.join('');
    // No leading or trailing space: a name of one space is valid by its schema but says nothing.
    return s.trim().length >= min ? s.trim() : s.replace(/ /g, 'a');
  });

function stringValues(schema: JsonObject): fc.Arbitrary<Json> {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 255;
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc
        .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T23:59:59Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('1930-01-01'), max: new Date('2005-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc
        .tuple(text(1, 12), fc.constantFrom('example.com', 'example.org'))
        .map(([u, d]) => `${u.replace(/[^a-z0-9]/gi, '') || 'a'}@${d}`);
    case 'uri':
      return fc.webPath().map((p) => `https://example.com${p.startsWith('/') ? p : `/${p}`}`);
  }
  if (typeof schema.pattern === 'string')
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= max);
  return text(min, max);
}

function numberValues(schema: JsonObject, integer: boolean): fc.Arbitrary<Json> {
  const min =
    typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 0;
  const max =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - 1
        : 1_000_000;
  if (integer) return fc.oneof(fc.constantFrom(Math.ceil(min), Math.floor(max)), fc.integer({ min: Math.ceil(min), max: Math.floor(max) }));
  const places = typeof schema['x-decimal-places'] === 'number' ? schema['x-decimal-places'] : 2;
  const scale = 10 ** places;
  const [lo, hi] = [Math.ceil(min * scale), Math.floor(max * scale)];
  return fc.oneof(fc.constantFrom(lo, hi), fc.integer({ min: lo, max: Math.min(hi, Number.MAX_SAFE_INTEGER) })).map((n) => n / scale);
}

function objectValues(bundle: JsonObject, schema: JsonObject, depth: number): fc.Arbitrary<Json> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const model: Record<string, fc.Arbitrary<Json>> = {};
  for (const [name, sub] of Object.entries(properties)) model[name] = validValues(bundle, sub, depth + 1);
  return fc.record(model, { requiredKeys: [...required].filter((k) => k in model) }) as fc.Arbitrary<Json>;
}

/** The schemas of an `allOf` as one (properties and required fields together), the rest of the schema kept. */
function merged(bundle: JsonObject, schema: JsonObject): JsonObject {
  const out: JsonObject = { ...schema };
  delete out.allOf;
  for (const branch of schema.allOf as Json[]) {
    const b = resolved(bundle, branch);
    const m = Array.isArray(b.allOf) ? merged(bundle, b) : b;
    for (const [k, v] of Object.entries(m)) {
      if (k === 'properties' && isObject(v)) out.properties = { ...(isObject(out.properties) ? out.properties : {}), ...v };
      else if (k === 'required' && Array.isArray(v)) out.required = [...(Array.isArray(out.required) ? out.required : []), ...v];
      else if (!(k in out)) out[k] = v;
    }
  }
  return out;
}

const resolved = (bundle: JsonObject, node: Json | undefined): JsonObject => {
  const r = contractModel(bundle).resolve(node).node;
  return isObject(r) ? r : {};
};

/** Values the schema allows (most of them: each is checked against the schema before it is sent). */
export function validValues(bundle: JsonObject, node: Json | undefined, depth = 0): fc.Arbitrary<Json> {
  let schema = resolved(bundle, node);
  if (Array.isArray(schema.allOf)) schema = merged(bundle, schema);
  if ('const' in schema) return fc.constant(schema.const as Json);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as Json[]));
  const branches = [...(Array.isArray(schema.oneOf) ? schema.oneOf : []), ...(Array.isArray(schema.anyOf) ? schema.anyOf : [])];
  if (branches.length) return fc.oneof(...branches.map((b) => validValues(bundle, b, depth + 1)));
  const types = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : [];
  const type = types.find((t) => t !== 'null') ?? (isObject(schema.properties) ? 'object' : 'string');
  const value = ((): fc.Arbitrary<Json> => {
    switch (type) {
      case 'string':
        return stringValues(schema);
      case 'integer':
      case 'number':
        return numberValues(schema, type === 'integer');
      case 'boolean':
        return fc.boolean();
      case 'array': {
        const items = validValues(bundle, schema.items, depth + 1);
        const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
        const maxLength = Math.max(minLength, Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 3, 3));
        return schema.uniqueItems === true
          ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
          : fc.array(items, { minLength, maxLength });
      }
      default:
        return depth > 6 ? fc.constant({}) : objectValues(bundle, schema, depth);
    }
  })();
  return types.includes('null') ? fc.oneof(value, fc.constant(null)) : value;
}
