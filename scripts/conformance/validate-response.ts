// Strict validation of an HTTP response against the OpenAPI 3.1 bundle (generated/openapi.json), with
// Ajv's JSON Schema 2020-12 dialect: the status must be documented for the operation, the body must match
// the response schema, and an error must use the failure envelope with a code the operation documents for
// that status. Response schemas are open (docs/compatibility.md): a field the contract does not document is
// not an error; `undocumented()` lists such fields, and the suite reports each one as a warning.
//
// Reusable outside Dredd (the sandbox, tests, other tools):
//   const errors = validateResponse(bundle, 'GET', '/cards/{code}', 200, body);
//   errors: [{ pointer: '/data/status', message: "must be one of: ... (got 'exploded')" }]
import type { ErrorObject, ValidateFunction } from 'ajv';
import { HTTP_METHODS, escapeToken, get, isObject, type Json, type JsonObject } from '../lib/pointer.ts';
import { bundleAjv, undocumentedFields } from '../lib/schema.ts';

export type OpenApiBundle = JsonObject;

export interface ResponseError {
  /** JSON pointer into the response body ('' is the whole body; 'status' and 'content-type' are not pointers). */
  pointer: string;
  message: string;
}

export interface NamedExample {
  name: string;
  value: Json;
}

const BUNDLE_ID = 'https://conformance.local/openapi.json';

/** Follows `$ref`s of an object (response, schema, example) until a concrete one; returns it and its pointer. */
function deref(root: JsonObject, node: Json | undefined, pointer: string): { node: Json | undefined; pointer: string } {
  let seen = 0;
  while (isObject(node) && typeof node.$ref === 'string' && seen++ < 20) {
    pointer = node.$ref;
    node = get(root, node.$ref);
  }
  return { node, pointer };
}

/** Media type without parameters, lowercased: `application/json; charset=utf-8` -> `application/json`. */
export function normaliseContentType(value: string | undefined | null): string {
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function valueAt(body: unknown, pointer: string): unknown {
  let node: unknown = body;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = node[key];
    else return undefined;
  }
  return node;
}

