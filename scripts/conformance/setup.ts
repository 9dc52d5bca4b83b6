// Real mode: before the first transaction, the resources the requests need, brought about in the order of the
// set-up graph (src/setup/graph.ts: webhook endpoint -> customer -> card -> top-up, beneficiary -> quote ...),
// each adopted from the contract's examples when the server holds them (a sandbox seeded with them), else
// created through the API, else found in its list; then the suite's own records in the states some operations
// need (customers whose verification is open, KYC-verified, restricted; a second quote). What cannot be set up
// is recorded with the reason, which the transactions that need it are skipped with.
import { randomUUID } from 'node:crypto';
import { SETUP_GRAPH, type ResourceKey } from '../../src/setup/graph.ts';
import { Setup, stateChain, type SetupDriver } from '../../src/setup/setup.ts';
import { enumValues, firstRequestExample, isGiftCards, parameters, pathExample } from './contract.ts';
import { api, call, dataOf, simulate } from './http.ts';
import { label, type ResourceName } from './resources.ts';
import { fillTemplate } from './transaction.ts';
import type { HookState } from './types.ts';

const RESOURCES = SETUP_GRAPH.resources;

/** The graph's resources the suite sets up, in dependency order, and how it looks for each first. */
const PLAN: { key: ResourceKey; first: 'adopt' | 'create' }[] = [
  // The suite's own endpoint first, at --webhook-url, so that the server's pings and deliveries reach it.
  { key: 'webhookEndpoint', first: 'create' },
  { key: 'customer', first: 'adopt' },
  { key: 'card', first: 'adopt' },
  { key: 'cardTopup', first: 'adopt' },
  { key: 'beneficiary', first: 'adopt' },
  { key: 'payoutQuote', first: 'create' },
  { key: 'virtualAccount', first: 'adopt' },
  { key: 'giftCardProduct', first: 'adopt' },
  { key: 'giftCardOrder', first: 'adopt' },
  { key: 'payout', first: 'adopt' },
  { key: 'event', first: 'adopt' },
];

/**
 * The set-up graph's driver for a key of the run (the suite's by default): the partner API at --server (gift
 * cards at --alt-server), the simulation API where given, the contract's request examples, a fresh
 * `external_reference` for each customer and --webhook-url for each endpoint.
 */
export function setupDriver(state: HookState, key = state.config.apiKey): SetupDriver {
  const { config } = state;
  const client = api(config, key);
  return {
    call: (method, path, body) => client.call(method, path, body, isGiftCards(path) ? config.altServer : undefined),
    simulate: config.simulationUrl ? (method, path, body) => simulate(config, method, path, body, key) : undefined,
    requestExample: (method, path) => firstRequestExample(state, method, path),
    prepare(resource, body) {
      if (resource === 'customer' && typeof body.external_reference === 'string') body.external_reference = `conformance-${randomUUID().slice(0, 8)}`;
      // The url of the endpoint must answer the server's ping: use --webhook-url.
      if (resource === 'webhookEndpoint' && config.webhookUrl) body.url = config.webhookUrl;
    },
  };
}

