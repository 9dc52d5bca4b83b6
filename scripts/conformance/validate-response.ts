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
import { contractModel, type ContractModel, type Response } from '../../src/contract/model.ts';
import { escapeToken, get, isObject, type Json, type JsonObject } from '../lib/pointer.ts';
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

/** Media type without parameters, lowercased: `application/json; charset=utf-8` -> `application/json`. */
export function normaliseContentType(value: string | undefined | null): string {
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The value at an Ajv instance path: a plain JSON Pointer, whose `%` is a character and not a URI escape. */
const bodyValue = (body: unknown, pointer: string): unknown => get(body, pointer.replaceAll('%', '%25'));

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
        message = `must be one of ${(params.allowedValues as unknown[]).map((v) => describeValue(v)).join(', ')} (got ${describeValue(bodyValue(body, pointer))})`;
        break;
      case 'const':
        message = `must be ${describeValue(params.allowedValue)} (got ${describeValue(bodyValue(body, pointer))})`;
        break;
      case 'type':
        message = `must be ${String(params.type)} (got ${describeValue(bodyValue(body, pointer))})`;
        break;
      case 'format':
        message = `must be a valid ${String(params.format)} (got ${describeValue(bodyValue(body, pointer))})`;
        break;
      default:
        message = `${e.message ?? e.keyword} (got ${describeValue(bodyValue(body, pointer))})`;
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
  return new BundleResponses(bundle);
}

/** A header's raw value as its schema types it: a number or a boolean when the schema says so, else the text. */
function headerValue(schema: Json | undefined, raw: string): unknown {
  const type = isObject(schema) ? schema.type : undefined;
  const numeric = type === 'integer' || type === 'number' || (Array.isArray(type) && (type.includes('integer') || type.includes('number')));
  if (numeric && /^-?\d+(\.\d+)?$/.test(raw.trim())) return Number(raw);
  if (type === 'boolean' && /^(true|false)$/.test(raw)) return raw === 'true';
  return raw;
}

/** A body as sent: parsed when it is JSON text, else as it is; `invalid` when it claims JSON and is not. */
function parsedBody(body: unknown, mediaType: string): { data: unknown } | { invalid: true } {
  if (typeof body !== 'string' || !mediaType.includes('json')) return { data: body };
  try {
    return { data: JSON.parse(body) };
  } catch {
    return { invalid: true };
  }
}

/** The responses of one bundle, read through its JSON Pointers, with their schemas compiled on first use. */
class BundleResponses implements ResponseValidator {
  readonly bundle: OpenApiBundle;
  private readonly ajv: ReturnType<typeof bundleAjv>;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly model: ContractModel;
  private readonly envelopePointer: string | undefined;

  constructor(bundle: OpenApiBundle) {
    this.bundle = bundle;
    this.ajv = bundleAjv(bundle, BUNDLE_ID);
    this.model = contractModel(bundle);
    this.envelopePointer = this.model.schemaNames.includes('ErrorEnvelope') ? '/components/schemas/ErrorEnvelope' : undefined;
  }

