// Reading schemas of a bundled document by JSON Pointer: properties through $ref/allOf/oneOf/anyOf,
// and Ajv (JSON Schema 2020-12) validators for any schema of the document.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { decimalPlacesKeyword } from '../../src/contract/decimal-places.ts';
import { contractModel } from '../../src/contract/model.ts';
import { escapeToken, get, isObject, type Json, type JsonObject } from './pointer.ts';

/** Follows a `$ref` chain from a pointer to the pointer of the node that has no `$ref` (the contract model's). */
export function resolvePointer(doc: JsonObject, ptr: string): string {
  return contractModel(doc).resolvePointer(ptr).pointer;
}

/**
 * Every definition of every property of the schema at `ptr`, through `$ref`, `allOf`, `oneOf` and
 * `anyOf`: name -> pointers of the property's schemas (several when allOf branches refine a field).
 */
export function propertiesAt(doc: JsonObject, ptr: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const visit = (at: string, depth: number): void => {
    if (depth > 30) return;
    const resolved = resolvePointer(doc, at);
    const node = get(doc, resolved);
    if (!isObject(node)) return;
    if (isObject(node['properties'])) {
      for (const name of Object.keys(node['properties'])) {
        const list = found.get(name) ?? [];
        list.push(`${resolved}/properties/${escapeToken(name)}`);
        found.set(name, list);
      }
    }
    for (const key of ['allOf', 'oneOf', 'anyOf']) {
      const list = node[key];
      if (Array.isArray(list)) for (const i of list.keys()) visit(`${resolved}/${key}/${i}`, depth + 1);
    }
  };
  visit(ptr, 0);
  return found;
}

/** The pointers of a (possibly dotted: `error.code`) property of the schema at `ptr`. */
export function propertyPointers(doc: JsonObject, ptr: string, dotted: string): string[] {
  let current = [ptr];
  for (const name of dotted.split('.')) {
    current = current.flatMap((p) => propertiesAt(doc, p).get(name) ?? []);
  }
  return current;
}

/** The values a property allows, from `const` (preferred, the narrowest) or else `enum`. */
export function allowedValues(doc: JsonObject, pointers: string[]): Json[] | undefined {
  const nodes = pointers.map((p) => get(doc, resolvePointer(doc, p))).filter(isObject);
  const consts = nodes.filter((n) => 'const' in n).map((n) => n['const'] as Json);
  if (consts.length > 0) return consts;
  const withEnum = nodes.find((n) => Array.isArray(n['enum']));
  return withEnum ? (withEnum['enum'] as Json[]) : undefined;
}

/** The pointer of the item schema when the schema at `ptr` is an array, else `ptr`. */
export function itemsOrSelf(doc: JsonObject, ptr: string): string {
  const resolved = resolvePointer(doc, ptr);
  const node = get(doc, resolved);
  if (isObject(node) && isObject(node['items'])) return `${resolved}/items`;
  return resolved;
}

/**
 * An Ajv (JSON Schema 2020-12, with ajv-formats) holding one bundled document under `id`, so any of its
 * schemas compiles as `{ $ref: '<id>#<pointer>' }`. Strict mode is off: OpenAPI and AsyncAPI schemas carry
 * `example`, `x-*`, `discriminator` ... OpenAPI formats JSON Schema does not define accept any value.
 */
export function bundleAjv(doc: JsonObject, id: string): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, logger: false });
  addFormats.default(ajv); // CommonJS module: `.default` is the plugin
  for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) ajv.addFormat(format, true);
  ajv.addKeyword(decimalPlacesKeyword);
  ajv.addSchema(doc as object, id);
  return ajv;
}