/** Creates, adopts or finds the resources the requests need, in dependency order; returns the graph's runner, which knows them. */
export async function setUp(state: HookState, log: (line: string) => void = (line) => state.setupLog.push(line)): Promise<Setup> {
  const { config } = state;
  const client = api(config);
  const has = (method: string, template: string) => state.validator.operation(method, template) !== undefined;
  const giftCardsUnreachable = (template: string) => isGiftCards(template) && !config.altServer;
  const setup = new Setup(SETUP_GRAPH, { ...setupDriver(state), log });
  const remember = (key: ResourceName, code: string, line: string) => {
    state.resources.set(key, code);
    state.missing.delete(key);
    if (key in RESOURCES) setup.codes.set(key as ResourceKey, code);
    log(line);
  };
  const fail = (key: ResourceName, reason: string): undefined => {
    state.missing.set(key, reason);
  };

  /** The operations that bring `key` about (its own create, or its earlier state's and its steps) are in the contract. */
  const creatable = (key: ResourceKey): boolean => {
    const node = RESOURCES[key];
    if (node.from) return creatable(node.from) && stateChain(SETUP_GRAPH, key).every((s) => (RESOURCES[s].steps ?? []).every((step) => !('call' in step) || has(step.call.method, step.call.path)));
    return node.create !== undefined && has(node.create.method, node.create.path) && !giftCardsUnreachable(node.create.path);
  };

  /** A record made through the graph (with what it needs), or the reason it could not be. */
  const create = async (key: ResourceKey) => {
    const node = RESOURCES[key];
    if (state.resources.has(key) || !creatable(key)) return;
    // A later state is made fresh: the earlier one it comes from (a quote) stays for the operations that need it.
    const made = await (node.from ? setup.fresh(key) : setup.ensure(key)).catch((error: Error) => fail(key, error.message));
    const how = node.create ?? RESOURCES[node.from!].create!;
    if (made) remember(key, made, `set-up: ${how.method} ${how.path} -> ${label(key)} ${made}`);
  };

  /** One from the resource's list (an active one first). */
  const find = async (key: ResourceKey) => {
    const list = RESOURCES[key].list;
    if (state.resources.has(key) || !list) return;
    if (!has('GET', list.path)) {
      if (!state.missing.has(key)) fail(key, `GET ${list.path} is not in the contract, so none can be found`);
      return;
    }
    if (giftCardsUnreachable(list.path)) return fail(key, 'gift card operations are served at {alt_base_url}: pass --alt-server <url>');
    try {
      const code = await setup.find(key);
      if (code) remember(key, code, `set-up: GET ${list.path} -> existing ${label(key)} ${code}`);
      else if (!state.missing.has(key)) fail(key, `no ${label(key)} exists (GET ${list.path} lists none) and the suite does not create one`);
      else fail(key, `${state.missing.get(key)}; and GET ${list.path} lists none`);
    } catch (e) {
      fail(key, `GET ${list.path} failed: ${(e as Error).message}`);
    }
  };

  /**
   * Adopts the record of the contract's example (the path parameter examples, `GET /cards/7c9e6679-…`) when
   * the server holds it, as a sandbox started with `--seed examples` does: the example-driven requests then
   * find their resources as they are.
   */
  const adopt = async (key: ResourceKey) => {
    const template = RESOURCES[key].read;
    if (state.resources.has(key) || !template || !has('GET', template) || giftCardsUnreachable(template)) return;
    const params = new Map<string, string>();
    for (const [, name] of template.matchAll(/\{([^}]+)\}/g)) {
      const value = pathExample(state, 'GET', template, name!);
      if (value === undefined) return;
      params.set(name!, value);
    }
    const code = params.get([...params.keys()].at(-1)!);
    // A nested record (a top-up) is adopted only with its parent (the example card).
    const parents = [...params].filter(([, value]) => value !== code);
    if (parents.some(([name, value]) => state.resources.get(RESOURCES[key].refs?.[name] ?? '') !== value)) return;
    try {
      const res = await client.call('GET', fillTemplate(template, params), undefined, isGiftCards(template) ? config.altServer : undefined);
      if (res.status === 200 && code) remember(key, code, `set-up: GET ${template} -> the contract's example ${label(key)} ${code} exists`);
    } catch {
      // not there: created or found
    }
  };

  /** A record of the suite's own: a fresh `key` of the graph, logged under the suite's name for it. */
  const own = async (name: ResourceName, key: ResourceKey, line: (code: string) => string) => {
    const code = await setup.fresh(key).catch((error: Error) => fail(name, error.message));
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
      fail(key, held ? 'the account of --no-product-key holds every documented balance type' : `GET /balance with --no-product-key answered ${listed?.status ?? 'nothing'}`);
      return;
    }
    remember(key, type, `set-up: GET /balance with --no-product-key -> ${label(key)} ${type}`);
  };

  for (const { key, first } of PLAN) {
    if (first === 'adopt') await adopt(key);
    await create(key);
    if (first === 'create') await adopt(key);
    await find(key);
    if (key === 'customer') {
      // KYC and proof of address need customers whose verification is still open.
      if (creatable('customer')) await own('unverified customer', 'customer', (code) => `set-up: POST /customers -> ${label('unverified customer')} ${code}`);
      if (creatable('verifiedCustomer')) await own('KYC-verified customer', 'verifiedCustomer', (code) => `set-up: POST /kyc/{customerCode}/link -> ${label('KYC-verified customer')} ${code} (verified)`);
    }
  }
  if (config.noProductKey) await unheldBalanceType();
  if (config.simulationUrl) {
    if (creatable('restrictedCustomer')) {
      await own('identity-mismatched customer', 'restrictedCustomer', (code) => `set-up: POST ${config.simulationUrl}/kyc/{customerCode}/outcome approved_identity_mismatch -> ${label('identity-mismatched customer')} ${code}`);
    }
    // 400 INSUFFICIENT_BALANCE of POST /payouts confirms a quote of its own (the 200 confirms the first one).
    if (state.resources.has('beneficiary') && creatable('payoutQuote')) await own('spare quote', 'payoutQuote', (code) => `set-up: POST /payouts/quotes -> ${label('spare quote')} ${code}`);
  }
  for (const [key, reason] of state.missing) log(`set-up: no ${label(key)}: ${reason}`);
  return setup;
}
