// "Try it" on the API reference pages (site/reference/ and the simulation API's, site/reference/simulation/):
// every operation gets a button beside its heading that opens a console, which sends the call from the page to
// the local sandbox (`npm start`, http://127.0.0.1:4020) and shows its answer: status, the headers the operation
// declares, body.
//
// Why a console of our own, and not Scalar's (@scalar/api-client 3.x, `createApiClientModal`): the Redoc page
// stays the reference (its badges, code samples and tests), so the console only has to send one operation's call
// and show the answer. Scalar's modal is a Vue application (`createApiClientModal({ el, workspaceStore })`) that
// needs a @scalar/workspace-store loaded with the document (a second copy of the contract, in its model) and is
// shipped as ES modules importing `vue`, @scalar/components and others by bare name: the page would need a
// bundling step of its own, and the site a large dependency tree pinned beside Redoc's, with a fresh
// Idempotency-Key per send and the sandbox's printed key still to configure on top. This console is one plain script
// (try-it-console.js) and one stylesheet (try-it.css), served beside the page; nothing is fetched from elsewhere.
//
// This module writes what the script reads: per operation (by Redoc's section id, `/<tag>/<operationid>`), its
// method, path, the sandbox's base path (from the docs copy's servers: /v1, /api/v1 for the gift card address,
// /sandbox), parameters with their examples, whether it declares Idempotency-Key, the request body's first
// example and the response headers it declares. Everything comes from the bundle.
import fs from 'node:fs';
import path from 'node:path';
import { contractModel, type Operation, type Parameter } from '../../src/contract/model.ts';
import { isObject, type Json, type JsonObject } from '../lib/pointer.ts';
import { SANDBOX_ORIGIN } from './servers.ts';

/** The header that makes a write safe to retry; the console fills a fresh one per send where it is declared. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The key `npm start` prints and seeds with the contract's example records (scripts/start/cli.ts). */
export const DEFAULT_KEY = 'sk_test_sandbox';

/** The files the console is made of, served beside the reference page. */
const CONSOLE_SCRIPT = path.join(import.meta.dirname, 'try-it-console.js');
const CONSOLE_STYLE = path.join(import.meta.dirname, 'try-it.css');

/** Where the reference pages load them from (the site is served from its root). */
export const CONSOLE_URL = '/reference/try-it.js';
export const STYLE_URL = '/reference/try-it.css';

export interface TryItParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  /** The parameter's example, as text ('' when it has none). */
  example: string;
}

export interface TryItOperation {
  method: string;
  /** The path template of the contract: `/cards/{code}/withdraw`. */
  path: string;
  /** The sandbox's base path for it: `/v1`, `/api/v1` (gift cards) or `/sandbox` (the simulation API). */
  basePath: string;
  summary: string;
  parameters: TryItParameter[];
  /** The request body's first example, as formatted JSON; absent when the operation takes no body. */
  body?: string;
  bodyRequired: boolean;
  /** Response headers the operation declares (any status), shown with the answer. */
  headers: string[];
}

export interface TryItData {
  /** The sandbox `npm start` runs: the console's default address. */
  sandboxOrigin: string;
  defaultKey: string;
  idempotencyHeader: string;
  operations: Record<string, TryItOperation>;
}

/** Redoc's slug of a tag: `Gift cards` -> `gift-cards`. */
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** A server's url with its variables' defaults in place. */
function resolvedUrl(server: JsonObject): string {
  const variables = isObject(server.variables) ? server.variables : {};
  return String(server.url ?? '').replace(/\{(\w+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isObject(variable) && typeof variable.default === 'string' ? variable.default : whole;
  });
}

/** The base path of the first loopback server among the operation's (its own, its path's, the document's). */
function sandboxBasePath(doc: JsonObject, item: JsonObject, operation: JsonObject): string | undefined {
  const servers = [operation.servers, item.servers, doc.servers].find(Array.isArray) as Json[] | undefined;
  for (const server of servers ?? []) {
    if (!isObject(server)) continue;
    const url = resolvedUrl(server);
    if (!/^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)) continue;
    return new URL(url).pathname.replace(/\/$/, '');
  }
  return undefined;
}

