// The stateful sandbox of the partner API (`<package>/sandbox`): start one in-process for your own tests.
//   const sandbox = await startSandbox({ port: 0 });
//   const client = createPartnerClient({ apiKey: 'sk_test_me', baseUrl: sandbox.baseUrl });
// See docs/sandbox.md.
import { createSandbox, type PreparingSandbox, type RunningSandbox, type SandboxOptions } from './core/sandbox.js';
import { PRODUCT_MODULES } from './products.js';
import { simulationRoutes } from './simulation/routes.js';

export type { RunningSandbox, SandboxConfig, SandboxOptions, AccountConfig } from './core/sandbox.js';
export { DEFAULT_RETRY_SCHEDULE, retryDelay, type RetrySchedule } from './core/delivery.js';
export { EXAMPLE_CODES } from './example-codes.js';
export type { Fixture, FixtureResult } from './fixtures/types.js';
export { examplesFixture } from './examples-fixture.js';
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
  if (!options.seedExamples) return createSandbox(options, PRODUCT_MODULES, simulationRoutes, load);
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
      PRODUCT_MODULES,
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
