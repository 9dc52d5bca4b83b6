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
  const run = new SetupRun(state, log);
  if (config.runId) log(`set-up: run ${config.runId}: the records it creates carry this id`);
  for (const key of PLAN) {
    if (RESOURCES[key].create || RESOURCES[key].from) await run.create(key);
    else await run.find(key);
    if (key === 'customer') await run.customersOfOwn();
  }
  await run.ownEvent();
  if (config.noProductKey) await run.unheldBalanceType();
  if (config.simulationUrl) await run.simulatedRecords();
  for (const [key, reason] of state.missing) log(`set-up: no ${label(key)}: ${reason}`);
  return run.setup;
}

/** One set-up: the graph's runner over the server, what it made, and what it could not (reported once per refusal). */
class SetupRun {
  readonly setup: Setup;
  private readonly state: HookState;
  private readonly log: (line: string) => void;
  private readonly unfunded: Record<string, string>;
  private readonly reported = new Set<object>();

  constructor(state: HookState, log: (line: string) => void) {
    this.state = state;
    this.log = log;
    this.unfunded = state.config.unfunded ?? {};
    this.setup = new Setup(SETUP_GRAPH, { ...setupDriver(state), log });
  }

  private has(method: string, template: string): boolean {
    return this.state.validator.operation(method, template) !== undefined;
  }

  private giftCardsUnreachable(template: string): boolean {
    return isGiftCards(template) && !this.state.config.altServer;
  }

  private remember(key: ResourceName, code: string, line: string): void {
    this.state.resources.set(key, code);
    this.state.missing.delete(key);
    if (key in RESOURCES) this.setup.codes.set(key as ResourceKey, code);
    this.log(line);
  }

  private fail(key: ResourceName, reason: string, error?: unknown): undefined {
    this.state.missing.set(key, reason);
    // One failure per refused request, however many resources needed what it would have made.
    // The simulation API is the suite's means, not the server under test: what it refuses is a reason to skip.
    const refused = error instanceof SetupError && error.call?.api === 'partner' ? error.call : undefined;
    if (refused && !this.reported.has(refused)) {
      this.reported.add(refused);
      this.state.setupFailures.push(setupFailure(this.state, key, refused));
    }
    return undefined;
  }

  /** The operations that bring `key` about (its own create, or its earlier state's and its steps). */
  private operationsOf(key: ResourceKey): string[] {
    const node = RESOURCES[key];
    if (node.from)
      return [
        ...this.operationsOf(node.from),
        ...stateChain(SETUP_GRAPH, key).flatMap((s) =>
          (RESOURCES[s].steps ?? []).flatMap((step) => ('call' in step ? [`${step.call.method} ${step.call.path}`] : [])),
        ),
      ];
    return node.create ? [`${node.create.method} ${node.create.path}`] : [];
  }

  /** The operations that bring `key` about are in the contract. */
  creatable(key: ResourceKey): boolean {
    const node = RESOURCES[key];
    if (!node.from && (!node.create || this.giftCardsUnreachable(node.create.path))) return false;
    return this.operationsOf(key).every((op) => this.has(op.split(' ')[0]!, op.split(' ')[1]!));
  }

  /** Why the money `key` (or a resource it needs) spends is not in place (balances.ts), if it is not. */
  private moneyProblem(key: ResourceKey): string | undefined {
    const op = dependencyOrder(SETUP_GRAPH, [key])
      .flatMap((k) => this.operationsOf(k))
      .find((o) => this.unfunded[o]);
    return op ? `${op}: ${this.unfunded[op]}` : undefined;
  }

  /** A record made through the graph (with what it needs), or the reason it could not be. */
  async create(key: ResourceKey): Promise<void> {
    const node = RESOURCES[key];
    if (this.state.resources.has(key)) return;
    if (!this.creatable(key)) {
      const path = node.create?.path ?? '';
      if (this.giftCardsUnreachable(path)) this.fail(key, 'gift card operations are served at {alt_base_url}: pass --alt-server <url>');
      else this.fail(key, `the contract has no operation that creates a ${label(key)}`);
      return;
    }
    const money = this.moneyProblem(key);
    if (money) {
      this.fail(key, money);
      return;
    }
    // A later state is made fresh: the earlier one it comes from (a quote) stays for the operations that need it.
    const made = await (node.from ? this.setup.fresh(key) : this.setup.ensure(key)).catch((error: Error) =>
      this.fail(key, error.message, error),
    );
    const how = node.create ?? RESOURCES[node.from!].create!;
    if (made) this.remember(key, made, `set-up: ${how.method} ${how.path} -> ${label(key)} ${made}`);
  }

  /** One of what the API cannot create, from its list: a gift card product of the catalogue. */
  async find(key: ResourceKey): Promise<void> {
    const list = RESOURCES[key].list;
    if (this.state.resources.has(key) || !list) return;
    if (!this.has('GET', list.path)) {
      this.fail(key, `GET ${list.path} is not in the contract, so none can be found`);
      return;
    }
    if (this.giftCardsUnreachable(list.path)) {
      this.fail(key, 'gift card operations are served at {alt_base_url}: pass --alt-server <url>');
      return;
    }
    try {
      const code = await this.setup.find(key);
      if (code) this.remember(key, code, `set-up: GET ${list.path} -> ${label(key)} ${code}`);
      else this.fail(key, `no ${label(key)} exists (GET ${list.path} lists none) and the API does not create one`);
    } catch (e) {
      this.fail(key, `GET ${list.path} failed: ${(e as Error).message}`);
    }
  }