/** A value as the text of a form field. */
function asText(value: Json | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function exampleOf(parameter: Parameter): string {
  const first = parameter.examples[0];
  if (first) return asText(first.value);
  const schema = parameter.schema?.node;
  if (!schema) return '';
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return asText(schema.examples[0]);
  if (schema.example !== undefined) return asText(schema.example);
  if (schema.default !== undefined) return asText(schema.default);
  return Array.isArray(schema.enum) ? asText(schema.enum[0]) : '';
}

function parametersOf(operation: Operation): TryItParameter[] {
  const byKey = new Map<string, TryItParameter>();
  for (const p of operation.parameters) {
    if (!['path', 'query', 'header'].includes(p.in)) continue;
    // An operation's parameter replaces its path item's of the same name and place (a header's in any case).
    byKey.set(`${p.in}:${p.name.toLowerCase()}`, {
      name: p.name,
      in: p.in as TryItParameter['in'],
      required: p.required || p.in === 'path',
      example: exampleOf(p),
    });
  }
  return [...byKey.values()];
}

function bodyOf(operation: Operation): { body?: string; bodyRequired: boolean } {
  const requestBody = operation.requestBody;
  if (!requestBody) return { bodyRequired: false };
  const example = requestBody.json?.examples[0]?.value;
  return { body: JSON.stringify(example ?? {}, null, 2), bodyRequired: requestBody.required };
}

function responseHeaders(operation: Operation): string[] {
  return [...new Set(operation.responses.flatMap((r) => r.headers.map((h) => h.name)))];
}

/** What the console needs of every operation of `doc` (the docs copy, with the sandbox among its servers). */
export function tryItData(bundle: { [key: string]: unknown }): TryItData {
  const doc = bundle as JsonObject;
  const operations: Record<string, TryItOperation> = {};
  for (const operation of contractModel(doc).operations) {
    if (typeof operation.node.operationId !== 'string') continue;
    const basePath = sandboxBasePath(doc, operation.item.node, operation.node);
    if (basePath === undefined) continue; // no sandbox serves it: no console
    operations[`/${slug(operation.tag)}/${operation.operationId.toLowerCase()}`] = {
      method: operation.method.toUpperCase(),
      path: operation.path,
      basePath,
      summary: String(operation.node.summary ?? operation.operationId),
      parameters: parametersOf(operation),
      ...bodyOf(operation),
      headers: responseHeaders(operation),
    };
  }
  return { sandboxOrigin: SANDBOX_ORIGIN, defaultKey: DEFAULT_KEY, idempotencyHeader: IDEMPOTENCY_HEADER, operations };
}

/** JSON inside a `<script>` element: `<` escaped so that no `</script>` in an example ends it. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** A reference page given its console: the stylesheet, the operations' data and the script. */
export function withTryIt(html: string, data: TryItData): string {
  const end = html.lastIndexOf('</body>');
  if (end < 0) throw new Error('the reference page has no </body> to put the Try it console before');
  const parts = [
    `<link rel="stylesheet" href="${STYLE_URL}">`,
    `<script type="application/json" id="try-it-data">${scriptJson(data)}</script>`,
    `<script type="module" src="${CONSOLE_URL}"></script>`,
  ].join('\n');
  return `${html.slice(0, end)}${parts}\n${html.slice(end)}`;
}

/** Writes the console's script and stylesheet into the reference's directory (site/reference/). */
export function writeTryItAssets(referenceDir: string): void {
  fs.copyFileSync(CONSOLE_SCRIPT, path.join(referenceDir, path.basename(CONSOLE_URL)));
  fs.copyFileSync(CONSOLE_STYLE, path.join(referenceDir, path.basename(STYLE_URL)));
}
