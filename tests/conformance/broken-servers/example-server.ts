// A tiny node:http server that answers from the contract's examples, as the Prism mock does, so the
// conformance suite can be pointed at deliberately broken variants of it (see the other files here).
//
// - `Prefer: code=<status>[, example=<name>]` selects a documented response, as with Prism;
// - without `Prefer` it behaves like a stateless but honest implementation: 401 without a key
//   (AUTHENTICATION_REQUIRED) or with another key (AUTHENTICATION_FAILED), 422 for a malformed code in the
//   path, a body missing required fields or an out-of-range `limit`, 404 for a uuid (or a well-formed id
//   of a `pattern`, such as a gift card `productId`) that no example mentions, else the first success example;
// - bodies are sent as `application/json; charset=utf-8`, as many frameworks do.
//
// `mutate` lets a broken variant change one answer.
import { createServer, type IncomingMessage } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createResponseValidator, matchPathTemplate, type OpenApiBundle } from '../../../scripts/conformance/validate-response.ts';
import { contractModel } from '../../../src/contract/model.ts';

export interface Answer {
  status: number;
  body: unknown;
  contentType?: string;
}

export interface Exchange {
  method: string;
  /** The contract's path template, e.g. /cards/{code}. */
  path: string;
  answer: Answer;
}

export type Mutation = (exchange: Exchange) => Answer;

