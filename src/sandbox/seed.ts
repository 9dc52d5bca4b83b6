// `--seed examples`: the contract's example records, created for one key so that the examples of
// generated/openapi.json (`GET /cards/7c9e6679-…`, a request body's `customer_code` …) find their resources. The
// records are the examples' fixture (./examples-fixture.ts), loaded as `--fixtures` loads one: through
// `POST /sandbox/fixtures`, each record made by the sandbox's own operations (so every rule applies: balances
// debited, events recorded), all or nothing.
import type { PreparingSandbox } from './core/sandbox.js';
import { EndpointRepository } from './webhook-endpoints/repository.js';
import { EXAMPLE_CODES } from './example-codes.js';
import { examplesFixture } from './examples-fixture.js';
import { loadFixturesAtStart } from './fixtures/start.js';

export { requestExamples } from './request-examples.js';

/**
 * Loads the examples' fixture into `apiKey`'s account, through `server.inject`: it runs before the sandbox listens.
 * An account that has the example endpoint already (a --db file seeded before) is left as it is. Throws, naming the
 * field, when a record is refused.
 */
export async function seedExamples(sandbox: PreparingSandbox, apiKey: string): Promise<void> {
  const { core } = sandbox;
  const account = core.accounts.resolve(apiKey);
  if (new EndpointRepository(core.db).find(account.id, EXAMPLE_CODES.webhookEndpoint)) return;
  await loadFixturesAtStart(sandbox, { [apiKey]: examplesFixture() }).catch((error: Error) => {
    throw new Error(`seed: ${error.message}`);
  });
}
