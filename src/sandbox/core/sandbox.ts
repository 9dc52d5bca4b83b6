// Assembles the sandbox: store, clock, scheduler, outbox, delivery, ledger, accounts, the product modules
// and the simulation API, on one HTTP server.
import type { AddressInfo } from 'node:net';
import type { operations as SimulationOperations } from '../../../generated/sandbox.js';
import { API_KEY_RULE, apiKeyMode } from '../../client/api-key.js';
import { BASE_SERVER, GIFT_CARD_SERVER } from '../../contract/servers.js';
import type { FastifyInstance } from 'fastify';
import { Accounts, BALANCE_TYPES, DEFAULT_ACCOUNT, PLANS, type AccountDefaults, type BalanceType, type Plan } from './accounts.js';
import { Clock, type ClockMode } from './clock.js';
import type { Handlers, SandboxCore } from './context.js';
import { sandboxDocument } from './contract.js';
import { DEFAULT_RETRY_SCHEDULE, Delivery, type RetrySchedule } from './delivery.js';
import { logFailure } from './failure-log.js';
import { Faults } from './faults.js';
import { DELIVERY_JOB, Outbox } from './outbox.js';
import { Ledger } from './ledger.js';
import { toMinor } from './money.js';
import { isPublicUrl, linkBase } from './public-url.js';
import { PRODUCTS, ProductAccess, type Product, type Subscription } from './products.js';
import { Scheduler, type Job } from './scheduler.js';
import { snapshotsOf, wholeSandboxSnapshots, type SnapshotPart } from './snapshots.js';
import type { Fixture, FixtureResult } from '../fixtures/types.js';
import { buildServer } from '../http/server.js';
import { SqliteDb } from './store.js';
import { checkWebhookRoutes, type WebhookRouteMap } from './webhook-routes.js';
import { checkWebhookTargets, WebhookTargets, type WebhookTargetsConfig } from './webhook-targets.js';

/** One account's settings in a --config file or `accounts` option, keyed by its API key. */
export interface AccountConfig {
  plan?: Plan;
  revoked?: boolean;
  allowed_ips?: string[];
  rate_limit?: number;
  manual?: boolean;
  /** The products of the account's subscription (`[]`: none); the plan decides when absent. */
  products?: Product[];
  /** Ops balances, USD: `{ "cards_visa": 250 }`. */
  balances?: Partial<Record<BalanceType, number>>;
}

export interface SandboxConfig {
  defaults?: {
    plan?: Plan;
    opening_balance?: number;
    low_balance_threshold?: number;
    allowed_ips?: string[];
    manual?: boolean;
    /** Seconds of the clock an automatic (happy) outcome takes. Default 2. */
    auto_complete_seconds?: number;
    /** Accept only the keys listed in `accounts` (and those the simulation API set up): others get 401. */
    known_keys_only?: boolean;
  };
  accounts?: Record<string, AccountConfig>;
  retry?: Partial<RetrySchedule>;
  /** `https://` url prefixes delivered to loopback `http://` receivers: `{ "https://hooks.example.test": "http://127.0.0.1:8080" }`. */
  webhook_routes?: WebhookRouteMap;
  /**
   * Where webhooks may go: `policy` `local` (any target) or `public` (public addresses only, and a ping's caller is
   * not told why it failed), by default `local` on a loopback address and `public` on any other; `allow` the
   * exceptions of `public` (`"10.1.0.0/16"`, `"hooks.internal.test"`). See docs/sandbox.md, "Webhook targets".
   */
  webhook_targets?: WebhookTargetsConfig;
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** SQLite file; in memory when omitted. */
  db?: string;
  /** Outcomes wait to be chosen through the simulation API. */
  manual?: boolean;
  /** false turns the per-key rate limit off. */
  rateLimit?: boolean;
  config?: SandboxConfig;
  /** Freeze the clocks at start (tests): each account's then moves only when advanced. */
  freezeClock?: boolean;
  /**
   * `per-account` (default): each account (API key) has its own clock, which only its key's simulation API moves;
   * `shared`: one clock for every account, which any key moves (docs/sandbox.md, "The clock").
   */
  clock?: ClockMode;
  /** Clock milliseconds an automatic (happy) outcome takes. Default 2,000. */
  autoCompleteMs?: number;
  /**
   * The `https://` address the sandbox is reached at when it runs behind a TLS proxy or tunnel
   * (`https://sandbox.example.test`): the links it gives (the KYC page) use it instead of `http://HOST:PORT`.
   */
  publicUrl?: string;
  /**
   * Web page origins allowed to call the sandbox from a browser (CORS), besides loopback pages, which always are:
   * `['https://docs.example.test']` (`--cors-origin`). See src/sandbox/http/cors.ts.
   */
  corsOrigins?: string[];
  /** `--seed examples`: the API key whose account gets the contract's example records (src/sandbox/seed.ts). */
  seedExamples?: string;
  /** `--fixtures FILE`: fixtures by API key, loaded into each key's account at start (docs/sandbox.md, "Snapshots and fixtures"). */
  fixtures?: Record<string, Fixture>;
}