export const API_KEY = 'sk_test_conformance';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function defaultSpec(): string {
  const root = path.resolve(import.meta.dirname, '../../..');
  return path.resolve(process.env.CONFORMANCE_SPEC ?? path.join(root, 'generated', 'openapi.json'));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function parsePrefer(header: string | undefined): { code?: string; example?: string } {
  const out: { code?: string; example?: string } = {};
  for (const part of (header ?? '').split(/[,;]/)) {
    const [k, v] = part.split('=').map((s) => s.trim());
    if (k === 'code' && v) out.code = v;
    if (k === 'example' && v) out.example = v;
  }
  return out;
}

export interface ExampleServer {
  url: string;
  close(): Promise<void>;
}

export function startExampleServer(options: { spec?: string; mutate?: Mutation; port?: number } = {}): Promise<ExampleServer> {
  const bundle = JSON.parse(readFileSync(options.spec ?? defaultSpec(), 'utf8')) as OpenApiBundle;
  const validator = createResponseValidator(bundle);
  const model = contractModel(bundle);
  const text = JSON.stringify(bundle);
  const knownCodes = new Set(
    (text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi) ?? []).map((s) => s.toLowerCase()),
  );

  const enumValues = new Set<string>();
  JSON.stringify(bundle, (key, value: unknown) => {
    if (key === 'enum' && Array.isArray(value)) for (const v of value) if (typeof v === 'string') enumValues.add(v);
    return value;
  });
  /** The `pattern` of a path parameter that is an id but not a uuid (`productId`), if any. */
  const idPattern = (method: string, template: string, name: string): RegExp | undefined => {
    const schema = model.byPath(method, template)?.parameter('path', name)?.schema?.node;
    return typeof schema?.pattern === 'string' && schema.format !== 'uuid' ? new RegExp(schema.pattern) : undefined;
  };
  const example = (method: string, template: string, status: string | number, name?: string) => {
    const all = validator.examples(method, template, status);
    return (name ? all.find((e) => e.name === name) : undefined) ?? all[0];
  };
  const error = (method: string, template: string, status: number, code: string): Answer => ({
    status,
    body: example(method, template, status, code)?.value ?? {
      success: false,
      error: { code, message: code, details: null },
    },
  });

  const answer = async (req: IncomingMessage): Promise<{ template?: string; answer: Answer }> => {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://localhost');
    const template = matchPathTemplate(bundle, method, url.pathname);
    const raw = await readBody(req);
    if (!template) {
      return {
        answer: { status: 404, body: { success: false, error: { code: 'RESOURCE_NOT_FOUND', message: 'No such route.', details: null } } },
      };
    }
    const auth = req.headers.authorization;
    if (!auth) return { template, answer: error(method, template, 401, 'AUTHENTICATION_REQUIRED') };
    const prefer = parsePrefer([req.headers.prefer ?? ''].flat().join(','));
    if (prefer.code) {
      const ex = example(method, template, prefer.code, prefer.example);
      return { template, answer: { status: Number(prefer.code), body: ex?.value } };
    }
    if (auth !== `Bearer ${API_KEY}`) return { template, answer: error(method, template, 401, 'AUTHENTICATION_FAILED') };
    // Path: malformed code -> 422, unknown uuid -> 404.
    const names = template.split('/');
    const values = url.pathname.split('/');
    for (let i = 0; i < names.length; i++) {
      if (!names[i]!.startsWith('{')) continue;
      const value = decodeURIComponent(values[i] ?? '').replace(/^evt_/, ''); // an event id is evt_<uuid>
      const pattern = idPattern(method, template, names[i]!.slice(1, -1));
      if (UUID.test(value)) {
        if (!knownCodes.has(value.toLowerCase())) return { template, answer: error(method, template, 404, 'RESOURCE_NOT_FOUND') };
      } else if (pattern?.test(value)) {
        if (!text.includes(JSON.stringify(value))) return { template, answer: error(method, template, 404, 'RESOURCE_NOT_FOUND') };
      } else if (/code/i.test(names[i]!) || !enumValues.has(value)) {
        return { template, answer: error(method, template, 422, 'VALIDATION_ERROR') };
      }
    }
    const limit = url.searchParams.get('limit');
    if (limit !== null && !(Number(limit) >= 1 && Number(limit) <= 100))
      return { template, answer: error(method, template, 422, 'VALIDATION_ERROR') };
    const filter = url.searchParams.get('customer_code');
    if (filter && !knownCodes.has(filter.toLowerCase())) return { template, answer: error(method, template, 404, 'RESOURCE_NOT_FOUND') };
    if (raw) {
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        return { template, answer: error(method, template, 422, 'VALIDATION_ERROR') };
      }
      const b = body as Record<string, unknown>;
      if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(b).length === 0) {
        return { template, answer: error(method, template, 422, 'VALIDATION_ERROR') };
      }
      for (const [k, v] of Object.entries(b)) {
        if (k.endsWith('_code') && typeof v === 'string' && UUID.test(v) && !knownCodes.has(v.toLowerCase())) {
          return { template, answer: error(method, template, 404, 'RESOURCE_NOT_FOUND') };
        }
        if (v === 'not-a-valid-value' || v === 12345) return { template, answer: error(method, template, 422, 'VALIDATION_ERROR') };
      }
    }
    const success = validator.operation(method, template)?.statuses.find((s) => s.startsWith('2')) ?? '200';
    return { template, answer: { status: Number(success), body: example(method, template, success)?.value } };
  };

  /** The documented response headers of a status, with their example values (as Prism sends them). */
  const headerExamples = (method: string, template: string, status: number): Record<string, string> => {
    const key = validator.responseKey(method, template, status);
    const response = key ? model.byPath(method, template)?.response(key) : undefined;
    const out: Record<string, string> = {};
    for (const { name, node } of response?.headers ?? []) if (node.example !== undefined) out[name] = String(node.example);
    return out;
  };

  const server = createServer((req, res) => {
    answer(req)
      .then(({ template, answer: a }) => {
        const final = template && options.mutate ? options.mutate({ method: req.method ?? 'GET', path: template, answer: a }) : a;
        const body = final.body === undefined ? '' : typeof final.body === 'string' ? final.body : JSON.stringify(final.body);
        const headers = template ? headerExamples(req.method ?? 'GET', template, final.status) : {};
        res.writeHead(
          final.status,
          body ? { ...headers, 'Content-Type': final.contentType ?? 'application/json; charset=utf-8' } : headers,
        );
        res.end(body);
      })
      .catch((e: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(String(e));
      });
  });
  return new Promise((resolve) => {
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
  });
}

/** Clones a JSON body so a mutation never changes the bundle's examples. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}

/** `node tests/conformance/broken-servers/<name>.ts [port]` runs one server until stopped. */
export async function serveFromCommandLine(mutate: Mutation | undefined, name: string): Promise<void> {
  const port = Number(process.argv[2] ?? 0);
  const server = await startExampleServer({ mutate, port });
  console.log(`${name} listening on ${server.url} (API key ${API_KEY})`);
}
