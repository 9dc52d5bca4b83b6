// Code samples for the rendered reference: Redoc's `x-codeSamples` on every operation of the docs-only copy of
// the OpenAPI bundle (spec/ and generated/ have none). Each operation gets a curl command and a TypeScript call
// with this package's client, both built from the operation's own examples (path and query parameter examples,
// the request body example) and addressed to the local sandbox, so that with
// `npm run sandbox -- --seed examples` (whose example records carry the examples' codes) they run as pasted.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { exampleOperations, type ExampleOperation } from '../lib/openapi-examples.ts';
import { ROOT } from '../lib/paths.ts';
import { deref, isObject, type Json, type JsonObject } from '../lib/pointer.ts';

/** The local sandbox (`npm run sandbox`): the samples' host; each operation keeps its server's path. */
export const SANDBOX_ORIGIN = 'http://127.0.0.1:4020';
/** The key whose account `npm run sandbox -- --seed examples` fills with the example records. */
export const SAMPLE_API_KEY = 'sk_test_sandbox';
/** The package a partner installs, as package.json names it (its `.` export is the client). */
export const PACKAGE_NAME = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string }).name;

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** The languages, in tab order: Redoc's `lang` (highlighting) and the tab's label. */
export const SAMPLE_LANGUAGES = [
  { lang: 'curl', label: 'curl' },
  { lang: 'TypeScript', label: 'TypeScript' },
] as const;

/**
 * Redoc's `codeSamples` option: it shows only the `x-codeSamples` of the languages listed in
 * `codeSamples.languages`, and its default list has no TypeScript. `Payload` keeps the request body's own tab.
 */
export function redocCodeSamplesOption(): { codeSamples: { languages: { lang: string }[] } } {
  return { codeSamples: { languages: [...SAMPLE_LANGUAGES.map(({ lang }) => ({ lang })), { lang: 'Payload' }] } };
}

export interface OperationSamples {
  operationId: string;
  method: string;
  /** The path template: /cards/{code}/withdraw. */
  path: string;
  /** curl first, then TypeScript. */
  samples: CodeSample[];
}

/** The URL path of a server's URL, its variables at their defaults (`{alt_base_url}` -> `/api/v1`). */
function serverPath(server: Json | undefined): string {
  if (!isObject(server) || typeof server.url !== 'string') return '';
  const variables = isObject(server.variables) ? server.variables : {};
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const variable = variables[name];
    return isObject(variable) && typeof variable.default === 'string' ? variable.default : '';
  });
  return (/^https?:\/\//.test(url) ? new URL(url).pathname : url).replace(/\/$/, '');
}

/**
 * The URL paths of the document's server (`/v1`) and of the server the operation is served at: its own
 * `servers` (the gift card address, `/api/v1`), else the document's.
 */
function serverPaths(doc: JsonObject, pathKey: string, method: string): { rootBase: string; base: string; ownServer: boolean } {
  const item = deref(doc, (doc.paths as JsonObject)[pathKey]) as JsonObject;
  const op = item[method] as JsonObject;
  const own = Array.isArray(op.servers) ? op.servers : Array.isArray(item.servers) ? item.servers : undefined;
  const rootBase = serverPath(Array.isArray(doc.servers) ? doc.servers[0] : undefined);
  return { rootBase, base: own ? serverPath(own[0]) : rootBase, ownServer: own !== undefined };
}

/** Whether the operation requires the bearer key (its `security`, else the document's, is not empty). */
function needsKey(doc: JsonObject, pathKey: string, method: string): boolean {
  const op = (deref(doc, (doc.paths as JsonObject)[pathKey]) as JsonObject)[method] as JsonObject;
  const security = Array.isArray(op.security) ? op.security : Array.isArray(doc.security) ? doc.security : [];
  return security.some((requirement) => isObject(requirement) && Object.keys(requirement).length > 0);
}

/** The request body's media types (the samples send JSON: every body of the contract is JSON). */
function bodyMediaTypes(doc: JsonObject, pathKey: string, method: string): string[] {
  const op = (deref(doc, (doc.paths as JsonObject)[pathKey]) as JsonObject)[method] as JsonObject;
  const body = deref(doc, op.requestBody);
  return isObject(body) && isObject(body.content) ? Object.keys(body.content) : [];
}

/**
 * A stable Idempotency-Key per operation, in the UUID v4 form the contract asks for: pasting a sample twice
 * replays the first answer (as a retry should), and two different samples never share a key.
 */
