// The stateful sandbox of the partner API (`<package>/sandbox`): start one in-process for your own tests.
//   const sandbox = await startSandbox({ port: 0 });
//   const client = createPartnerClient({ apiKey: 'sk_test_me', baseUrl: sandbox.baseUrl });
// See docs/sandbox.md.
import { createSandbox, type RunningSandbox, type SandboxOptions } from './core/sandbox.js';
import { balances } from './balances/handlers.js';
import { cards } from './cards/handlers.js';
import { customers } from './customers/handlers.js';
import { kyc } from './kyc/handlers.js';
import { poa } from './poa/handlers.js';
import { seedExamples } from './seed.js';
import { simulationRoutes } from './simulation/routes.js';
import { webhookEndpoints } from './webhooks/handlers.js';
import { events } from './events/handlers.js';
import { giftCards } from './gift-cards/handlers.js';
import { payouts } from './payouts/handlers.js';
import { virtualAccounts } from './virtual-accounts/handlers.js';
import { wallets } from './wallets/handlers.js';

export type { RunningSandbox, SandboxConfig, SandboxOptions, AccountConfig } from './core/sandbox.js';
export { DEFAULT_RETRY_SCHEDULE, retryDelay, type RetrySchedule } from './core/delivery.js';
export { EXAMPLE_CODES } from './seed.js';
export { createSimulationClient, type SimulationClientOptions, type SimulationPaths } from './client.js';

/**
 * Starts a sandbox: it listens on `options.port` (4020; 0 for a free port) of `options.host` (127.0.0.1).
 * With `seedExamples: 'sk_test_…'`, that key's account holds the contract's example records.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await createSandbox(
    options,
    [webhookEndpoints, balances, customers, cards, kyc, poa, wallets, virtualAccounts, giftCards, payouts, events],
    simulationRoutes,
  );
  if (options.seedExamples) {
    try {
      await seedExamples(sandbox, options.seedExamples);
    } catch (error) {
      await sandbox.close();
      throw error;
    }
  }
  return sandbox;
}
