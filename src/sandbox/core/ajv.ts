// The sandbox's request validators: Ajv (JSON Schema 2020-12), one instance for bodies (no coercion, no
// stripping: `{"amount":"50","foo":1}` is refused) and one for path, query and header parameters (strings
// coerced to the declared types, single values to arrays). Every `x-` keyword of the contract is known
// vocabulary; `x-decimal-places` validates (an amount with more decimals than it allows is refused).
// The package's validators are this same Ajv's standalone code, compiled by `npm run build:lib`
// (./precompiled.ts): Ajv itself is loaded only when a validator is compiled here, not on every start.
import { createRequire } from 'node:module';
import type { Ajv2020, Options } from 'ajv/dist/2020.js';
import type { FastifySchemaValidationError } from 'fastify';
import { decimalPlacesKeyword } from '../../contract/decimal-places.js';
import type { JsonObject } from './contract.js';
import { PRECOMPILED_KEY, precompiledValidator } from './precompiled.js';

const require = createRequire(import.meta.url);

/** Every `x-` key used anywhere in the document. */
export function extensionKeywords(doc: JsonObject): string[] {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key.startsWith('x-')) found.add(key);
        visit(value);
      }
    }
  };
  visit(doc);
  found.delete('x-decimal-places');
  return [...found].sort();
}

/** The validators' Ajv for a document; `options` adds to them (the build's `code: { source: true }`). */
export function createAjv(doc: JsonObject, kind: 'body' | 'params', options: Options = {}): Ajv2020 {
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    coerceTypes: kind === 'params' ? 'array' : false,
    removeAdditional: false,
    useDefaults: kind === 'params',
    logger: false,
    ...options,
  });
  addFormats(ajv);
  for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) ajv.addFormat(format, true);
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs', ...extensionKeywords(doc)]);
  ajv.addKeyword(decimalPlacesKeyword);
  return ajv;
}

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };
interface Validators {
  body?: Ajv2020;
  params?: Ajv2020;
  /** By `httpPart method url`: every sandbox of the process routes the same document the same way. */
  compiled: Map<string, Validate>;
}
const validatorsOf = new WeakMap<JsonObject, Validators>();

/**
 * fastify's validator compiler for the routes of a document (the partner API and the simulation API). Each
 * route's validator is loaded (precompiled) or compiled at its first request, not at the start (compiling them
 * all was most of a start), once per process: every sandbox in it shares it. An Ajv validator keeps no state
 * between calls but `errors`, which fastify reads at once.
 */
export function sharedValidatorCompiler(document: JsonObject) {
  let validators = validatorsOf.get(document);
  if (!validators) {
    validators = { compiled: new Map() };
    validatorsOf.set(document, validators);
  }
  const shared = validators;
  const compile = (schema: object, kind: 'body' | 'params'): Validate => {
    shared[kind] ??= createAjv(document, kind);
    return shared[kind].compile(schema) as Validate;
  };
  return ({ schema, httpPart, method, url }: { schema: unknown; httpPart?: string; method: string; url: string }): Validate => {
    const key = `${httpPart} ${method} ${url}`;
    const known = shared.compiled.get(key);
    if (known) return known;
    const precompiled = (schema as JsonObject | null)?.[PRECOMPILED_KEY];
    let compiledOnce: Validate | undefined;
    const validate: Validate = (data) => {
      compiledOnce ??=
        typeof precompiled === 'string'
          ? (precompiledValidator(precompiled) as Validate)
          : compile(schema as object, httpPart === 'body' ? 'body' : 'params');
      const valid = compiledOnce(data);
      validate.errors = compiledOnce.errors;
      return valid;
    };
    shared.compiled.set(key, validate);
    return validate;
  };
}
