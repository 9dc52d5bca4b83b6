// Test support for the sandbox suites: an in-process sandbox (port 0, frozen clocks), the package's typed
// client whose every response is checked against the contract, and a webhook receiver that verifies each
// delivery with the toolkit and checks each event against its schema.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createPartnerClient, isPartnerApiError } from '../../src/client/index.ts';
import { OPENING_BALANCE_MINOR, type BalanceType } from '../../src/sandbox/core/accounts.ts';
import { sandboxDocument, simulationDocument } from '../../src/sandbox/core/contract.ts';
import { OUTSIDE_OPERATIONS, wrongMethodAnswer } from '../../src/sandbox/core/errors.ts';
import { createSimulationClient, startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.ts';
import { requestExamples } from '../../src/sandbox/seed.ts';
import { SETUP_GRAPH } from '../../src/setup/graph.ts';
import { Setup } from '../../src/setup/setup.ts';
import { verifyWebhook } from '../../src/webhooks/index.ts';
import { createResponseValidator, formatErrors, matchPathTemplate } from '../../scripts/conformance/validate-response.ts';
import { bundleAjv } from '../../scripts/lib/schema.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';
import { contractModel } from '../../src/contract/model.ts';

/** The contract as the sandbox serves it (generated/openapi.json, loopback webhook urls allowed). */
export const DOCUMENT = structuredClone(sandboxDocument()) as JsonObject;
/** The ping's type, as the contract's `x-ping` schema gives it. */
/** The contract model of DOCUMENT: what a test asks of the contract (src/contract/model.ts). */
export const MODEL = contractModel(DOCUMENT);
export const PING_TYPE = MODEL.ping.type;
const responses = createResponseValidator(DOCUMENT);
/** The simulation API (generated/sandbox.json). */
export const SIMULATION_DOCUMENT = structuredClone(simulationDocument()) as JsonObject;
const simulationResponses = createResponseValidator(SIMULATION_DOCUMENT);
const EVENTS_ID = 'https://sandbox.test/openapi.json';
const eventsAjv = bundleAjv(DOCUMENT, EVENTS_ID);

/** Statuses the sandbox answers outside any operation's documented list; checked against the envelope only. */
const ENVELOPE_ONLY = new Set([...Object.keys(OUTSIDE_OPERATIONS).map(Number), wrongMethodAnswer().status]);

/** Whether the operation at `template` documents `status` (then its answer is checked against that response). */
const documents = (method: string, template: string, status: number): boolean =>
  MODEL.byPath(method, template)?.statuses.includes(String(status)) === true;

/** Problems of one response against the contract ([] when it conforms). */
export function responseProblems(method: string, url: string, status: number, body: unknown, headers: Record<string, string>): string[] {
  const { pathname } = new URL(url);
  const path = pathname.replace(/^\/(api\/)?v1/, '');
  const template = matchPathTemplate(DOCUMENT, method, path);
  if (!template || (ENVELOPE_ONLY.has(status) && !documents(method, template, status))) {
    const validate = eventsAjv.getSchema(`${EVENTS_ID}#/components/schemas/ErrorEnvelope`)!;
    return validate(body) ? [] : [`${method} ${pathname} ${status}: not in the failure envelope: ${eventsAjv.errorsText(validate.errors)}`];
  }
  const errors = [...responses.validate(method, template, status, body), ...responses.validateHeaders(method, template, status, headers)];
  return errors.length === 0 ? [] : [`${method} ${template} ${status}:\n${formatErrors(errors)}`];
}

/** Problems of one event against its schema in the contract. */
export function eventProblems(event: { type: string; data?: Record<string, unknown> }): string[] {
  const validate = eventsAjv.getSchema(`${EVENTS_ID}#/components/schemas/${encodeURIComponent(event.type)}`);
  if (!validate) return [`${event.type}: no schema in the contract`];
  return validate(event) ? [] : [`${event.type}: ${eventsAjv.errorsText(validate.errors)}`];
}

/** An answer read off a socket: its status, headers and body (JSON when it parses), or how the socket ended without one. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: unknown;
}

/**
 * Writes `request` as it is on a new connection to the sandbox and reads one answer (interim 1xx answers skipped),
 * for requests no HTTP client would send (CR in a header, a garbage request line). Rejects when no answer comes
 * within `ms`, or the connection closes without one.
 */
export function rawHttp(sandbox: Pick<RunningSandbox, 'url'>, request: string | Buffer, ms = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(sandbox.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    const fail = (why: string) => {
      socket.destroy();
      reject(new Error(`${why}; received ${JSON.stringify(received.toString('latin1').slice(0, 200))}`));
    };
    const timer = setTimeout(() => fail(`no answer within ${ms} ms`), ms);
    const parse = (): RawAnswer | undefined => {
      let start = 0;
      for (;;) {
        const end = received.indexOf('\r\n\r\n', start);
        if (end === -1) return undefined;
        const [statusLine, ...lines] = received.subarray(start, end).toString('latin1').split('\r\n');
        const status = Number(statusLine!.split(' ')[1]);
        if (status >= 100 && status < 200) {
          start = end + 4;
          continue;
        }
        const headers = Object.fromEntries(
          lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
        );
        const length = Number(headers['content-length'] ?? Number.NaN);
        const rest = received.subarray(end + 4);
        if (Number.isNaN(length) || rest.length < length) return undefined;
        const text = rest.subarray(0, length).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: the caller's check reports it
        }
        return { status, headers, text, body };
      }
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const answer = parse();
      if (answer) {
        clearTimeout(timer);
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', () => {}); // a reset after the answer, or before it: 'close' decides
    socket.on('close', () => {
      clearTimeout(timer);
      const answer = parse();
      if (answer) resolve(answer);
      else fail('the connection closed without an answer');
    });
    socket.write(request);
  });
}

/**
 * A digest of the sandbox's state: the rows of every table, so that a refused request can be shown to change
 * nothing. What moves on its own is counted only (webhook deliveries and endpoint health, timers, the clock), and
 * kept answers of idempotency keys are left out (an operation's refusal is kept for a retry, as docs/sandbox.md says).
 */
export function stateDigest(sandbox: Pick<RunningSandbox, 'core'>): Record<string, string | number> {
  const { db } = sandbox.core;
  const tables = db
    .all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .map((t) => t.name);
  const counted = new Set(['deliveries', 'webhook_endpoints', 'jobs', 'clock', 'clocks']);
  const digest: Record<string, string | number> = {};
  for (const table of tables) {
    if (table === 'idempotency_keys') continue;
    digest[table] = counted.has(table)
      ? db.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)!.n
      : JSON.stringify(db.all(`SELECT * FROM ${table} ORDER BY rowid`));
  }
  return digest;
}

