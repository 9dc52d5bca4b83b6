// The mock API: a small node:http front in front of a Prism child (scripts/mock/prism.ts) on an internal
// port, so that the mock answers like the API, at the API's addresses:
//   /v1/...            the operations, as at {base_url} (Prism serves them at its root)
//   /api/v1/gift-cards the gift card operations, as at {alt_base_url}; at /v1/gift-cards they get 421
//                      wrong_api_host, as the contract says
//   anything else      404 RESOURCE_NOT_FOUND in the envelope (so do unknown paths and methods)
// A body that is not JSON gets 422 VALIDATION_ERROR at once (Prism never answers one), and a validation
// failure gets `details.fields` naming the actual field and rule (from Prism's `sl-violations` header)
// instead of the operation's canned example. Everything else, `Prefer:` headers included, goes to Prism as is.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonObject } from '../../src/contract/json.ts';
import { contractModel, type Refusals } from '../../src/contract/model.ts';
import { BASE_SERVER, GIFT_CARD_SERVER, isGiftCardPath } from '../../src/contract/servers.ts';
import { findFreePort } from '../lib/port-check.ts';
import {
  errorEnvelope,
  malformedJson,
  noOperation,
  parameterNames,
  parseViolations,
  validationFailure,
  type ErrorEnvelope,
} from './envelopes.ts';
import { startPrism, type PrismOptions, type PrismServer } from './prism.ts';

/** The contract's base paths: `{base_url}`'s (`/v1`) and `{alt_base_url}`'s (`/api/v1`, the gift card operations). */
export const BASE_PATH = BASE_SERVER.path;
export const GIFT_CARD_BASE_PATH = GIFT_CARD_SERVER.path;
const PREFIX_HINT = `Operations are served under ${BASE_PATH} (for example ${BASE_PATH}/cards), gift card orders under ${GIFT_CARD_BASE_PATH}${GIFT_CARD_SERVER.pathPrefixes[0]}.`;

/** How long the front waits for Prism before answering 500 itself. */
const PRISM_ANSWER_MS = 15_000;

export interface MockOptions extends Omit<PrismOptions, 'port'> {
  /** The public port (0: any free port). Prism listens on another free port of the same host. */
  port: number;
}

export interface MockServer {
  /** http://<host>:<port>, the root (no path). */
  url: string;
  /** `{base_url}` of the mock: `<url>/v1`. */
  baseUrl: string;
  /** `{alt_base_url}` of the mock: `<url>/api/v1`. */
  giftCardBaseUrl: string;
  /** Resolves when Prism exits, for whatever reason. */
  exited: Promise<number | string>;
  /** Everything Prism printed so far. */
  log(): string;
  /** Stops the front and Prism. Safe to call twice. */
  stop(): Promise<void>;
}

export type Route = { prismPath: string; wrongHost: boolean } | { notFound: string };

/** Where a request path goes: the Prism path (and whether it is a gift card call at {base_url}), or nowhere. */
export function route(pathname: string): Route {
  const under = (prefix: string) =>
    pathname === prefix || pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) || '/' : undefined;
  const isGiftCards = isGiftCardPath;
  const gift = under(GIFT_CARD_BASE_PATH);
  if (gift !== undefined) {
    return isGiftCards(gift)
      ? { prismPath: gift, wrongHost: false }
      : { notFound: `Only the gift card operations are served under ${GIFT_CARD_BASE_PATH}; the others are under ${BASE_PATH}.` };
  }
  const main = under(BASE_PATH);
  if (main !== undefined) return { prismPath: main, wrongHost: isGiftCards(main) };
  return { notFound: PREFIX_HINT };
}

interface Answer {
  status: number;
  headers: http.OutgoingHttpHeaders;
  body: Buffer;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'upgrade']);

function copyHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