export function sampleIdempotencyKey(operationId: string): string {
  const bytes = createHash('sha256').update(`docs sample ${operationId}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A shell word in single quotes (a `'` inside becomes `'\''`). */
const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** The query string of the operation's query parameters, each with its example (in contract order). */
function queryString(op: ExampleOperation): string {
  const query = op.parameters.filter((p) => p.in === 'query');
  if (query.length === 0) return '';
  // `:` may stay as it is in a query (RFC 3986), which keeps date-times readable.
  return `?${new URLSearchParams(query.map((p): [string, string] => [p.name, String(p.example)])).toString().replace(/%3A/g, ':')}`;
}

interface SampleContext {
  op: ExampleOperation;
  /** The document's server path, `/v1`. */
  rootBase: string;
  /** The operation's server path: `/v1`, or `/api/v1` for the gift card operations. */
  base: string;
  /** The operation is served at its own server (the gift card address), not the document's. */
  ownServer: boolean;
  authorized: boolean;
}

/** The curl command: method, URL with the examples, the headers the contract defines, the JSON body. */
export function curlSample({ op, base, authorized }: SampleContext): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(op.parameters.find((p) => p.in === 'path' && p.name === name)?.example ?? name)));
  const lines = [`curl ${op.method === 'GET' ? '' : `-X ${op.method} `}${shellQuote(`${SANDBOX_ORIGIN}${base}${path}${queryString(op)}`)}`];
  if (authorized) lines.push(`-H ${shellQuote(`Authorization: Bearer ${SAMPLE_API_KEY}`)}`);
  for (const header of op.parameters.filter((p) => p.in === 'header')) {
    const value = header.name.toLowerCase() === 'idempotency-key' ? sampleIdempotencyKey(op.operationId) : String(header.example);
    lines.push(`-H ${shellQuote(`${header.name}: ${value}`)}`);
  }
  if (op.body !== undefined) {
    // Indented under `-d` (whitespace inside JSON is insignificant).
    lines.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(op.body, null, 2)).replace(/\n/g, '\n  ')}`);
  }
  return lines.join(' \\\n  ');
}

const INSPECT = { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity, breakLength: 76, compact: 3, sorted: false } as const;

/**
 * The call's options as a TypeScript literal (single quotes, bare keys): on the call's line when the line stays
 * within 80 columns, else one property a line.
 */
function optionsLiteral(init: Record<string, unknown>, lineStart: string): string {
  const oneLine = inspect(init, { ...INSPECT, breakLength: Infinity });
  if (lineStart.length + oneLine.length + 2 <= 80) return oneLine;
  const properties = Object.entries(init).map(([key, value]) => `  ${key}: ${inspect(value, INSPECT).replace(/\n/g, '\n  ')}`);
  return `{\n${properties.join(',\n')},\n}`;
}

/** The TypeScript call with this package's client (data or throw), with the same examples as the curl. */
export function typescriptSample({ op, rootBase, base, ownServer }: SampleContext): string {
  const params: Record<string, Record<string, Json>> = {};
  for (const p of op.parameters) {
    // The client sends a fresh Idempotency-Key with each POST and the same one on its retries.
    if (p.in === 'header' && p.name.toLowerCase() === 'idempotency-key') continue;
    if (p.in !== 'path' && p.in !== 'query' && p.in !== 'header') continue;
    (params[p.in] ??= {})[p.name] = p.example;
  }
  const init: Record<string, unknown> = {};
  if (Object.keys(params).length > 0) init.params = params;
  if (op.body !== undefined) init.body = op.body;
  const options = [`  apiKey: '${SAMPLE_API_KEY}', // your key`];
  options.push(`  baseUrl: '${SANDBOX_ORIGIN}${rootBase}',`);
  if (ownServer) options.push(`  giftCardBaseUrl: '${SANDBOX_ORIGIN}${base}', // gift cards`);
  const call = `const { data } = await client.call.${op.method}('${op.path}'`;
  const args = Object.keys(init).length > 0 ? `, ${optionsLiteral(init, call)}` : '';
  return [
    `import { createPartnerClient } from '${PACKAGE_NAME}';`,
    '',
    'const client = createPartnerClient({',
    ...options,
    '});',
    '',
    ...(op.method === 'POST' ? ['// The client adds an Idempotency-Key (kept on retries).'] : []),
    `${call}${args});`,
    'console.log(data);',
  ].join('\n');
}

/** The curl and TypeScript samples of every operation of `doc.paths`, in document order. */
export function codeSamples(doc: JsonObject): OperationSamples[] {
  return exampleOperations(doc).map((op) => {
    const method = op.method.toLowerCase();
    const media = bodyMediaTypes(doc, op.path, method);
    if (media.some((type) => type !== 'application/json')) {
      throw new Error(`code samples: ${op.method} ${op.path} takes ${media.join(', ')}; only application/json bodies have samples`);
    }
    const context: SampleContext = { op, ...serverPaths(doc, op.path, method), authorized: needsKey(doc, op.path, method) };
    const [curl, typescript] = SAMPLE_LANGUAGES;
    return {
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      samples: [
        { ...curl, source: curlSample(context) },
        { ...typescript, source: typescriptSample(context) },
      ],
    };
  });
}

/** Sets `x-codeSamples` (curl, TypeScript) on every operation of the docs copy; returns the number of samples. */
export function addCodeSamples(docsCopy: { [key: string]: unknown }): number {
  const doc = docsCopy as JsonObject;
  let count = 0;
  for (const { method, path: pathKey, samples } of codeSamples(doc)) {
    const op = (deref(doc, (doc.paths as JsonObject)[pathKey]) as JsonObject)[method.toLowerCase()] as JsonObject;
    op['x-codeSamples'] = samples as unknown as Json;
    count += samples.length;
  }
  return count;
}