export interface RunningSandbox {
  url: string;
  /** `http://HOST:PORT/v1` */
  baseUrl: string;
  /** `http://HOST:PORT/api/v1` */
  giftCardBaseUrl: string;
  /** `http://HOST:PORT/sandbox` */
  simulationUrl: string;
  core: SandboxCore;
  server: FastifyInstance;
  /** operationIds of the partner API that the sandbox implements (the others answer 501). */
  implemented: string[];
  /** Saves the state of the whole sandbox (every account, the clock) in memory; answers its id. */
  snapshot(): string;
  /** Puts the whole sandbox back in the state of `snapshot()`'s id (an id it does not keep throws). */
  restore(id: string): Promise<void>;
  /** The codes (and endpoint secrets) of the records of `fixtures`, by API key. */
  fixtures: Record<string, FixtureResult>;
  close(): Promise<void>;
}

/**
 * A product module, declared once by its folder's product.ts (src/sandbox/products.ts lists them): what the sandbox
 * is assembled from. The core knows no product but through these.
 */
export interface ProductModule {
  /** Its folder under src/sandbox/. */
  folder: string;
  /** The DDL of its tables (its tables.ts). */
  tables?: string;
  /** Its partner API handlers, by operationId (its handlers.ts). */
  handlers: (core: SandboxCore) => Handlers;
  /** Its part of the simulation API, by operationId (its simulation.ts). */
  simulation?: (core: SandboxCore) => Handlers<SimulationOperations>;
  /** Pages it serves beside the simulation API (the hosted KYC page). */
  pages?: (core: SandboxCore) => (app: FastifyInstance) => Promise<void>;
  /** Its kinds of job, each with the type of its payload (`defineJob` of core/scheduler.ts). */
  jobs?: readonly Job[];
  /** What it hooks on the core when a sandbox is built, before any account is made (a job for each new account). */
  attach?: (core: SandboxCore) => void;
  /**
   * What it keeps in memory outside its tables (the card provider's armed answers), saved and put back with the
   * rows by every snapshot; registered under its folder's name. It must reach the state its handlers use (the
   * module's one instance per core).
   */
  snapshot?: (core: SandboxCore) => SnapshotPart;
  /** The product of a subscription it is (the simulation API's `Product`): its label and its ops balances. */
  subscription?: Subscription;
}

