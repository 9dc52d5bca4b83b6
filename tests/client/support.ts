// Test support for the client suites: the mock API of the contract and small local HTTP servers.
import { contractModel } from '../../src/contract/model.ts';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { paths } from '../../generated/openapi.js';
import type { JsonObject } from '../../src/contract/bundle.ts';
import { findFreePort } from '../../scripts/lib/port-check.ts';
import { startMock as startMockServer, type MockServer } from '../../scripts/mock/server.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The bundle the mock serves: generated/openapi.json (CLIENT_TEST_OPENAPI picks another bundle). */
export const OPENAPI_JSON = process.env['CLIENT_TEST_OPENAPI'] ?? path.join(ROOT, 'generated', 'openapi.json');

export const TEST_KEY = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';

/** The first card of the contract's `GET /cards` success example. */
export function cardExample(): Record<string, unknown> {
  const model = contractModel(JSON.parse(fs.readFileSync(OPENAPI_JSON, 'utf8')));
  const examples = (model.byPath('GET', '/cards')?.response(200)?.json?.examples ?? []) as unknown as {
    value: { data: Record<string, unknown>[] };
  }[];
  const first = examples[0]?.value.data[0];
  if (!first) throw new Error(`no card in the GET /cards example of ${OPENAPI_JSON}`);
  return first;
}

/** The success answer of `POST /cards/{code}/withdraw`, as the generated types describe it. */
export type WithdrawalAnswer = paths['/cards/{code}/withdraw']['post']['responses'][200]['content']['application/json'];

/** The contract's example of the success answer of `POST /cards/{code}/withdraw` (its 200's first example). */
export function withdrawalAnswer(): WithdrawalAnswer {
  const bundle = JSON.parse(fs.readFileSync(OPENAPI_JSON, 'utf8')) as JsonObject;
  const first = contractModel(bundle).byPath('POST', '/cards/{code}/withdraw')?.response(200)?.json?.examples[0];
  if (!first) throw new Error(`no example of the 200 answer of POST /cards/{code}/withdraw in ${OPENAPI_JSON}`);
  return first.value as unknown as WithdrawalAnswer;
}

/** Starts the mock API of the contract (scripts/mock/server.ts) on a free port of 127.0.0.1. */
export async function startMock(spec = OPENAPI_JSON): Promise<MockServer> {
  return startMockServer({ spec, port: await findFreePort(), host: '127.0.0.1', output: 'ignore' });
}

export interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: Recorded, res: http.ServerResponse, raw: http.IncomingMessage) => void | Promise<void>;

export interface LocalServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 that records every request and answers with `handler`. */
export async function startServer(handler: Handler): Promise<LocalServer> {
  const requests: Recorded[] = [];
  const server = http.createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const recorded = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        headers: raw.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res, raw)).catch((error: unknown) => {
        res.statusCode = 599;
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON answer. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export const meta = (n = 1) => ({ request_id: `req_test_${n}`, mode: 'test', timestamp: '2026-03-02T10:15:30Z' });

export function errorBody(code: string, message: string, details: unknown = null, n = 1) {
  return { success: false, error: { code, message, details }, meta: meta(n) };
}

/** A sleep that records the delays asked for and resolves at once. */
export function recordingSleep() {
  const delays: number[] = [];
  const sleep = async (ms: number) => {
    delays.push(ms);
  };
  return { delays, sleep };
}