/** Ajv validators for the schemas of one bundled document, addressed by JSON Pointer. */
export class SchemaValidator {
  readonly ajv: Ajv2020;
  readonly id: string;
  constructor(doc: JsonObject, name: string) {
    this.id = `${name}.json`;
    this.ajv = bundleAjv(doc, this.id);
  }
  /** The validator of the schema at a JSON Pointer (throws when it does not compile). */
  at(ptr: string): ValidateFunction {
    const ref = `${this.id}#${ptr.split('/').map(encodeURIComponent).join('/')}`;
    const validate = this.ajv.getSchema(ref);
    if (!validate) throw new Error(`no schema at ${ptr}`);
    return validate;
  }
  /** Validates a value; returns the error text, or undefined when valid. */
  check(ptr: string, value: unknown): string | undefined {
    const validate = this.at(ptr);
    return validate(value) ? undefined : this.ajv.errorsText(validate.errors, { dataVar: 'example' });
  }
}

/** Tells whether a value matches the schema at a pointer (chooses the `oneOf`/`anyOf` branches that apply). */
export type SchemaMatcher = (ptr: string, value: unknown) => boolean;

/**
 * The fields of `value` that the schema at `ptr` does not document, as JSON Pointers into the value
 * (`/data/fees/extra`). Follows `$ref`, every `allOf` member, the `oneOf`/`anyOf` branches the value matches
 * (all branches when none does), `properties` into nested objects and `items` into arrays. A field is
 * documented when a schema that applies lists it in `properties` or `patternProperties`, or declares the object
 * a map (`additionalProperties` a schema, which is then followed, or an explicit `true`).
 * Response and event schemas are open (docs/compatibility.md), so validation accepts such fields; this
 * is how the example checks and the conformance suite still see them.
 */
export function undocumentedFields(doc: JsonObject, ptr: string, value: unknown, matches: SchemaMatcher): string[] {
  const found: string[] = [];
  /** The schemas that apply to `v`: the pointers themselves, their allOf members and matching branches. */
  const expand = (ptrs: string[], v: unknown): string[] => {
    const out: string[] = [];
    const visit = (at: string, depth: number): void => {
      if (depth > 30) return;
      const resolved = resolvePointer(doc, at);
      const node = get(doc, resolved);
      if (!isObject(node) || out.includes(resolved)) return;
      out.push(resolved);
      if (Array.isArray(node['allOf'])) for (const i of node['allOf'].keys()) visit(`${resolved}/allOf/${i}`, depth + 1);
      for (const key of ['oneOf', 'anyOf']) {
        const list = node[key];
        if (!Array.isArray(list)) continue;
        const branches = list.map((_, i) => `${resolved}/${key}/${i}`);
        const matching = branches.filter((b) => matches(b, v));
        for (const b of matching.length > 0 ? matching : branches) visit(b, depth + 1);
      }
    };
    for (const p of ptrs) visit(p, 0);
    return out;
  };
  const walk = (ptrs: string[], v: unknown, at: string): void => {
    const schemas = expand(ptrs, v).map((p) => ({ p, node: get(doc, p) as JsonObject }));
    if (Array.isArray(v)) {
      const items = schemas.filter((s) => isObject(s.node['items'])).map((s) => `${s.p}/items`);
      if (items.length > 0) for (const [i, item] of v.entries()) walk(items, item, `${at}/${i}`);
      return;
    }
    if (!isObject(v)) return;
    for (const [name, child] of Object.entries(v)) {
      const props = schemas
        .filter((s) => isObject(s.node['properties']) && name in s.node['properties'])
        .map((s) => `${s.p}/properties/${escapeToken(name)}`);
      const patterns = schemas.flatMap((s) =>
        isObject(s.node['patternProperties'])
          ? Object.keys(s.node['patternProperties'])
              .filter((re) => new RegExp(re, 'u').test(name))
              .map((re) => `${s.p}/patternProperties/${escapeToken(re)}`)
          : [],
      );
      const maps = schemas.filter((s) => isObject(s.node['additionalProperties'])).map((s) => `${s.p}/additionalProperties`);
      const childPtrs = [...props, ...patterns, ...(props.length + patterns.length === 0 ? maps : [])];
      if (childPtrs.length > 0) walk(childPtrs, child, `${at}/${escapeToken(name)}`);
      else if (!schemas.some((s) => s.node['additionalProperties'] === true)) found.push(`${at}/${escapeToken(name)}`);
    }
  };
  walk([ptr], value, '');
  return found;
}
