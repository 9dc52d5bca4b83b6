// The contract the sandbox serves: generated/openapi.json (shipped with the package), read once, with the
// one sandbox deviation applied (a loopback `http://` webhook url is accepted), and what the server needs
// to know about each operation.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/**
 * The `const` values of the `oneOf` branches of a schema of the contract (`BalanceType`'s provisional `others`):
 * openapi-typescript emits value lists (generated/openapi-values.js) for `enum`s only.
 */
export function constValues<T extends string>(schema: string): T[] {
  const node = ((sandboxDocument().components as JsonObject).schemas as JsonObject)[schema] as JsonObject | undefined;
  if (!node) throw new Error(`the contract has no schema ${schema}`);
  return ((node.oneOf ?? []) as JsonObject[]).filter((branch) => typeof branch.const === 'string').map((branch) => branch.const as T);
}

/** src/sandbox/core and dist/sandbox/core are both three levels under the package root. */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** A loopback `http://` URL (127.0.0.1, ::1 or localhost), which the sandbox accepts for webhook endpoints. */
export const LOOPBACK_HTTP_URL = '^(https://|http://(127\\.0\\.0\\.1|localhost|\\[::1\\])(:[0-9]{1,5})?(/|$))';

export interface OperationInfo {
  operationId: string;
  method: string;
  /** The contract's path template: `/cards/{code}/withdraw`. */
  path: string;
  tag: string;
  bodyRequired: boolean;
  /** The operation documents a 421 `wrong_api_host`: it is served at `{alt_base_url}` (`/api/v1`). */
  altHost: boolean;
  /** The documented response statuses: `['200', '401', ...]`. */
  statuses: string[];
  /** The largest `maxLength` of a string field of the request body (0 without one): a body may need that much. */
  longestBodyString: number;
}

function readJson(file: string): JsonObject {
  return JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, file), 'utf8')) as JsonObject;
}

/** The `https://`-only url fields the sandbox also accepts (and gives) as loopback `http://` urls. */
const LOOPBACK_URL_FIELDS: [schema: string, field: string][] = [
  ...['CreateWebhookEndpointRequest', 'UpdateWebhookEndpointRequest', 'WebhookEndpoint', 'CreatedWebhookEndpoint', 'WebhookTestResult'].map((s): [string, string] => [s, 'url']),
  // The KYC page is served by the sandbox itself, and the person may return to an app on your machine.
  ['KycLink', 'url'],
  ['CreateKycLinkRequest', 'return_url'],
];

/** Replaces the `pattern: ^https://` of LOOPBACK_URL_FIELDS by LOOPBACK_HTTP_URL. */
function allowLoopbackHttpUrls(doc: JsonObject): void {
  const schemas = (doc.components as JsonObject).schemas as JsonObject;
  for (const [name, field] of LOOPBACK_URL_FIELDS) {
    const props = ((schemas[name] as JsonObject | undefined)?.properties ?? {}) as JsonObject;
    const url = props[field] as JsonObject | undefined;
    if (url) url.pattern = LOOPBACK_HTTP_URL;
  }
}

let cached: JsonObject | undefined;
let cachedSimulation: JsonObject | undefined;

/** generated/sandbox.json: the simulation API (spec/sandbox.yaml). */
export function simulationDocument(): JsonObject {
  cachedSimulation ??= readJson('generated/sandbox.json');
  return cachedSimulation;
}

/** generated/openapi.json as the sandbox serves it (a fresh parse; the loopback deviation applied). */
export function sandboxDocument(): JsonObject {
  if (!cached) {
    cached = readJson('generated/openapi.json');
    allowLoopbackHttpUrls(cached);
  }
  return cached;
}

function resolveRef(doc: JsonObject, node: Json | undefined): Json | undefined {
  let at = node;
  for (let i = 0; i < 20 && at && typeof at === 'object' && !Array.isArray(at) && typeof at.$ref === 'string'; i++) {
    const ref = at.$ref as string;
    at = ref
      .slice(2)
      .split('/')
      .reduce<Json | undefined>((n, seg) => (n && typeof n === 'object' && !Array.isArray(n) ? n[seg.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), doc);
  }
  return at;
}

/** The largest `maxLength` of a top-level string property of a request body's JSON schema. */
function longestString(doc: JsonObject, body: JsonObject | undefined): number {
  const media = ((body?.content as JsonObject | undefined)?.['application/json'] ?? {}) as JsonObject;
  const schema = resolveRef(doc, media.schema) as JsonObject | undefined;
  const props = (schema?.properties ?? {}) as JsonObject;
  return Math.max(0, ...Object.values(props).map((p) => Number((resolveRef(doc, p) as JsonObject | undefined)?.maxLength ?? 0)));
}

/** Every operation of a document: id, method, path, tag and whether its body is required. */
export function operationsOf(doc: JsonObject): OperationInfo[] {
  const out: OperationInfo[] = [];
  for (const [p, item] of Object.entries((doc.paths ?? {}) as JsonObject)) {
    for (const method of HTTP_METHODS) {
      const op = (item as JsonObject)[method] as JsonObject | undefined;
      if (!op || typeof op.operationId !== 'string') continue;
      const body = resolveRef(doc, op.requestBody) as JsonObject | undefined;
      const responses = (op.responses ?? {}) as JsonObject;
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path: p,
        tag: Array.isArray(op.tags) ? String(op.tags[0]) : '',
        bodyRequired: body?.required === true,
        altHost: '421' in responses,
        statuses: Object.keys(responses),
        longestBodyString: longestString(doc, body),
      });
    }
  }
  return out;
}

/** The error codes a response schema carries: the `error.code` const of each branch (`oneOf`, `allOf`, `$ref`). */
function errorCodesOf(doc: JsonObject, node: Json | undefined, depth = 0): string[] {
  const schema = resolveRef(doc, node);
  if (!schema || typeof schema !== 'object' || Array.isArray(schema) || depth > 10) return [];
  const code = ((((schema.properties as JsonObject | undefined)?.error as JsonObject | undefined)?.properties as JsonObject | undefined)?.code as JsonObject | undefined)?.const;
  const branches = [...((schema.oneOf ?? []) as Json[]), ...((schema.allOf ?? []) as Json[])];
  return [...(typeof code === 'string' ? [code] : []), ...branches.flatMap((b) => errorCodesOf(doc, b, depth + 1))];
}

/**
 * The HTTP status of each error code, as the operations of a document answer it (`INSUFFICIENT_BALANCE` -> 400).
 * Throws when the document gives a code two statuses.
 */
export function errorStatuses(doc: JsonObject): Map<string, number> {
  const statuses = new Map<string, number>();
  for (const [p, item] of Object.entries((doc.paths ?? {}) as JsonObject)) {
    for (const method of HTTP_METHODS) {
      const responses = (((item as JsonObject)[method] as JsonObject | undefined)?.responses ?? {}) as JsonObject;
      for (const [status, response] of Object.entries(responses)) {
        if (!/^[45][0-9]{2}$/.test(status)) continue;
        const media = (((resolveRef(doc, response) as JsonObject | undefined)?.content as JsonObject | undefined)?.['application/json'] ?? {}) as JsonObject;
        for (const code of errorCodesOf(doc, media.schema)) {
          const known = statuses.get(code);
          if (known !== undefined && known !== Number(status)) throw new Error(`the contract answers ${code} with ${known} and ${status} (${method.toUpperCase()} ${p})`);
          statuses.set(code, Number(status));
        }
      }
    }
  }
  return statuses;
}