/** Turns Ajv errors into short pointer + message pairs, dropping the combinator noise. */
export function formatAjvErrors(errors: ErrorObject[] | null | undefined, body: unknown): ResponseError[] {
  const out: ResponseError[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    if (['allOf', 'anyOf', 'oneOf', 'if', 'not'].includes(e.keyword) && (errors?.length ?? 0) > 1) continue;
    let pointer = e.instancePath;
    let message: string;
    const params = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case 'required':
        pointer = `${pointer}/${escapeToken(String(params.missingProperty))}`;
        message = 'is required but missing';
        break;
      case 'additionalProperties':
        pointer = `${pointer}/${escapeToken(String(params.additionalProperty))}`;
        message = 'is not allowed (the schema is closed: additionalProperties false)';
        break;
      case 'unevaluatedProperties':
        pointer = `${pointer}/${escapeToken(String(params.unevaluatedProperty))}`;
        message = 'is not allowed (the schema is closed: unevaluatedProperties false)';
        break;
      case 'enum':
        message = `must be one of ${(params.allowedValues as unknown[]).map((v) => describeValue(v)).join(', ')} (got ${describeValue(valueAt(body, pointer))})`;
        break;
      case 'const':
        message = `must be ${describeValue(params.allowedValue)} (got ${describeValue(valueAt(body, pointer))})`;
        break;
      case 'type':
        message = `must be ${String(params.type)} (got ${describeValue(valueAt(body, pointer))})`;
        break;
      case 'format':
        message = `must be a valid ${String(params.format)} (got ${describeValue(valueAt(body, pointer))})`;
        break;
      default:
        message = `${e.message ?? e.keyword} (got ${describeValue(valueAt(body, pointer))})`;
    }
    const key = `${pointer} ${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ pointer, message });
  }
  return out;
}

/** `'/data/status': must be one of ...` lines, for reports. */
export function formatErrors(errors: ResponseError[], max = 8): string {
  const lines = errors.slice(0, max).map((e) => `${e.pointer === '' ? '(body)' : e.pointer}: ${e.message}`);
  if (errors.length > max) lines.push(`... and ${errors.length - max} more`);
  return lines.join('\n');
}

export interface OperationInfo {
  method: string;
  path: string;
  operationId: string | undefined;
  operation: JsonObject;
  /** Documented response keys, as written: '200', '404', '4XX', 'default'. */
  statuses: string[];
}

export interface ResponseValidator {
  bundle: OpenApiBundle;
  operations(): OperationInfo[];
  operation(method: string, pathTemplate: string): OperationInfo | undefined;
  /** The documented response key that covers `status` ('404', '4XX' or 'default'), if any. */
  responseKey(method: string, pathTemplate: string, status: number | string): string | undefined;
  /** Error codes the operation documents for this status (from the `const` of each error schema). */
  errorCodes(method: string, pathTemplate: string, status: number | string): string[];
  /** Named examples of the response for this status and media type. */
  examples(method: string, pathTemplate: string, status: number | string, mediaType?: string): NamedExample[];
  validate(method: string, pathTemplate: string, status: number | string, body: unknown, contentType?: string): ResponseError[];
  /**
   * The fields of a response body that the contract does not document for this status (JSON Pointers into
   * the body: '/data/internal_id'). Empty when the status or the body is not documented.
   */
  undocumented(method: string, pathTemplate: string, status: number | string, body: unknown, contentType?: string): string[];
  /** Response headers: required ones present, present ones matching their schema. */
  validateHeaders(
    method: string,
    pathTemplate: string,
    status: number | string,
    headers: Record<string, string | string[] | undefined>,
  ): ResponseError[];
  /** Documented response headers for this status: name -> required. */
  documentedHeaders(method: string, pathTemplate: string, status: number | string): Map<string, boolean>;
}

/** Builds a validator for one bundle. Schemas are compiled once, on first use. */
export function createResponseValidator(bundle: OpenApiBundle): ResponseValidator {
  const ajv = bundleAjv(bundle, BUNDLE_ID);
  const compiled = new Map<string, ValidateFunction>();
  const compile = (pointer: string): ValidateFunction => {
    let fn = compiled.get(pointer);
    if (!fn) {
      fn = ajv.compile({ $ref: `${BUNDLE_ID}${pointer}` });
      compiled.set(pointer, fn);
    }
    return fn;
  };

  const paths = isObject(bundle.paths) ? bundle.paths : {};
  const operation = (method: string, pathTemplate: string): OperationInfo | undefined => {
    const item = paths[pathTemplate];
    const m = method.toLowerCase();
    if (!isObject(item) || !isObject(item[m])) return undefined;
    const op = item[m] as JsonObject;
    const responses = isObject(op.responses) ? op.responses : {};
    return {
      method: m.toUpperCase(),
      path: pathTemplate,
      operationId: typeof op.operationId === 'string' ? op.operationId : undefined,
      operation: op,
      statuses: Object.keys(responses),
    };
  };

  const responseKey = (method: string, pathTemplate: string, status: number | string): string | undefined => {
    const info = operation(method, pathTemplate);
    if (!info) return undefined;
    const s = String(status);
    if (info.statuses.includes(s)) return s;
    const range = `${s[0]}XX`;
    return info.statuses.find((k) => k.toUpperCase() === range) ?? (info.statuses.includes('default') ? 'default' : undefined);
  };

  /** The concrete response object for a status, and the pointer of its `content`. */
  const response = (method: string, pathTemplate: string, key: string) => {
    const start = `#/paths/${escapeToken(pathTemplate)}/${method.toLowerCase()}/responses/${escapeToken(key)}`;
    const { node, pointer } = deref(bundle, get(bundle, start), start);
    return { node: isObject(node) ? node : undefined, pointer };
  };

  /** Error schema branches of a response schema: one per code (a oneOf of error schemas, or one schema). */
  const errorBranches = (schemaPointer: string): { code: string | undefined; pointer: string }[] => {
    const { node: schema, pointer } = deref(bundle, get(bundle, schemaPointer), schemaPointer);
    if (!isObject(schema)) return [];
    const branches = Array.isArray(schema.oneOf)
      ? schema.oneOf.map((_, i) => `${pointer}/oneOf/${i}`)
      : Array.isArray(schema.anyOf)
        ? schema.anyOf.map((_, i) => `${pointer}/anyOf/${i}`)
        : [pointer];
    return branches.map((p) => ({ code: constCode(p), pointer: p }));
  };

  /** The `const` of `error.code` in an error schema (directly or in one of its allOf members). */
  const constCode = (schemaPointer: string, depth = 0): string | undefined => {
    const { node, pointer } = deref(bundle, get(bundle, schemaPointer), schemaPointer);
    if (!isObject(node) || depth > 5) return undefined;
    const props = isObject(node.properties) ? node.properties : undefined;
    const error = props && isObject(props.error) ? props.error : undefined;
    const code = error && isObject(error.properties) ? error.properties.code : undefined;
    if (isObject(code) && typeof code.const === 'string') return code.const;
    if (Array.isArray(node.allOf)) {
      for (let i = 0; i < node.allOf.length; i++) {
        const found = constCode(`${pointer}/allOf/${i}`, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  };

  const errorCodes = (method: string, pathTemplate: string, status: number | string): string[] => {
    const key = responseKey(method, pathTemplate, status);
    if (!key) return [];
    const { node, pointer } = response(method, pathTemplate, key);
    const content = node && isObject(node.content) ? node.content : {};
    const mediaType = Object.keys(content).find((m) => m.includes('json'));
    if (!mediaType) return [];
    const codes = errorBranches(`${pointer}/content/${escapeToken(mediaType)}/schema`)
      .map((b) => b.code)
      .filter((c): c is string => typeof c === 'string');
    return [...new Set(codes)];
  };

  const examples = (method: string, pathTemplate: string, status: number | string, mediaType = 'application/json'): NamedExample[] => {
    const key = responseKey(method, pathTemplate, status);
    if (!key) return [];
    const { node } = response(method, pathTemplate, key);
    const content = node && isObject(node.content) ? node.content : {};
    const media = content[mediaType];
    if (!isObject(media)) return [];
    if (isObject(media.examples)) {
      return Object.entries(media.examples).map(([name, ex]) => {
        const { node: resolved } = deref(bundle, ex, '');
        return { name, value: isObject(resolved) && 'value' in resolved ? (resolved.value as Json) : null };
      });
    }
    return 'example' in media ? [{ name: 'example', value: media.example as Json }] : [];
  };

  const envelopePointer =
    isObject(bundle.components) && isObject(bundle.components.schemas) && 'ErrorEnvelope' in bundle.components.schemas
      ? '#/components/schemas/ErrorEnvelope'
      : undefined;

  const validate = (
    method: string,
    pathTemplate: string,
    status: number | string,
    body: unknown,
    contentType?: string,
  ): ResponseError[] => {
    const info = operation(method, pathTemplate);
    const label = `${method.toUpperCase()} ${pathTemplate}`;
    if (!info) return [{ pointer: 'operation', message: `${label} is not an operation of the contract` }];
    const key = responseKey(method, pathTemplate, status);
    if (!key) {
      return [
        {
          pointer: 'status',
          message: `status ${status} is not documented for ${label} (documented: ${info.statuses.join(', ')})`,
        },
      ];
    }
    const { node, pointer } = response(method, pathTemplate, key);
    const content = node && isObject(node.content) ? node.content : undefined;
    if (!content || Object.keys(content).length === 0) {
      return body === undefined || body === '' ? [] : [{ pointer: '', message: `${label} ${status} documents no body, but one was sent` }];
    }
    const mediaType = contentType !== undefined ? normaliseContentType(contentType) : 'application/json';
    if (!(mediaType in content)) {
      return [
        {
          pointer: 'content-type',
          message: `Content-Type '${contentType}' is not documented for ${label} ${status} (documented: ${Object.keys(content).join(', ')})`,
        },
      ];
    }
    let data: unknown = body;
    if (typeof body === 'string' && mediaType.includes('json')) {
      try {
        data = JSON.parse(body);
      } catch {
        return [{ pointer: '', message: `body is not valid JSON: ${describeValue(body)}` }];
      }
    }
    const schemaPointer = `${pointer}/content/${escapeToken(mediaType)}/schema`;
    if (get(bundle, schemaPointer) === undefined) return [];
    const isError = Number(status) >= 400;
    if (isError && envelopePointer) {
      // 1. The failure envelope itself.
      const envelope = compile(envelopePointer);
      if (!envelope(data)) {
        return formatAjvErrors(envelope.errors, data).map((e) => ({
          pointer: e.pointer,
          message: `${e.message} (an error must use the failure envelope { success: false, error: { code, message, details }, meta? })`,
        }));
      }
      // 2. A code the operation documents for this status; 3. that code's schema (its details shape).
      const code = (data as { error: { code: string } }).error.code;
      const branches = errorBranches(schemaPointer);
      const documented = branches.map((b) => b.code).filter((c): c is string => !!c);
      if (documented.length > 0) {
        const branch = branches.find((b) => b.code === code);
        if (!branch) {
          return [
            {
              pointer: '/error/code',
              message: `error code '${code}' is not documented for ${label} ${status} (documented: ${documented.join(', ')})`,
            },
          ];
        }
        const fn = compile(branch.pointer);
        return fn(data) ? [] : formatAjvErrors(fn.errors, data);
      }
    }
    const fn = compile(schemaPointer);
    return fn(data) ? [] : formatAjvErrors(fn.errors, data);
  };

  const undocumented = (method: string, pathTemplate: string, status: number | string, body: unknown, contentType?: string): string[] => {
    const key = responseKey(method, pathTemplate, status);
    if (!key) return [];
    const { node, pointer } = response(method, pathTemplate, key);
    const content = node && isObject(node.content) ? node.content : {};
    const mediaType = contentType !== undefined ? normaliseContentType(contentType) : 'application/json';
    if (!(mediaType in content) || !mediaType.includes('json')) return [];
    let data: unknown = body;
    if (typeof body === 'string') {
      try {
        data = JSON.parse(body);
      } catch {
        return [];
      }
    }
    const schemaPointer = `${pointer}/content/${escapeToken(mediaType)}/schema`;
    if (get(bundle, schemaPointer) === undefined) return [];
    // An error: the schema of its code, as validate() does.
    const code = isObject(data) && isObject(data.error) ? data.error.code : undefined;
    const branch = Number(status) >= 400 ? errorBranches(schemaPointer).find((b) => b.code === code) : undefined;
    const matches = (ptr: string, value: unknown) => compile(ptr.startsWith('#') ? ptr : `#${ptr}`)(value) === true;
    const start = (branch?.pointer ?? schemaPointer).replace(/^#/, '');
    return undocumentedFields(bundle, start, data, (ptr, value) => matches(ptr, value));
  };

  const headerDefs = (method: string, pathTemplate: string, status: number | string) => {
    const key = responseKey(method, pathTemplate, status);
    const out: { name: string; required: boolean; schemaPointer?: string }[] = [];
    if (!key) return out;
    const { node, pointer } = response(method, pathTemplate, key);
    const headers = node && isObject(node.headers) ? node.headers : {};
    for (const name of Object.keys(headers)) {
      const start = `${pointer}/headers/${escapeToken(name)}`;
      const { node: h, pointer: hp } = deref(bundle, get(bundle, start), start);
      if (!isObject(h)) continue;
      out.push({ name, required: h.required === true, schemaPointer: isObject(h.schema) ? `${hp}/schema` : undefined });
    }
    return out;
  };

  const documentedHeaders = (method: string, pathTemplate: string, status: number | string) =>
    new Map(headerDefs(method, pathTemplate, status).map((h) => [h.name, h.required]));

  const validateHeaders = (
    method: string,
    pathTemplate: string,
    status: number | string,
    headers: Record<string, string | string[] | undefined>,
  ): ResponseError[] => {
    const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v]));
    const errors: ResponseError[] = [];
    for (const h of headerDefs(method, pathTemplate, status)) {
      if (h.name.toLowerCase() === 'content-type') continue;
      const raw = lower.get(h.name.toLowerCase());
      if (raw === undefined) {
        if (h.required) errors.push({ pointer: `header ${h.name}`, message: 'is required but missing' });
        continue;
      }
      if (!h.schemaPointer) continue;
      const { node: schema } = deref(bundle, get(bundle, h.schemaPointer), h.schemaPointer);
      const type = isObject(schema) ? schema.type : undefined;
      const numeric =
        type === 'integer' || type === 'number' || (Array.isArray(type) && (type.includes('integer') || type.includes('number')));
      const value: unknown =
        numeric && /^-?\d+(\.\d+)?$/.test(raw.trim())
          ? Number(raw)
          : type === 'boolean' && /^(true|false)$/.test(raw)
            ? raw === 'true'
            : raw;
      const fn = compile(h.schemaPointer);
      if (!fn(value)) {
        for (const e of formatAjvErrors(fn.errors, value)) errors.push({ pointer: `header ${h.name}`, message: e.message });
      }
    }
    return errors;
  };

  const operations = (): OperationInfo[] =>
    Object.keys(paths).flatMap((p) => HTTP_METHODS.map((m) => operation(m, p)).filter((o): o is OperationInfo => o !== undefined));

  return { bundle, operations, operation, responseKey, errorCodes, examples, validate, undocumented, validateHeaders, documentedHeaders };
}

