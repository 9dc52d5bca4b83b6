// The API's error envelopes for what Prism answers in its own words: a validation failure (whose real cause
// Prism gives only in its `sl-violations` header), its problem+json errors (no route, no method), a body
// that is not JSON, and a path outside /v1 and /api/v1.
import { randomBytes } from 'node:crypto';
import type { JsonObject } from '../../src/contract/json.ts';
import { contractModel } from '../../src/contract/model.ts';

export interface ErrorEnvelope {
  success: false;
  error: { code: string; message: string; details: unknown };
  meta: { request_id: string; mode: 'test' | 'live'; timestamp: string };
}

/** One entry of Prism's `sl-violations` header. */
export interface Violation {
  location: (string | number)[];
  severity?: string;
  code: string | number;
  message: string;
}

/** One entry of `details.fields` of VALIDATION_ERROR: the field and what is wrong with it (with the rule). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** The meta of an answer the mock builds itself: a fresh request id, the mode of the key, the time now. */
export function mockMeta(authorization: string | undefined): ErrorEnvelope['meta'] {
  return {
    request_id: `req_${randomBytes(8).toString('hex')}`,
    mode: /^bearer\s+sk_live_/i.test(authorization ?? '') ? 'live' : 'test',
    timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

export function errorEnvelope(code: string, message: string, details: unknown, authorization: string | undefined): ErrorEnvelope {
  return { success: false, error: { code, message, details }, meta: mockMeta(authorization) };
}

/** Reads the `sl-violations` header; an absent or unreadable header gives an empty list. */
export function parseViolations(header: string | string[] | undefined): Violation[] {
  if (typeof header !== 'string' || header === '') return [];
  try {
    const parsed: unknown = JSON.parse(header);
    return Array.isArray(parsed) ? parsed.filter(isViolation) : [];
  } catch {
    return [];
  }
}

function isViolation(value: unknown): value is Violation {
  const v = value as Violation;
  return typeof v === 'object' && v !== null && Array.isArray(v.location) && typeof v.message === 'string';
}

// "Request body property amount must be number" -> "must be number"; "Request query parameter limit must be
// <= 100" -> "must be <= 100". Prism names the field in its message; the entry names it once, in `field`.
const PRISM_PREFIX = /^Request (?:body property \S+|body|(?:query|path|header) parameter \S+|header \S+)\s+/;

/**
 * A violation as a `details.fields` entry. `field` is the parameter name or the body property path
 * (`amount`, `beneficiary.iban`, `items.0.amount`); for a missing or unexpected property, that property.
 * `message` says what is wrong and ends with the rule in brackets: `must be <= 100 (maximum)`.
 */
export function fieldProblem(violation: Violation, parameterNames: ReadonlyMap<string, string> = new Map()): FieldProblem {
  const [, where, ...rest] = violation.location.map(String);
  // Prism lowercases parameter names (customercode): `parameterNames` gives them back their case.
  const path = where === 'body' ? rest : rest.slice(0, 1).map((name) => parameterNames.get(name.toLowerCase()) ?? name);
  const named = /(?:required property|additional properties; found) '([^']+)'/.exec(violation.message)?.[1];
  if (named !== undefined) path.push(named);
  const field = path.length > 0 ? path.join('.') : where === 'body' ? 'body' : (where ?? 'request');
  const what = violation.message.replace(PRISM_PREFIX, '');
  return { field, message: `${what} (${String(violation.code)})` };
}

/** The VALIDATION_ERROR envelope with the real causes: `details.fields` and a message that sums them up. */
export function validationFailure(
  violations: Violation[],
  base: ErrorEnvelope | undefined,
  authorization: string | undefined,
  parameterNames?: ReadonlyMap<string, string>,
): ErrorEnvelope {
  const fields = violations.filter((v) => v.severity === undefined || v.severity === 'Error').map((v) => fieldProblem(v, parameterNames));
  const summary = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
  const envelope = base ?? errorEnvelope('VALIDATION_ERROR', '', {}, authorization);
  const details = typeof envelope.error.details === 'object' && envelope.error.details !== null ? envelope.error.details : {};
  return {
    ...envelope,
    error: { ...envelope.error, message: `Validation failed: ${summary}.`, details: { ...details, fields } },
  };
}

/** Every parameter name of an OpenAPI bundle's operations, by its lowercase form (`customercode` -> `customerCode`). */
export function parameterNames(bundle: JsonObject): Map<string, string> {
  const names = new Map<string, string>();
  for (const operation of contractModel(bundle).operations)
    for (const { name } of operation.parameters) names.set(name.toLowerCase(), name);
  return names;
}

/** A request body that is not JSON: refused at once, before Prism (which never answers one). */
export function malformedJson(error: unknown, authorization: string | undefined): ErrorEnvelope {
  const reason = error instanceof Error ? error.message : String(error);
  return errorEnvelope(
    'VALIDATION_ERROR',
    `Validation failed: the request body is not valid JSON (${reason}). Send a JSON object with Content-Type: application/json.`,
    { fields: [{ field: 'body', message: `is not valid JSON: ${reason} (json)` }] },
    authorization,
  );
}

/** No operation at this method and path: the 404 RESOURCE_NOT_FOUND envelope, with a hint at the prefixes. */
export function noOperation(method: string, url: string, hint: string, authorization: string | undefined): ErrorEnvelope {
  return errorEnvelope('RESOURCE_NOT_FOUND', `No operation ${method} ${url} in the API. ${hint}`, null, authorization);
}