  /**
   * An event that the run's own records set off: the latest one that names one of them, of a type the run's
   * endpoint subscribes to where there is one (a redelivery goes to that endpoint).
   */
  async ownEvent(): Promise<void> {
    const { config } = this.state;
    const list = RESOURCES.event.list!;
    if (!this.has('GET', list.path)) {
      this.fail('event', `GET ${list.path} is not in the contract, so none can be found`);
      return;
    }
    const ours = [...this.state.resources.values()];
    const endpoint = this.setup.codes.get('webhookEndpoint');
    const subscribed = (endpoint ? this.setup.created.get(endpoint)?.events : undefined) as unknown;
    const wanted = (type: unknown) => !Array.isArray(subscribed) || subscribed.includes('*') || subscribed.includes(type);
    try {
      const answer = await call(join(config.server, `${list.path}?limit=100`), config.apiKey);
      const events = (Array.isArray(dataOf(answer)) ? dataOf(answer) : []) as Record<string, unknown>[];
      const named = events.filter((e) => ours.some((code) => JSON.stringify(e.data ?? {}).includes(code)));
      const event = named.find((e) => wanted(e.type)) ?? named[0];
      const id = event && list.id.map((f) => event[f]).find((v): v is string => typeof v === 'string');
      if (id)
        this.remember(
          'event',
          id,
          `set-up: GET ${list.path} -> ${label('event')} ${id} (${String(event!.type)}, set off by the run's records)`,
        );
      else this.fail('event', `GET ${list.path} answered ${answer.status} with no event that names a record of this run`);
    } catch (e) {
      this.fail('event', `GET ${list.path} failed: ${(e as Error).message}`);
    }
  }

  /** A record of the suite's own: a fresh `key` of the graph, logged under the suite's name for it. */
  private async own(name: ResourceName, key: ResourceKey, line: (code: string) => string): Promise<void> {
    const money = this.moneyProblem(key);
    if (money) {
      this.fail(name, money);
      return;
    }
    const code = await this.setup.fresh(key).catch((error: Error) => this.fail(name, error.message, error));
    if (code) this.remember(name, code, line(code));
  }

  /** KYC and proof of address need customers whose verification is still open. */
  async customersOfOwn(): Promise<void> {
    if (this.creatable('customer'))
      await this.own('unverified customer', 'customer', (code) => `set-up: POST /customers -> ${label('unverified customer')} ${code}`);
    if (this.creatable('verifiedCustomer'))
      await this.own(
        'KYC-verified customer',
        'verifiedCustomer',
        (code) => `set-up: POST /kyc/{customerCode}/link -> ${label('KYC-verified customer')} ${code} (verified)`,
      );
  }

  /** The records only the simulation API can bring about. */
  async simulatedRecords(): Promise<void> {
    const { config } = this.state;
    if (this.creatable('restrictedCustomer')) {
      await this.own(
        'identity-mismatched customer',
        'restrictedCustomer',
        (code) =>
          `set-up: POST ${config.simulationUrl}/kyc/{customerCode}/outcome approved_identity_mismatch -> ${label('identity-mismatched customer')} ${code}`,
      );
    }
    // 400 INSUFFICIENT_BALANCE of POST /payouts confirms a quote of its own (the 200 confirms the first one).
    if (this.state.resources.has('beneficiary') && this.creatable('payoutQuote'))
      await this.own('spare quote', 'payoutQuote', (code) => `set-up: POST /payouts/quotes -> ${label('spare quote')} ${code}`);
  }

  /** A documented balance type that the account of --no-product-key does not hold (for the balance 404s). */
  async unheldBalanceType(): Promise<void> {
    const { state } = this;
    const { config } = state;
    const key = 'unheld balance type';
    const def = parameters(state, 'GET', '/balance/{type}').find((p) => p.name === 'type' && p.in === 'path');
    const documented = enumValues(state, def?.schema);
    if (!documented.length || !this.has('GET', '/balance')) return;
    const listed = await call(`${config.server.replace(/\/$/, '')}/balance`, config.noProductKey!).catch(() => undefined);
    const held = listed && Array.isArray(dataOf(listed)) ? (dataOf(listed) as { type?: unknown }[]).map((b) => b.type) : undefined;
    const type = held ? documented.find((t) => typeof t === 'string' && !held.includes(t)) : undefined;
    if (typeof type !== 'string') {
      this.fail(
        key,
        held
          ? 'the account of --no-product-key holds every documented balance type'
          : `GET /balance with --no-product-key answered ${listed?.status ?? 'nothing'}`,
      );
      return;
    }
    this.remember(key, type, `set-up: GET /balance with --no-product-key -> ${label(key)} ${type}`);
  }
}