function json(status: number, body: ErrorEnvelope, headers: http.OutgoingHttpHeaders = {}): Answer {
  return { status, headers: { ...headers, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) };
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function askPrism(
  port: number,
  host: string,
  method: string,
  path: string,
  headers: http.OutgoingHttpHeaders,
  body: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host, port, method, path, headers: { ...headers, 'content-length': body.length }, timeout: PRISM_ANSWER_MS },
      (res) => {
        readBody(res).then((text) => resolve({ status: res.statusCode ?? 500, headers: copyHeaders(res.headers), body: text }), reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`Prism did not answer within ${PRISM_ANSWER_MS / 1000} s`)));
    request.on('error', reject);
    request.end(body);
  });
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Prism's answer in the API's envelope: its problem+json errors and its canned validation failures rewritten. */
export function rewrite(
  answer: Answer,
  method: string,
  url: string,
  authorization: string | undefined,
  names?: ReadonlyMap<string, string>,
): Answer {
  const type = String(answer.headers['content-type'] ?? '');
  const body = parseJson(answer.body) as { error?: { code?: unknown }; title?: unknown; detail?: unknown } | undefined;
  const violations = parseViolations(answer.headers['sl-violations'] as string | undefined);
  if (type.startsWith('application/problem+json')) {
    if (answer.status === 404 || answer.status === 405) return json(404, noOperation(method, url, PREFIX_HINT, authorization));
    if ((answer.status === 422 || answer.status === 400) && violations.length > 0) {
      return json(answer.status, validationFailure(violations, undefined, authorization, names), answer.headers);
    }
    const what = [body?.title, body?.detail].filter((s) => typeof s === 'string').join(': ');
    return json(
      500,
      errorEnvelope('INTERNAL_ERROR', `The mock could not answer ${method} ${url}: ${what || 'Prism error'}.`, null, authorization),
    );
  }
  if ((answer.status === 422 || answer.status === 400) && body?.error?.code === 'VALIDATION_ERROR' && violations.length > 0) {
    return json(answer.status, validationFailure(violations, body as ErrorEnvelope, authorization, names), answer.headers);
  }
  return answer;
}

/** What the front reads from the contract: the parameters' names, each path's methods, the wrong-method answer. */
interface MockContract {
  names: ReadonlyMap<string, string>;
  methodsOf: (path: string) => string[] | undefined;
  wrongMethod: Refusals['wrongMethod'];
}

/** The contract's answer to a method the path does not have (x-refusals.wrong_method), or undefined. */
function wrongMethod(contract: MockContract, method: string, prismPath: string, authorization: string | undefined): Answer | undefined {
  const allowed = contract.methodsOf(prismPath);
  if (!allowed || allowed.includes(method)) return undefined;
  const answer = contract.wrongMethod;
  const details: Record<string, unknown> = { method, allowed_methods: allowed };
  const envelope = errorEnvelope(
    answer.code,
    `${method} is not an operation of ${prismPath}; it accepts ${allowed.join(', ')}.`,
    Object.fromEntries(answer.details.map((k) => [k, details[k]])),
    authorization,
  );
  return json(answer.status, envelope, answer.allowHeader ? { allow: allowed.join(', ') } : {});
}

async function answer(req: http.IncomingMessage, prismPort: number, host: string, contract: MockContract): Promise<Answer> {
  const names = contract.names;
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  const authorization = req.headers.authorization;
  const target = new URL(url, 'http://mock');
  const where = route(target.pathname);
  if ('notFound' in where) return json(404, noOperation(method, target.pathname, where.notFound, authorization));
  const wrong = wrongMethod(contract, method, where.prismPath, authorization);
  if (wrong) return wrong;

  const body = await readBody(req);
  if (body.length > 0) {
    try {
      JSON.parse(body.toString('utf8'));
    } catch (error) {
      return json(422, malformedJson(error, authorization));
    }
  }
  const headers = copyHeaders(req.headers);
  // A gift card call at {base_url}: the documented 421 wrong_api_host (a chosen 421 example is kept).
  if (where.wrongHost && !/\bcode=421\b/.test(String(headers.prefer ?? ''))) headers.prefer = 'code=421';
  try {
    const prism = await askPrism(prismPort, host, method, where.prismPath + target.search, headers, body);
    return rewrite(prism, method, target.pathname, authorization, names);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return json(
      500,
      errorEnvelope('INTERNAL_ERROR', `The mock could not answer ${method} ${target.pathname}: ${why}.`, null, authorization),
    );
  }
}

/** Starts Prism on a free internal port, then the front on `port`; resolves once both listen. */
export async function startMock(options: MockOptions): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  const document = JSON.parse(fs.readFileSync(options.spec, 'utf8')) as JsonObject;
  const contract: MockContract = {
    names: parameterNames(document),
    methodsOf: (path: string) => contractModel(document).match(path)?.methods,
    wrongMethod: contractModel(document).refusals.wrongMethod,
  };
  const prism: PrismServer = await startPrism({ ...options, host, port: await findFreePort(host) });
  const prismPort = Number(new URL(prism.url).port);
  const front = http.createServer((req, res) => {
    void answer(req, prismPort, host, contract).then((a) => {
      res.writeHead(a.status, { ...a.headers, 'content-length': a.body.length });
      res.end(a.body);
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      front.once('error', reject);
      front.listen(options.port, host, resolve);
    });
  } catch (error) {
    await prism.stop();
    throw error;
  }
  const url = `http://${host}:${(front.address() as AddressInfo).port}`;
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= Promise.all([
      new Promise<void>((resolve) => {
        front.closeAllConnections();
        front.close(() => resolve());
      }),
      prism.stop(),
    ]).then(() => undefined));
  return { url, baseUrl: url + BASE_PATH, giftCardBaseUrl: url + GIFT_CARD_BASE_PATH, exited: prism.exited, log: prism.log, stop };
}
