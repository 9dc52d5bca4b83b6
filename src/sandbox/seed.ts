// `--seed examples`: the contract's example records, created for one key so that the examples of
// generated/openapi.json (`GET /cards/7c9e6679-…`, a request body's `customer_code` …) find their resources.
// Each record is made through the sandbox's own operations, with the request example of the contract, so
// every rule applies (balances debited, events recorded); its code is then renamed to the code of the
// contract's examples, everywhere it is stored, so that the next example request finds it.
import type { PreparingSandbox } from './core/sandbox.js';
import { sandboxModel, type Json, type JsonObject } from './core/contract.js';
import { basePathOf } from '../contract/servers.js';
import { CATALOGUE, productById, type GiftCardProduct } from './gift-cards/catalogue.js';
import { EndpointRepository, newSecret } from './webhooks/repository.js';
import { Setup } from '../setup/setup.js';
import { SETUP_GRAPH, type ResourceKey } from '../setup/graph.js';
import { EXAMPLE_CODES } from './example-codes.js';

/** The request examples of an operation, from the contract (copies). */
export function requestExamples(method: string, path: string): JsonObject[] {
  const examples = sandboxModel().byPath(method, path)?.requestBody?.json?.examples ?? [];
  return examples
    .map((e) => e.value)
    .filter((v): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v))
    .map((v) => structuredClone(v));
}

/** The first request example of an operation, from the contract. */
function requestExample(method: string, path: string): JsonObject {
  const value = requestExamples(method, path)[0];
  if (!value) throw new Error(`seed: ${method} ${path} has no request example in the contract`);
  return value;
}

/**
 * Creates the example records for `apiKey`'s account, through `server.inject`: it runs before the sandbox
 * listens. Throws, naming the step, when one is refused.
 */
export async function seedExamples(sandbox: PreparingSandbox, apiKey: string): Promise<void> {
  const { core, server } = sandbox;
  const send = async (method: string, url: string, body?: unknown) => {
    const res = await server.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: res.statusCode, body: JSON.parse(res.body || 'null') as unknown };
  };
  const simulate = async (method: string, path: string, body?: Json) => {
    const answer = await send(method, `/sandbox${path}`, body);
    if (answer.status >= 300) throw new Error(`seed: ${method} /sandbox${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  };
  const account = core.accounts.resolve(apiKey);

  // A webhook endpoint, which customers need, stored directly with the example's code. Its example url is
  // answered by the seeded sandbox's example receiver (./example-receiver.ts).
  const endpoint = requestExample('POST', '/webhooks');
  if (!new EndpointRepository(core.db).find(account.id, EXAMPLE_CODES.webhookEndpoint)) {
    const now = core.clock.now();
    new EndpointRepository(core.db).insert({
      code: EXAMPLE_CODES.webhookEndpoint,
      account_id: account.id,
      url: String(endpoint.url),
      secret: newSecret(),
      events: JSON.stringify(endpoint.events),
      description: (endpoint.description as string | undefined) ?? null,
      is_active: 1,
      created_at: now,
      updated_at: now,
    });
  } else return; // seeded before (a --db file): nothing to do

  // Each asynchronous outcome is chosen through the simulation API, on the account made manual meanwhile, so
  // the clock is never advanced: it follows real time from the start (`meta.timestamp` is never ahead).
  await simulate('PATCH', '/account', { manual: true });
  // The records, in the order of the set-up graph, each renamed to the example's code as soon as it is made,
  // and its provider outcome, where it has one, chosen at once.
  const exampleCodes: Partial<Record<ResourceKey, string>> = {
    customer: EXAMPLE_CODES.customer,
    card: EXAMPLE_CODES.card,
    cardTopup: EXAMPLE_CODES.topup,
    beneficiary: EXAMPLE_CODES.beneficiary,
    // A payout keeps the code of the quote it confirms.
    payoutQuote: EXAMPLE_CODES.payout,
    virtualAccount: EXAMPLE_CODES.virtualAccount,
    giftCardOrder: EXAMPLE_CODES.giftCardOrder,
  };
  const outcomes: Partial<Record<ResourceKey, (code: string) => Promise<void>>> = {
    card: (code) => simulate('POST', `/cards/${code}/issuance`, { outcome: 'activated' }),
    cardTopup: (code) => simulate('POST', `/topups/${code}/outcome`, { outcome: 'completed' }),
    giftCardOrder: (code) => simulate('POST', `/gift-card-orders/${code}/outcome`, { outcome: 'delivered' }),
  };
  const setup = new Setup(SETUP_GRAPH, {
    // The gift card operations are served at {alt_base_url}.
    call: (method, path, body) => send(method, `${basePathOf(path)}${path}`, body),
    simulate: (method, path, body) => send(method, `/sandbox${path}`, body),
    requestExample: (method, path) => requestExamples(method, path)[0],
    made: async (key, code) => {
      const to = exampleCodes[key];
      if (to) rename(sandbox, code, to);
      await outcomes[key]?.(to ?? code);
      return to;
    },
  });
  setup.codes.set('webhookEndpoint', EXAMPLE_CODES.webhookEndpoint);
  // The example's product is in the sandbox's catalogue; were it not, the order would take one that sells its amount.
  const orderBody = requestExample('POST', '/gift-cards/orders');
  setup.codes.set(
    'giftCardProduct',
    productById(String(orderBody.product_id)) ? String(orderBody.product_id) : productFor(Number(orderBody.amount)).product_id,
  );
  for (const key of ['fullCustomer', 'cardTopup', 'payout', 'virtualAccount', 'giftCardOrder'] as const) {
    await setup.ensure(key).catch((error: Error) => {
      throw new Error(`seed: ${error.message}`);
    });
    if (key === 'payout') await simulate('POST', `/payouts/${EXAMPLE_CODES.payout}/outcome`, { outcome: 'completed' });
  }
  await simulate('PATCH', '/account', { manual: account.manual });

  // The example event is one the example endpoint subscribes to, so that redelivering it has an endpoint.
  const types = endpoint.events as string[];
  const latest = core.db.get<{ id: string }>(
    `SELECT id FROM events WHERE account_id = ? AND type IN (${types.map(() => '?').join(', ')}) ORDER BY seq DESC LIMIT 1`,
    account.id,
    ...types,
  );
  if (!latest) throw new Error(`seed: no event of a type the example endpoint subscribes to (${types.join(', ')})`);
  rename(sandbox, latest.id, EXAMPLE_CODES.event);
}

function productFor(amount: number): GiftCardProduct {
  const product = CATALOGUE.find((p) =>
    p.denominations ? p.denominations.includes(amount) : amount >= (p.min_amount ?? 0) && amount <= (p.max_amount ?? Infinity),
  );
  if (!product) throw new Error(`seed: no gift card product of the catalogue sells ${amount}`);
  return product;
}

/** Replaces a generated code by the example's, in every text column of every table (codes are unique uuids). */
function rename(sandbox: PreparingSandbox, from: string, to: string): void {
  if (!from || from === 'undefined') throw new Error(`seed: no code to rename to ${to}`);
  const { db } = sandbox.core;
  db.transaction(() => {
    for (const { name } of db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")) {
      for (const column of db.all<{ name: string; type: string }>(`PRAGMA table_info("${name}")`)) {
        if (column.type.toUpperCase() !== 'TEXT') continue;
        db.run(
          `UPDATE "${name}" SET "${column.name}" = REPLACE("${column.name}", ?, ?) WHERE instr("${column.name}", ?) > 0`,
          from,
          to,
          from,
        );
      }
    }
  });
}