  /** The validator of the schema at a pointer of the bundle (with or without its leading `#`). */
  private compile(pointer: string): ValidateFunction {
    const ref = pointer.replace(/^#/, '');
    let fn = this.compiled.get(ref);
    if (!fn) {
      fn = this.ajv.compile({ $ref: `${BUNDLE_ID}#${ref}` });
      this.compiled.set(ref, fn);
    }
    return fn;
  }

  operations(): OperationInfo[] {
    return this.model.operations.map((o) => this.operation(o.method, o.path)!);
  }

  operation(method: string, pathTemplate: string): OperationInfo | undefined {
    const op = this.model.byPath(method, pathTemplate);
    if (!op) return undefined;
    return {
      method: op.method.toUpperCase(),
      path: pathTemplate,
      operationId: op.operationId || undefined,
      operation: op.node,
      statuses: op.statuses,
    };
  }

  responseKey(method: string, pathTemplate: string, status: number | string): string | undefined {
    const info = this.operation(method, pathTemplate);
    if (!info) return undefined;
    const s = String(status);
    if (info.statuses.includes(s)) return s;
    const range = `${s[0]}XX`;
    return info.statuses.find((k) => k.toUpperCase() === range) ?? (info.statuses.includes('default') ? 'default' : undefined);
  }

  /** The response that covers `status` (resolved, its pointer that of the Response Object), with its `content`. */
  private documented(method: string, pathTemplate: string, status: number | string) {
    const key = this.responseKey(method, pathTemplate, status);
    if (!key) return undefined;
    const response: Response | undefined = this.model.byPath(method, pathTemplate)?.response(key);
    const at = `/paths/${escapeToken(pathTemplate)}/${method.toLowerCase()}/responses/${escapeToken(key)}`;
    const content = response && isObject(response.node.content) ? response.node.content : {};
    return { response, pointer: response?.pointer ?? at, content };
  }

  /** Error schema branches of a response schema: one per code (a oneOf of error schemas, or one schema). */
  private errorBranches(schemaPointer: string): { code: string | undefined; pointer: string }[] {
    const { node: schema, pointer } = this.model.resolvePointer(schemaPointer);
    if (!isObject(schema)) return [];
    const branches = Array.isArray(schema.oneOf)
      ? schema.oneOf.map((_, i) => `${pointer}/oneOf/${i}`)
      : Array.isArray(schema.anyOf)
        ? schema.anyOf.map((_, i) => `${pointer}/anyOf/${i}`)
        : [pointer];
    return branches.map((p) => ({ code: this.constCode(p), pointer: p }));
  }

  /** The `const` of `error.code` in an error schema (directly or in one of its allOf members). */
  private constCode(schemaPointer: string, depth = 0): string | undefined {
    const { node, pointer } = this.model.resolvePointer(schemaPointer);
    if (!isObject(node) || depth > 5) return undefined;
    const props = isObject(node.properties) ? node.properties : undefined;
    const error = props && isObject(props.error) ? props.error : undefined;
    const code = error && isObject(error.properties) ? error.properties.code : undefined;
    if (isObject(code) && typeof code.const === 'string') return code.const;
    if (Array.isArray(node.allOf)) {
      for (let i = 0; i < node.allOf.length; i++) {
        const found = this.constCode(`${pointer}/allOf/${i}`, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  }

  errorCodes(method: string, pathTemplate: string, status: number | string): string[] {
    const found = this.documented(method, pathTemplate, status);
    const mediaType = found && Object.keys(found.content).find((m) => m.includes('json'));
    if (!found || !mediaType) return [];
    const codes = this.errorBranches(`${found.pointer}/content/${escapeToken(mediaType)}/schema`)
      .map((b) => b.code)
      .filter((c): c is string => typeof c === 'string');
    return [...new Set(codes)];
  }

  examples(method: string, pathTemplate: string, status: number | string, mediaType = 'application/json'): NamedExample[] {
    const media = this.documented(method, pathTemplate, status)?.content[mediaType];
    if (!isObject(media)) return [];
    if (isObject(media.examples)) {
      return Object.entries(media.examples).map(([name, ex]) => {
        const { node: resolved } = this.model.resolve(ex);
        return { name, value: isObject(resolved) && 'value' in resolved ? (resolved.value as Json) : null };
      });
    }
    return 'example' in media ? [{ name: 'example', value: media.example as Json }] : [];
  }

  validate(method: string, pathTemplate: string, status: number | string, body: unknown, contentType?: string): ResponseError[] {
    const info = this.operation(method, pathTemplate);
    const label = `${method.toUpperCase()} ${pathTemplate}`;
    if (!info) return [{ pointer: 'operation', message: `${label} is not an operation of the contract` }];
    const found = this.documented(method, pathTemplate, status);
    if (!found) {
      const message = `status ${status} is not documented for ${label} (documented: ${info.statuses.join(', ')})`;
      return [{ pointer: 'status', message }];
    }
    const { content, pointer } = found;
    if (Object.keys(content).length === 0) {
      return body === undefined || body === '' ? [] : [{ pointer: '', message: `${label} ${status} documents no body, but one was sent` }];
    }
    const mediaType = contentType !== undefined ? normaliseContentType(contentType) : 'application/json';
    if (!(mediaType in content)) {
      const message = `Content-Type '${contentType}' is not documented for ${label} ${status} (documented: ${Object.keys(content).join(', ')})`;
      return [{ pointer: 'content-type', message }];
    }
    const parsed = parsedBody(body, mediaType);
    if ('invalid' in parsed) return [{ pointer: '', message: `body is not valid JSON: ${describeValue(body)}` }];
    const schemaPointer = `${pointer}/content/${escapeToken(mediaType)}/schema`;
    if (get(this.bundle, schemaPointer) === undefined) return [];
    if (Number(status) >= 400 && this.envelopePointer) {
      const problems = this.errorProblems(schemaPointer, parsed.data, `${label} ${status}`);
      if (problems) return problems;
    }
    const fn = this.compile(schemaPointer);
    return fn(parsed.data) ? [] : formatAjvErrors(fn.errors, parsed.data);
  }

  /**
   * An error answer: 1. the failure envelope itself; 2. a code the operation documents for this status; 3. that
   * code's schema (its details shape). Undefined when the response documents no code: its schema then decides.
   */
  private errorProblems(schemaPointer: string, data: unknown, label: string): ResponseError[] | undefined {
    const envelope = this.compile(this.envelopePointer!);
    if (!envelope(data)) {
      return formatAjvErrors(envelope.errors, data).map((e) => ({
        pointer: e.pointer,
        message: `${e.message} (an error must use the failure envelope { success: false, error: { code, message, details }, meta? })`,
      }));
    }
    const code = (data as { error: { code: string } }).error.code;
    const branches = this.errorBranches(schemaPointer);
    const documented = branches.map((b) => b.code).filter((c): c is string => !!c);
    if (documented.length === 0) return undefined;
    const branch = branches.find((b) => b.code === code);
    if (!branch) {
      return [
        { pointer: '/error/code', message: `error code '${code}' is not documented for ${label} (documented: ${documented.join(', ')})` },
      ];
    }
    const fn = this.compile(branch.pointer);
    return fn(data) ? [] : formatAjvErrors(fn.errors, data);
  }

  undocumented(method: string, pathTemplate: string, status: number | string, body: unknown, contentType?: string): string[] {
    const found = this.documented(method, pathTemplate, status);
    const mediaType = contentType !== undefined ? normaliseContentType(contentType) : 'application/json';
    if (!found || !(mediaType in found.content) || !mediaType.includes('json')) return [];
    const parsed = parsedBody(body, mediaType);
    if ('invalid' in parsed) return [];
    const { data } = parsed;
    const schemaPointer = `${found.pointer}/content/${escapeToken(mediaType)}/schema`;
    if (get(this.bundle, schemaPointer) === undefined) return [];
    // An error: the schema of its code, as validate() does.
    const code = isObject(data) && isObject(data.error) ? data.error.code : undefined;
    const branch = Number(status) >= 400 ? this.errorBranches(schemaPointer).find((b) => b.code === code) : undefined;
    const matches = (ptr: string, value: unknown) => this.compile(ptr)(value) === true;
    const start = (branch?.pointer ?? schemaPointer).replace(/^#/, '');
    return undocumentedFields(this.bundle, start, data, (ptr, value) => matches(ptr, value));
  }

  private headerDefs(method: string, pathTemplate: string, status: number | string) {
    const headers = this.documented(method, pathTemplate, status)?.response?.headers ?? [];
    return headers.map(({ name, node, pointer }) => ({
      name,
      required: node.required === true,
      schemaPointer: isObject(node.schema) ? `${pointer}/schema` : undefined,
    }));
  }

  documentedHeaders(method: string, pathTemplate: string, status: number | string): Map<string, boolean> {
    return new Map(this.headerDefs(method, pathTemplate, status).map((h) => [h.name, h.required]));
  }

  validateHeaders(
    method: string,
    pathTemplate: string,
    status: number | string,
    headers: Record<string, string | string[] | undefined>,
  ): ResponseError[] {
    const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v]));
    const errors: ResponseError[] = [];
    for (const h of this.headerDefs(method, pathTemplate, status)) {
      if (h.name.toLowerCase() === 'content-type') continue;
      const raw = lower.get(h.name.toLowerCase());
      if (raw === undefined) {
        if (h.required) errors.push({ pointer: `header ${h.name}`, message: 'is required but missing' });
        continue;
      }
      if (!h.schemaPointer) continue;
      const value = headerValue(this.model.resolvePointer(h.schemaPointer).node, raw);
      const fn = this.compile(h.schemaPointer);
      if (!fn(value)) {
        for (const e of formatAjvErrors(fn.errors, value)) errors.push({ pointer: `header ${h.name}`, message: e.message });
      }
    }
    return errors;
  }
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
  const m = method.toLowerCase();
  // The model's matcher takes a trailing slash; a request's path that has one (`/customers/`) names no
  // operation of the contract, whose templates have none.
  if (path.endsWith('/')) return undefined;
  // The model's templates come literal segments first: /payouts/quotes before /payouts/{code}.
  return contractModel(bundle).templates.find((t) => t.re.test(path) && t.operations.some((o) => o.method === m))?.template;
}
