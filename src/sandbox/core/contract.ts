// The contract the sandbox serves: generated/openapi.json (shipped with the package), read once, with the
// one sandbox deviation applied (a loopback `http://` webhook url is accepted), and what the server needs
// to know about each operation.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { JsonObject } from '../../contract/json.js';
import { type ContractModel, contractModel, type Operation } from '../../contract/model.js';
import { PACKAGE_ROOT } from '../../package-info.js';

export type { Json, JsonObject } from '../../contract/json.js';

/**
 * The `const` values of the `oneOf` branches of a schema of the contract (`BalanceType`'s provisional `others`):
 * openapi-typescript emits value lists (generated/openapi-values.js) for `enum`s only.
 */
export function constValues<T extends string>(schema: string): T[] {
  const node = contractModel(sandboxDocument()).schema(schema)?.node;
  if (!node) throw new Error(`the contract has no schema ${schema}`);
  return ((node.oneOf ?? []) as JsonObject[]).filter((branch) => typeof branch.const === 'string').map((branch) => branch.const as T);
}

export { PACKAGE_ROOT };

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

/** Which file of generated/ a document object was read from, and the SHA-256 of its text. */
export interface DocumentSource {
  /** `openapi` for generated/openapi.json. */
  name: string;
  digest: string;
}

const sources = new WeakMap<JsonObject, DocumentSource>();

/** The file a document of this module was read from (undefined for any other object, a copy included). */
export function documentSource(doc: JsonObject): DocumentSource | undefined {
  return sources.get(doc);
}

function readJson(file: string): JsonObject {
  const text = fs.readFileSync(path.join(PACKAGE_ROOT, file), 'utf8');
  const doc = JSON.parse(text) as JsonObject;
  sources.set(doc, { name: path.basename(file, '.json'), digest: createHash('sha256').update(text).digest('hex') });
  return doc;
}

/**
 * The product areas whose url fields the sandbox also accepts (and gives) as loopback `http://` urls: webhook
 * endpoints (a receiver on your machine), and KYC links (the KYC page is served by the sandbox itself, and the
 * person may return to an app on your machine). Which areas is the sandbox's choice; their fields are the contract's.
 */
const LOOPBACK_TAGS = ['Webhook endpoints', 'KYC'];

/** The `format: uri` fields (`[schema, field]`) of the schemas the LOOPBACK_TAGS operations take and give (2xx). */
function loopbackUrlFields(doc: JsonObject): [schema: string, field: string][] {
  const model = contractModel(doc);
  const refs = new Set<string>();
  for (const operation of model.operations) {
    if (!LOOPBACK_TAGS.some((tag) => operation.tags.includes(tag))) continue;
    model.refsReached(operation.node.requestBody, refs);
    for (const status of operation.statuses) if (status.startsWith('2')) model.refsReached(operation.response(status)?.node, refs);
  }
  return [...refs]
    .filter((ref) => ref.startsWith('/components/schemas/'))
    .flatMap((ref) => {
      const name = ref.slice('/components/schemas/'.length);
      const props = (model.schema(name)?.node.properties ?? {}) as JsonObject;
      return Object.entries(props)
        .filter(([, p]) => (p as JsonObject | null)?.format === 'uri')
        .map(([field]): [string, string] => [name, field]);
    });
}

/** Gives the url fields of `fields` (read from the contract) the pattern LOOPBACK_HTTP_URL instead of `^https://`. */
function allowLoopbackHttpUrls(doc: JsonObject, fields: [schema: string, field: string][]): void {
  const model = contractModel(doc);
  for (const [name, field] of fields) {
    const props = (model.schema(name)?.node.properties ?? {}) as JsonObject;
    const url = props[field] as JsonObject | undefined;
    if (url) url.pattern = LOOPBACK_HTTP_URL;
  }
}

let cached: { document: JsonObject; loopbackFields: [schema: string, field: string][] } | undefined;
let cachedSimulation: JsonObject | undefined;

/** generated/sandbox.json: the simulation API (spec/sandbox.yaml), whose fixtures take webhook endpoints as `POST /webhooks` does here. */
export function simulationDocument(): JsonObject {
  if (!cachedSimulation) {
    cachedSimulation = readJson('generated/sandbox.json');
    sandboxDocument();
    allowLoopbackHttpUrls(cachedSimulation, cached!.loopbackFields);
  }
  return cachedSimulation;
}

/** The contract model of the document the sandbox serves (src/contract/model.ts). */
export function sandboxModel(): ContractModel {
  return contractModel(sandboxDocument());
}

/** generated/openapi.json as the sandbox serves it (a fresh parse; the loopback deviation applied). */
export function sandboxDocument(): JsonObject {
  if (!cached) {
    const document = readJson('generated/openapi.json');
    // Read once: the simulation API's document takes the same fields' deviation.
    cached = { document, loopbackFields: loopbackUrlFields(document) };
    allowLoopbackHttpUrls(document, cached.loopbackFields);
  }
  return cached.document;
}

/** The largest `maxLength` of a top-level string property of a request body's JSON schema. */
function longestString(operation: Operation): number {
  const schema = operation.requestBody?.json?.schema;
  if (!schema) return 0;
  const model = contractModel(operation.doc);
  const props = (schema.node.properties ?? {}) as JsonObject;
  return Math.max(0, ...Object.values(props).map((p) => Number((model.resolve(p).node as JsonObject | undefined)?.maxLength ?? 0)));
}

/** Every operation of a document: id, method, path, tag, whether its body is required, its statuses. */
export function operationsOf(doc: JsonObject): OperationInfo[] {
  return contractModel(doc)
    .operations.filter((operation) => operation.operationId !== '')
    .map((operation) => {
      const statuses = operation.statuses;
      return {
        operationId: operation.operationId,
        method: operation.method.toUpperCase(),
        path: operation.path,
        tag: operation.tag,
        bodyRequired: operation.requestBody?.required === true,
        altHost: statuses.includes('421'),
        statuses,
        longestBodyString: longestString(operation),
      };
    });
}