export interface TestSandbox extends RunningSandbox {
  /** Problems found in responses so far (each test expects none). */
  problems: string[];
  /** A typed client of the package for a key; every response it receives is validated. */
  client(apiKey?: string): ReturnType<typeof createPartnerClient>;
  /** Raw request (for bodies the typed client cannot send); validated like the client's. */
  request(
    method: string,
    path: string,
    init?: { key?: string | null; body?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** The simulation API. */
  simulate(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: any }>;
  advance(seconds: number, key?: string): Promise<void>;
}

export const KEY = 'sk_test_scenario';

/** The clock of a key's account: each account has its own (src/sandbox/core/clock.ts), which its key's advance moves. */
export const clockOf = (sandbox: Pick<RunningSandbox, 'core'>, key = KEY) => sandbox.core.clock.of(sandbox.core.accounts.resolve(key).id);

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox({ port: 0, freezeClock: true, rateLimit: false, ...options });
  const problems: string[] = [];
  const checkedFetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const text = await response.clone().text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push(`${request.method} ${request.url}: body is not JSON: ${text.slice(0, 80)}`);
    }
    problems.push(...responseProblems(request.method, request.url, response.status, body, Object.fromEntries(response.headers)));
    return response;
  };
  const test: TestSandbox = Object.assign(sandbox, {
    problems,
    client: (apiKey = KEY) =>
      createPartnerClient({
        apiKey,
        baseUrl: sandbox.baseUrl,
        giftCardBaseUrl: sandbox.giftCardBaseUrl,
        retry: false,
        fetch: checkedFetch,
      }),
    async request(method: string, path: string, init: { key?: string | null; body?: string; headers?: Record<string, string> } = {}) {
      const headers: Record<string, string> = {
        ...(init.key === null ? {} : { Authorization: `Bearer ${init.key ?? KEY}` }),
        ...init.headers,
      };
      if (init.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
        headers['Content-Type'] = 'application/json';
      const response = await checkedFetch(`${sandbox.url}${path}`, { method, headers, body: init.body });
      return { status: response.status, body: await response.json(), headers: response.headers };
    },
    async simulate(method: string, path: string, body?: unknown, key = KEY) {
      const response = await fetch(`${sandbox.simulationUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const parsed = await response.json();
      const template = matchPathTemplate(SIMULATION_DOCUMENT, method, path);
      const errors = template
        ? simulationResponses.validate(method, template, response.status, parsed)
        : [{ pointer: '', message: `no simulation operation ${method} ${path}` }];
      if (errors.length > 0) problems.push(`simulation ${method} ${path} ${response.status}:\n${formatErrors(errors)}`);
      return { status: response.status, body: parsed };
    },
    async advance(seconds: number, key = KEY) {
      // The package's typed client of the simulation API.
      const { data, error } = await createSimulationClient({ apiKey: key, baseUrl: sandbox.simulationUrl }).POST('/clock/advance', {
        body: { seconds },
      });
      if (!data) throw new Error(`advance failed: ${JSON.stringify(error)}`);
      problems.push(
        ...simulationResponses.validate('POST', '/clock/advance', 200, data).map((e) => `simulation advance: ${e.pointer} ${e.message}`),
      );
    },
  });
  return test;
}

export interface ReceivedEvent {
  id: string;
  type: string;
  created_at: string;
  mode: string;
  data: Record<string, any>;
  idempotencyKey: string;
  /** The status the receiver answered this delivery with. */
  answered: number;
}

export interface Receiver {
  url: string;
  /** The secret deliveries are verified with (set after the endpoint is created). */
  secret: string | undefined;
  /** Status to answer events with (200 by default). */
  status: number;
  /** Status to answer pings with (200 by default). */
  pingStatus: number;
  events: ReceivedEvent[];
  pings: number;
  /** Deliveries whose signature did not verify, and events that do not match the contract. */
  problems: string[];
  of(type: string): ReceivedEvent[];
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 that verifies every delivery with the toolkit (verifyWebhook). */
export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    secret: undefined,
    status: 200,
    pingStatus: 200,
    events: [],
    pings: 0,
    problems: [],
    of: (type) => receiver.events.filter((e) => e.type === type),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const parsed = JSON.parse(raw) as ReceivedEvent;
        if (parsed.type === PING_TYPE) {
          receiver.pings++;
        } else if (receiver.secret) {
          try {
            const event = (await verifyWebhook(raw, req.headers, receiver.secret)) as unknown as ReceivedEvent;
            receiver.events.push({ ...event, idempotencyKey: String(req.headers['x-service-idempotency-key']), answered: receiver.status });
            receiver.problems.push(...eventProblems(event));
          } catch (error) {
            receiver.problems.push(`${parsed.type}: ${(error as Error).message}`);
          }
        }
        res.writeHead(parsed.type === PING_TYPE ? receiver.pingStatus : receiver.status).end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

/**
 * The set-up graph (src/setup) over a sandbox, for one key's account: requests go through the checked
 * `request` and `simulate` (every answer validated), bodies are the contract's request examples. One per
 * sandbox and key, so that what one helper made (the receiver's endpoint) the next one finds.
 */
export function setupFor(sandbox: TestSandbox, key = KEY): Setup {
  let byKey = setups.get(sandbox);
  if (!byKey) {
    byKey = new Map();
    setups.set(sandbox, byKey);
  }
  let setup = byKey.get(key);
  if (!setup) {
    setup = new Setup(SETUP_GRAPH, {
      async call(method, path, body) {
        const base = path.startsWith('/gift-cards') ? '/api/v1' : '/v1';
        const answer = await sandbox.request(method, `${base}${path}`, {
          key,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: answer.status, body: answer.body };
      },
      simulate: (method, path, body) => sandbox.simulate(method, path, body, key),
      requestExample: (method, path) => requestExamples(method, path)[0],
    });
    byKey.set(key, setup);
  }
  return setup;
}
const setups = new WeakMap<TestSandbox, Map<string, Setup>>();

/** Registers the receiver as an endpoint of the key's account (subscribed to `*`) and keeps its secret. */
export async function connect(sandbox: TestSandbox, receiver: Receiver, key = KEY): Promise<string> {
  const setup = setupFor(sandbox, key);
  const code = await setup.fresh('webhookEndpoint', { body: { url: receiver.url, events: ['*'], description: 'test receiver' } });
  receiver.secret = String(setup.created.get(code)?.secret);
  setup.codes.set('webhookEndpoint', code);
  return code;
}

/** A customer of the key's account (an endpoint must exist). */
export async function newCustomer(sandbox: TestSandbox, key = KEY): Promise<string> {
  return setupFor(sandbox, key).fresh('customer', { body: { external_reference: `cust-${Math.random().toString(36).slice(2, 10)}` } });
}

/** Waits until `check` holds (deliveries run on real timers), up to `ms`: a ceiling for a loaded machine, not a measure. */
export async function until(check: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The error answer of a call that must fail: status, code and details (throws when the call succeeds). */
export async function failure(promise: Promise<unknown>): Promise<{ status: number; code: string; details: any }> {
  try {
    await promise;
  } catch (error) {
    if (isPartnerApiError(error)) return { status: error.status, code: error.code, details: error.details as any };
    throw error;
  }
  throw new Error('expected an error answer');
}

/**
 * Takes a customer to a verification level the way a partner does (the set-up graph's steps): `verified`
 * through an approved KYC link, `full` then through an approved proof of address. Each step is billed to the
 * `others` balance (2 and 1 USD).
 */
export async function verifyCustomer(sandbox: TestSandbox, customer: string, level: 'verified' | 'full', key = KEY): Promise<void> {
  await setupFor(sandbox, key).bring(level === 'verified' ? 'verifiedCustomer' : 'fullCustomer', customer);
}

/** Restricts a customer the way the service does: a KYC approved with an identity mismatch (until `synchronize`). */
export async function restrictCustomer(sandbox: TestSandbox, customer: string, key = KEY): Promise<void> {
  await setupFor(sandbox, key).bring('restrictedCustomer', customer);
}

/** An ops balance of the key's account, in USD. */
export async function opsBalance(sandbox: TestSandbox, type: BalanceType, key = KEY): Promise<number> {
  return (await sandbox.client(key).call.GET('/balance/{type}', { params: { path: { type } } })).data.balance;
}

/** Every balance transaction of one ops balance, oldest first: the ledger a test reconciles. */
export function ledgerOf(
  sandbox: TestSandbox,
  type: string,
  key = KEY,
): { direction: string; amount_minor: number; balance_after_minor: number; reason: string }[] {
  const account = sandbox.core.accounts.resolve(key);
  return sandbox.core.db.all(
    'SELECT direction, amount_minor, balance_after_minor, reason FROM balance_transactions WHERE account_id = ? AND balance_type = ? ORDER BY seq',
    account.id,
    type,
  );
}

/**
 * Walks the ledger of one ops balance from its opening amount: each transaction's `balance_after` must be
 * the running total, and the last one the balance now. Returns the movements by reason (minor units, credits
 * positive, debits negative) so that a test can account for every cent.
 */
export function reconcile(
  sandbox: TestSandbox,
  type: BalanceType,
  key = KEY,
  openingMinor = OPENING_BALANCE_MINOR,
): Record<string, number> {
  let running = openingMinor;
  const byReason: Record<string, number> = {};
  for (const tx of ledgerOf(sandbox, type, key)) {
    const signed = tx.direction === 'credit' ? tx.amount_minor : -tx.amount_minor;
    running += signed;
    if (running !== tx.balance_after_minor)
      throw new Error(`ledger of ${type}: ${running} expected after ${tx.reason}, ${tx.balance_after_minor} recorded`);
    byReason[tx.reason] = (byReason[tx.reason] ?? 0) + signed;
  }
  const now = sandbox.core.ledger.balance(sandbox.core.accounts.resolve(key).id, type).minor;
  if (running !== now) throw new Error(`ledger of ${type}: the transactions add up to ${running}, the balance is ${now}`);
  return byReason;
}

export interface Scenario {
  sandbox: TestSandbox;
  receiver: Receiver;
  /** The receiver's endpoint code (undefined with `connect: false`). */
  endpoint: string;
  /** A customer of the scenario's key (undefined with `customer: false`). */
  customer: string;
}

export interface ScenarioOptions {
  /** The API key whose account the receiver and the customer belong to (KEY by default). */
  key?: string;
  sandbox?: SandboxOptions;
  /** Register the receiver as an endpoint of the key's account (true by default). */
  connect?: boolean;
  /** Create a customer (true by default; it needs `connect`). */
  customer?: boolean;
}

/**
 * The scenario of a test file: before its tests, a sandbox, a receiver that verifies every delivery, connected
 * as an endpoint of the key's account, and a customer of that account; after each test, every response and
 * every event must have conformed to the contract; after all, both close. The returned object is filled in
 * before the first test: read its fields in tests and hooks (`beforeAll(() => ({ sandbox } = scenario))`).
 */
export function useScenario(options: ScenarioOptions = {}): Scenario {
  const key = options.key ?? KEY;
  const scenario = {} as Scenario;
  beforeAll(async () => {
    scenario.sandbox = await startTestSandbox(options.sandbox);
    scenario.receiver = await startReceiver();
    if (options.connect !== false) scenario.endpoint = await connect(scenario.sandbox, scenario.receiver, key);
    if (options.customer !== false && options.connect !== false) scenario.customer = await newCustomer(scenario.sandbox, key);
  });
  afterAll(async () => {
    await scenario.sandbox?.close();
    await scenario.receiver?.close();
  });
  afterEach(() => {
    const problems = [...scenario.sandbox.problems, ...scenario.receiver.problems];
    if (problems.length > 0) throw new Error(problems.join('\n'));
  });
  return scenario;
}
