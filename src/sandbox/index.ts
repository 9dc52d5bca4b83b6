// The stateful sandbox of the partner API (`<package>/sandbox`): start one in-process for your own tests.
//   const sandbox = await startSandbox({ port: 0 });
//   const client = createPartnerClient({ apiKey: 'sk_test_me', baseUrl: sandbox.baseUrl });
// See docs/sandbox.md.
import { createSandbox, type PreparingSandbox, type RunningSandbox, type SandboxModule, type SandboxOptions } from './core/sandbox.js';
import { balances } from './balances/handlers.js';
import { cards } from './cards/handlers.js';
import { customers } from './customers/handlers.js';
import { kyc } from './kyc/handlers.js';
import { poa } from './poa/handlers.js';
import { simulationRoutes } from './simulation/routes.js';
import { webhookEndpoints } from './webhooks/handlers.js';
import { events } from './events/handlers.js';
import { giftCards } from './gift-cards/handlers.js';
import { payouts } from './payouts/handlers.js';
import { virtualAccounts } from './virtual-accounts/handlers.js';
import { wallets } from './wallets/handlers.js';
import { TABLES as CARD_TABLES } from './cards/tables.js';
import { TABLES as CUSTOMER_TABLES } from './customers/tables.js';
import { TABLES as GIFT_CARD_TABLES } from './gift-cards/tables.js';
import { TABLES as KYC_TABLES } from './kyc/tables.js';
import { TABLES as PAYOUT_TABLES } from './payouts/tables.js';
import { TABLES as POA_TABLES } from './poa/tables.js';
import { TABLES as VIRTUAL_ACCOUNT_TABLES } from './virtual-accounts/tables.js';
import { TABLES as WALLET_TABLES } from './wallets/tables.js';

export type { RunningSandbox, SandboxConfig, SandboxOptions, AccountConfig } from './core/sandbox.js';
export { DEFAULT_RETRY_SCHEDULE, retryDelay, type RetrySchedule } from './core/delivery.js';
export { EXAMPLE_CODES } from './example-codes.js';
export type { Fixture, FixtureResult } from './fixtures/types.js';
export { examplesFixture } from './fixtures/examples.js';
export { createSimulationClient, type SimulationClient, type SimulationClientOptions, type SimulationPaths } from './client.js';

/**
 * Starts a sandbox: it listens on `options.port` (4020; 0 for a free port) of `options.host` (127.0.0.1).
 * With `seedExamples: 'sk_test_…'`, that key's account holds the contract's example records, and the contract's
 * example webhook urls answer (./example-receiver.ts). With `fixtures`, each key's account holds the records of its
 * fixture (./fixtures/), their codes in `sandbox.fixtures`. `sandbox.snapshot()` and `restore(id)` save and put back
 * the whole sandbox (./core/snapshots.ts).
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  let fixtures: RunningSandbox['fixtures'] = {};
  const load = async (built: PreparingSandbox) => {
    if (!options.fixtures) return;
    const { loadFixturesAtStart } = await import('./fixtures/start.js');
    fixtures = await loadFixturesAtStart(built, options.fixtures);
  };
  const sandbox = await startSeeded(options, load);
  sandbox.fixtures = fixtures;
  return sandbox;
}

/** The sandbox, with the example records when `seedExamples` is set, then `load` (the fixtures) run before it listens. */
async function startSeeded(options: SandboxOptions, load: (built: PreparingSandbox) => Promise<void>): Promise<RunningSandbox> {
  if (!options.seedExamples) return createSandbox(options, MODULES, simulationRoutes, load);
  // The seed and its receiver are imported here, not with the sandbox: a plain start does without them.
  const [{ startExampleReceiver }, { seedExamples }] = await Promise.all([import('./example-receiver.js'), import('./seed.js')]);
  // Seeded: the example webhook urls are routed to a loopback receiver that answers them (after your own routes).
  const receiver = await startExampleReceiver();
  const own = options.config?.webhook_routes ?? {};
  const webhook_routes = { ...own, ...Object.fromEntries(Object.entries(receiver.routes).filter(([origin]) => !(origin in own))) };
  const key = options.seedExamples;
  let sandbox: RunningSandbox;
  try {
    // Seeded before it listens: its first answer already has the example records.
    sandbox = await createSandbox(
      { ...options, config: { ...options.config, webhook_routes } },
      MODULES,
      simulationRoutes,
      async (built) => {
        await seedExamples(built, key);
        await load(built);
      },
    );
  } catch (error) {
    await receiver.close();
    throw error;
  }
  const close = sandbox.close.bind(sandbox);
  sandbox.close = async () => {
    await close();
    await receiver.close();
  };
  return sandbox;
}

/** The product modules: their tables and handlers (the webhook endpoints' and the ops balances' tables are the core's). */
const MODULES: SandboxModule[] = [
  { handlers: webhookEndpoints },
  { handlers: balances },
  { tables: CUSTOMER_TABLES, handlers: customers },
  { tables: CARD_TABLES, handlers: cards },
  { tables: KYC_TABLES, handlers: kyc },
  { tables: POA_TABLES, handlers: poa },
  { tables: WALLET_TABLES, handlers: wallets },
  { tables: VIRTUAL_ACCOUNT_TABLES, handlers: virtualAccounts },
  { tables: GIFT_CARD_TABLES, handlers: giftCards },
  { tables: PAYOUT_TABLES, handlers: payouts },
  { handlers: events },
];
