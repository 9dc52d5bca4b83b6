// Real mode: before the first check, the resources the requests need, each created through the API in the order
// of the set-up graph (src/setup/graph.ts: webhook endpoint -> customer -> card -> top-up, beneficiary -> quote
// ...), named with the run's id; then the suite's own records in the states some operations need (customers
// whose verification is open, KYC-verified, restricted; a second quote). The suite never takes a record it did
// not create: on a server that keeps its state, another run's card may be frozen, terminated or drained, and the
// contract's example records are shared by whoever uses them. Only what the API cannot create is found in its
// list: a gift card product of the catalogue, and an event, one that the run's own records set off.
//
// What cannot be set up is recorded with the reason, which the transactions that need it are skipped with. A
// request the server under test refused is also a set-up failure of the report, with its answer and a curl
// reproducer; one the simulation API refused is only a reason to skip (it is the suite's means, not the server).
import { checkpoint } from './interrupt.ts';
import { SETUP_GRAPH, type ResourceKey } from '../../src/setup/graph.ts';
import { dependencyOrder, Setup, SetupError, stateChain, type RefusedCall, type SetupDriver } from '../../src/setup/setup.ts';
import { madeRecord } from './cleanup.ts';
import { enumValues, firstRequestExample, isGiftCards, parameters } from './contract.ts';
import { api, bodyText, call, curlOf, dataOf, join } from './http.ts';
import { simulate } from './simulation.ts';
import { adjustBody, label, type ResourceName } from './resources.ts';
import type { JsonObject } from '../lib/pointer.ts';
import type { CheckResult, ConformanceConfig, HookState } from './types.ts';
import type { ResponseValidator } from './validate-response.ts';

const RESOURCES = SETUP_GRAPH.resources;

/** The state of a run before its set-up: nothing made, nothing missing. */
export function emptyState(config: ConformanceConfig, validator: ResponseValidator): HookState {
  return { config, validator, records: [], resources: new Map(), missing: new Map(), setupLog: [], setupFailures: [], made: [] };
}

/** The graph's resources the suite sets up, in dependency order. */
const PLAN: ResourceKey[] = [
  // The suite's own endpoint first, at --webhook-url, so that the server's pings and deliveries reach it.
  'webhookEndpoint',
  'customer',
  'card',
  'cardTopup',
  'beneficiary',
  'payoutQuote',
  'virtualAccount',
  'giftCardProduct',
  'giftCardOrder',
  'payout',
];

/**
 * The set-up graph's driver for a key of the run (the suite's by default): the partner API at --server (gift
 * cards at --alt-server), the simulation API where given, the contract's request examples named with the run's
 * id, --webhook-url for each endpoint, and never a record the run did not make. Every record made is noted for
 * the clean-up.
 */
export function setupDriver(state: HookState, key = state.config.apiKey): SetupDriver {
  const { config } = state;
  const client = api(config, key);
  return {
    async call(method, path, body) {
      // A run stopped by a signal makes nothing more: the clean-up could not know it.
      await checkpoint();
      const answer = await client.call(method, path, body, isGiftCards(path) ? config.altServer : undefined);
      const made = madeRecord(state.validator, method, path, answer.status, answer.body, key);
      if (made) state.made.push(made);
      return answer;
    },
    simulate: config.simulationUrl ? (method, path, body) => simulate(config, method, path, body, key) : undefined,
    requestExample: (method, path) => firstRequestExample(state, method, path),
    prepare(resource, body) {
      const create = RESOURCES[resource].create;
      if (create) adjustBody(config, create.method, create.path, body as JsonObject);
    },
    reuseExisting: false,
    // A card still pending cannot be frozen or topped up: its transactions are skipped, with the reason, instead.
    requireReady: true,
  };
}