const cache = new WeakMap<object, ResponseValidator>();

/** One-call form: validates a response (status and body) of `method pathTemplate`; [] when it conforms. */
export function validateResponse(
  bundle: OpenApiBundle,
  method: string,
  pathTemplate: string,
  status: number | string,
  body: unknown,
  contentType?: string,
): ResponseError[] {
  let validator = cache.get(bundle);
  if (!validator) {
    validator = createResponseValidator(bundle);
    cache.set(bundle, validator);
  }
  return validator.validate(method, pathTemplate, status, body, contentType);
}

/** The path template of the contract that a concrete path matches: `/cards/abc` -> `/cards/{code}`. */
export function matchPathTemplate(bundle: OpenApiBundle, method: string, concretePath: string): string | undefined {
  const path = concretePath.split('?')[0]!;
  const paths = isObject(bundle.paths) ? Object.keys(bundle.paths) : [];
  const m = method.toLowerCase();
  const candidates = paths.filter((template) => {
    const item = (bundle.paths as JsonObject)[template];
    if (!isObject(item) || !isObject(item[m])) return false;
    const re = new RegExp(
      `^${template
        .split(/\{[^}]+\}/)
        .map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+')}$`,
    );
    return re.test(path);
  });
  // Literal segments win over parameters: /payouts/quotes before /payouts/{code}.
  candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  return candidates[0];
}