function accountDefaults(config: SandboxConfig, manual: boolean): AccountDefaults {
  const d = config.defaults ?? {};
  const opening = d.opening_balance !== undefined ? toMinor(d.opening_balance) : undefined;
  return {
    plan: d.plan ?? DEFAULT_ACCOUNT.plan,
    openingMinor:
      opening === undefined
        ? DEFAULT_ACCOUNT.openingMinor
        : (Object.fromEntries(BALANCE_TYPES.map((t) => [t, opening])) as AccountDefaults['openingMinor']),
    lowThresholdMinor: d.low_balance_threshold !== undefined ? toMinor(d.low_balance_threshold) : DEFAULT_ACCOUNT.lowThresholdMinor,
    allowedIps: d.allowed_ips ?? DEFAULT_ACCOUNT.allowedIps,
    manual: d.manual ?? manual,
    knownKeysOnly: d.known_keys_only ?? false,
  };
}

/** Checks a --config object; throws an Error naming the first problem. */
export function checkConfig(config: unknown): SandboxConfig {
  if (!config || typeof config !== 'object' || Array.isArray(config)) throw new Error('the config must be a JSON object');
  const c = config as SandboxConfig;
  for (const [key, account] of Object.entries(c.accounts ?? {})) {
    if (apiKeyMode(key) === undefined) throw new Error(`config accounts: "${key}" is not an API key: ${API_KEY_RULE}`);
    if (account.plan !== undefined && !PLANS.includes(account.plan))
      throw new Error(`config accounts.${key}.plan: must be one of ${PLANS.join(', ')}`);
    for (const product of account.products ?? []) {
      if (!PRODUCTS.includes(product))
        throw new Error(`config accounts.${key}.products: "${product}" is not one of ${PRODUCTS.join(', ')}`);
    }
    if (account.rate_limit !== undefined && (!Number.isInteger(account.rate_limit) || account.rate_limit < 1))
      throw new Error(`config accounts.${key}.rate_limit: a positive integer`);
    for (const type of Object.keys(account.balances ?? {})) {
      if (!(BALANCE_TYPES as readonly string[]).includes(type))
        throw new Error(`config accounts.${key}.balances: unknown balance type "${type}"`);
    }
  }
  if (c.defaults?.plan !== undefined && !PLANS.includes(c.defaults.plan))
    throw new Error(`config defaults.plan: must be one of ${PLANS.join(', ')}`);
  if (c.webhook_routes !== undefined) checkWebhookRoutes(c.webhook_routes);
  if (c.webhook_targets !== undefined) checkWebhookTargets(c.webhook_targets);
  const auto = c.defaults?.auto_complete_seconds;
  if (auto !== undefined && (!Number.isInteger(auto) || auto < 0 || auto > 86_400))
    throw new Error('config defaults.auto_complete_seconds: an integer from 0 to 86400');
  return c;
}

/** A sandbox that is built but does not listen yet: what `prepare` gets (requests go through `server.inject`). */
export type PreparingSandbox = Pick<RunningSandbox, 'core' | 'server'>;

/** The core of a sandbox: its store, clocks, scheduler, outbox, deliveries, ledger, accounts and products. */
function buildCore(
  options: SandboxOptions,
  config: SandboxConfig,
  modules: readonly ProductModule[],
): { core: SandboxCore; targets: WebhookTargets } {
  const db = new SqliteDb(
    options.db,
    modules.flatMap((m) => (m.tables === undefined ? [] : [m.tables])),
  );
  const clock = new Clock(db, { mode: options.clock ?? 'per-account' });
  if (options.freezeClock) clock.freezeAll();
  const scheduler = new Scheduler(db, clock);
  // A job that throws has no request to answer: its error is logged, or it would be lost.
  scheduler.onError = (error, kind) => logFailure(`job ${kind}`, error);
  const outbox = new Outbox(db, clock, scheduler);
  const targets = new WebhookTargets(config.webhook_targets ?? {}, options.host ?? '127.0.0.1');
  if (options.publicUrl !== undefined) targets.addSelf(options.publicUrl);
  const delivery = new Delivery(db, clock, scheduler, { ...DEFAULT_RETRY_SCHEDULE, ...config.retry }, config.webhook_routes, targets);
  const ledger = new Ledger(db, clock, outbox);
  const accounts = new Accounts(db, clock, accountDefaults(config, options.manual ?? false));
  const products = new ProductAccess(
    db,
    modules.flatMap((m) => (m.subscription === undefined ? [] : [m.subscription])),
  );
  const core: SandboxCore = {
    db,
    clock,
    scheduler,
    outbox,
    delivery,
    ledger,
    accounts,
    products,
    faults: new Faults(),
    autoCompleteMs: options.autoCompleteMs ?? (config.defaults?.auto_complete_seconds ?? 2) * 1000,
    url: '',
  };

  return { core, targets };
}