/** A set-up failure of the report: the request the server refused, its answer, and the curl that replays it. */
function setupFailure(state: HookState, key: ResourceName, refused: RefusedCall): CheckResult {
  const { config } = state;
  const base = isGiftCards(refused.path) && config.altServer ? config.altServer : config.server;
  const body = refused.body === undefined ? undefined : JSON.stringify(refused.body);
  const url = join(base, refused.path);
  return {
    group: 'set-up',
    name: `${refused.method} ${url}${body ? ` ${body}` : ''} (for a ${label(key)})`,
    outcome: 'failed',
    message: `answered ${refused.status}: ${bodyText(refused.answer)}`,
    reproducer: curlOf(
      refused.method,
      url,
      { Authorization: `Bearer ${config.apiKey}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body,
    ),
  };
}

/** Creates the resources the requests need, in dependency order; returns the graph's runner, which knows them. */
export async function setUp(state: HookState, log: (line: string) => void = (line) => state.setupLog.push(line)): Promise<Setup> {
  const { config } = state;
  const has = (method: string, template: string) => state.validator.operation(method, template) !== undefined;
  const giftCardsUnreachable = (template: string) => isGiftCards(template) && !config.altServer;
  const setup = new Setup(SETUP_GRAPH, { ...setupDriver(state), log });
  const unfunded = config.unfunded ?? {};
  const reported = new Set<object>();
  const remember = (key: ResourceName, code: string, line: string) => {
    state.resources.set(key, code);
    state.missing.delete(key);
    if (key in RESOURCES) setup.codes.set(key as ResourceKey, code);
    log(line);
  };
  const fail = (key: ResourceName, reason: string, error?: unknown): undefined => {
    state.missing.set(key, reason);
    // One failure per refused request, however many resources needed what it would have made.
    // The simulation API is the suite's means, not the server under test: what it refuses is a reason to skip.
    const refused = error instanceof SetupError && error.call?.api === 'partner' ? error.call : undefined;
    if (refused && !reported.has(refused)) {
      reported.add(refused);
      state.setupFailures.push(setupFailure(state, key, refused));
    }
  };

  /** The operations that bring `key` about (its own create, or its earlier state's and its steps). */
  const operationsOf = (key: ResourceKey): string[] => {
    const node = RESOURCES[key];
    if (node.from)
      return [
        ...operationsOf(node.from),
        ...stateChain(SETUP_GRAPH, key).flatMap((s) =>
          (RESOURCES[s].steps ?? []).flatMap((step) => ('call' in step ? [`${step.call.method} ${step.call.path}`] : [])),
        ),
      ];
    return node.create ? [`${node.create.method} ${node.create.path}`] : [];
  };
  /** The operations that bring `key` about are in the contract. */
  const creatable = (key: ResourceKey): boolean => {
    const node = RESOURCES[key];
    if (!node.from && (!node.create || giftCardsUnreachable(node.create.path))) return false;
    return operationsOf(key).every((op) => has(op.split(' ')[0]!, op.split(' ')[1]!));
  };
  /** Why the money `key` (or a resource it needs) spends is not in place (balances.ts), if it is not. */
  const moneyProblem = (key: ResourceKey): string | undefined => {
    const op = dependencyOrder(SETUP_GRAPH, [key])
      .flatMap(operationsOf)
      .find((o) => unfunded[o]);
    return op ? `${op}: ${unfunded[op]}` : undefined;
  };

  /** A record made through the graph (with what it needs), or the reason it could not be. */
  const create = async (key: ResourceKey) => {
    const node = RESOURCES[key];
    if (state.resources.has(key)) return;
    if (!creatable(key)) {
      const path = node.create?.path ?? '';
      if (giftCardsUnreachable(path)) fail(key, 'gift card operations are served at {alt_base_url}: pass --alt-server <url>');
      else fail(key, `the contract has no operation that creates a ${label(key)}`);
      return;
    }
    const money = moneyProblem(key);
    if (money) return fail(key, money);
    // A later state is made fresh: the earlier one it comes from (a quote) stays for the operations that need it.
    const made = await (node.from ? setup.fresh(key) : setup.ensure(key)).catch((error: Error) => fail(key, error.message, error));
    const how = node.create ?? RESOURCES[node.from!].create!;
    if (made) remember(key, made, `set-up: ${how.method} ${how.path} -> ${label(key)} ${made}`);
  };

  /** One of what the API cannot create, from its list: a gift card product of the catalogue. */
  const find = async (key: ResourceKey) => {
    const list = RESOURCES[key].list;
    if (state.resources.has(key) || !list) return;
    if (!has('GET', list.path)) return fail(key, `GET ${list.path} is not in the contract, so none can be found`);
    if (giftCardsUnreachable(list.path)) return fail(key, 'gift card operations are served at {alt_base_url}: pass --alt-server <url>');
    try {
      const code = await setup.find(key);
      if (code) remember(key, code, `set-up: GET ${list.path} -> ${label(key)} ${code}`);
      else fail(key, `no ${label(key)} exists (GET ${list.path} lists none) and the API does not create one`);
    } catch (e) {
      fail(key, `GET ${list.path} failed: ${(e as Error).message}`);
    }
  };

  /**
   * An event that the run's own records set off: the latest one that names one of them, of a type the run's
   * endpoint subscribes to where there is one (a redelivery goes to that endpoint).
   */
  const ownEvent = async () => {
    const list = RESOURCES.event.list!;
    if (!has('GET', list.path)) return fail('event', `GET ${list.path} is not in the contract, so none can be found`);
    const ours = [...state.resources.values()];
    const endpoint = setup.codes.get('webhookEndpoint');
    const subscribed = (endpoint ? setup.created.get(endpoint)?.events : undefined) as unknown;
    const wanted = (type: unknown) => !Array.isArray(subscribed) || subscribed.includes('*') || subscribed.includes(type);
    try {
      const answer = await call(join(config.server, `${list.path}?limit=100`), config.apiKey);
      const events = (Array.isArray(dataOf(answer)) ? dataOf(answer) : []) as Record<string, unknown>[];
      const named = events.filter((e) => ours.some((code) => JSON.stringify(e.data ?? {}).includes(code)));
      const event = named.find((e) => wanted(e.type)) ?? named[0];
      const id = event && list.id.map((f) => event[f]).find((v): v is string => typeof v === 'string');
      if (id)
        remember('event', id, `set-up: GET ${list.path} -> ${label('event')} ${id} (${String(event!.type)}, set off by the run's records)`);
      else fail('event', `GET ${list.path} answered ${answer.status} with no event that names a record of this run`);
    } catch (e) {
      fail('event', `GET ${list.path} failed: ${(e as Error).message}`);
    }
  };

  /** A record of the suite's own: a fresh `key` of the graph, logged under the suite's name for it. */
  const own = async (name: ResourceName, key: ResourceKey, line: (code: string) => string) => {
    const money = moneyProblem(key);
    if (money) return fail(name, money);
    const code = await setup.fresh(key).catch((error: Error) => fail(name, error.message, error));
    if (code) remember(name, code, line(code));
  };

  /** A documented balance type that the account of --no-product-key does not hold (for the balance 404s). */
  const unheldBalanceType = async () => {
    const key = 'unheld balance type';
    const def = parameters(state, 'GET', '/balance/{type}').find((p) => p.name === 'type' && p.in === 'path');
    const documented = enumValues(state, def?.schema);
    if (!documented.length || !has('GET', '/balance')) return;
    const listed = await call(`${config.server.replace(/\/$/, '')}/balance`, config.noProductKey!).catch(() => undefined);
    const held = listed && Array.isArray(dataOf(listed)) ? (dataOf(listed) as { type?: unknown }[]).map((b) => b.type) : undefined;
    const type = held ? documented.find((t) => typeof t === 'string' && !held.includes(t)) : undefined;
    if (typeof type !== 'string') {
      fail(
        key,
        held
          ? 'the account of --no-product-key holds every documented balance type'
          : `GET /balance with --no-product-key answered ${listed?.status ?? 'nothing'}`,
      );
      return;
    }
    remember(key, type, `set-up: GET /balance with --no-product-key -> ${label(key)} ${type}`);
  };

  if (config.runId) log(`set-up: run ${config.runId}: the records it creates carry this id`);
  for (const key of PLAN) {
    if (RESOURCES[key].create || RESOURCES[key].from) await create(key);
    else await find(key);
    if (key === 'customer') {
      // KYC and proof of address need customers whose verification is still open.
      if (creatable('customer'))
        await own('unverified customer', 'customer', (code) => `set-up: POST /customers -> ${label('unverified customer')} ${code}`);
      if (creatable('verifiedCustomer'))
        await own(
          'KYC-verified customer',
          'verifiedCustomer',
          (code) => `set-up: POST /kyc/{customerCode}/link -> ${label('KYC-verified customer')} ${code} (verified)`,
        );
    }
  }
  await ownEvent();
  if (config.noProductKey) await unheldBalanceType();
  if (config.simulationUrl) {
    if (creatable('restrictedCustomer')) {
      await own(
        'identity-mismatched customer',
        'restrictedCustomer',
        (code) =>
          `set-up: POST ${config.simulationUrl}/kyc/{customerCode}/outcome approved_identity_mismatch -> ${label('identity-mismatched customer')} ${code}`,
      );
    }
    // 400 INSUFFICIENT_BALANCE of POST /payouts confirms a quote of its own (the 200 confirms the first one).
    if (state.resources.has('beneficiary') && creatable('payoutQuote'))
      await own('spare quote', 'payoutQuote', (code) => `set-up: POST /payouts/quotes -> ${label('spare quote')} ${code}`);
  }
  for (const [key, reason] of state.missing) log(`set-up: no ${label(key)}: ${reason}`);
  return setup;
}