/** The accounts of the configuration file: their settings, products and opening balances. */
function configureAccounts(core: SandboxCore, config: SandboxConfig): void {
  const { accounts, products, db, ledger } = core;
  for (const [key, account] of Object.entries(config.accounts ?? {})) {
    const a = accounts.update(key, {
      ...(account.plan !== undefined ? { plan: account.plan } : {}),
      ...(account.revoked !== undefined ? { revoked: account.revoked } : {}),
      ...(account.allowed_ips !== undefined ? { allowedIps: account.allowed_ips } : {}),
      ...(account.rate_limit !== undefined ? { rateLimit: account.rate_limit } : {}),
      ...(account.manual !== undefined ? { manual: account.manual } : {}),
    });
    if (account.products !== undefined) products.set(a.id, account.products);
    db.transaction(() => {
      for (const [type, amount] of Object.entries(account.balances ?? {})) ledger.set(a, type as BalanceType, toMinor(amount));
    });
  }
}

/**
 * Builds the sandbox, runs `prepare` (the seed), then listens: a client that connects as soon as it can finds
 * what `prepare` made, never a state half made.
 */
export async function createSandbox(
  options: SandboxOptions,
  modules: readonly ProductModule[],
  simulation: (core: SandboxCore) => (app: FastifyInstance) => Promise<void> | void,
  prepare?: (sandbox: PreparingSandbox) => Promise<void>,
): Promise<RunningSandbox> {
  const config = checkConfig(options.config ?? {});
  if (options.publicUrl !== undefined && !isPublicUrl(options.publicUrl))
    throw new Error(`publicUrl must be an https:// url, got "${options.publicUrl}"`);
  const { core, targets } = buildCore(options, config, modules);
  const { db, clock, scheduler } = core;

  scheduler.registerJobs([DELIVERY_JOB, ...modules.flatMap((m) => m.jobs ?? [])], core);
  for (const product of modules) product.attach?.(core);
  for (const product of modules) if (product.snapshot) snapshotsOf(core).register(product.folder, product.snapshot(core));
  const handlers: Handlers = {};
  for (const product of modules) Object.assign(handlers, product.handlers(core));

  configureAccounts(core, config);

  const server = await buildServer({
    core,
    document: sandboxDocument(),
    handlers,
    rateLimit: options.rateLimit ?? true,
    corsOrigins: options.corsOrigins,
    extra: simulation(core),
  });
  const close = async () => {
    scheduler.stop();
    await server.close();
    await scheduler.settle();
    clock.persist();
    db.close();
  };
  // The listening address is known only after `listen`: a link given before it (the seed's KYC link, which
  // it does not keep) has the public address, or none.
  if (options.publicUrl !== undefined) core.url = linkBase(options.publicUrl);
  try {
    await prepare?.({ core, server });
    await server.listen({ port: options.port ?? 4020, host: options.host ?? '127.0.0.1' });
  } catch (error) {
    await close();
    throw error;
  }
  scheduler.start();
  const address = server.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  targets.addSelf(url);
  if (options.publicUrl === undefined) core.url = url;
  return {
    url,
    baseUrl: `${url}${BASE_SERVER.path}`,
    giftCardBaseUrl: `${url}${GIFT_CARD_SERVER.path}`,
    simulationUrl: `${url}/sandbox`,
    core,
    server,
    implemented: Object.keys(handlers).sort(),
    ...wholeSandboxSnapshots(core),
    fixtures: {},
    close,
  };
}
