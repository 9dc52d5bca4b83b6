// `--seed examples`: the contract's example records, created for one key so that the examples of
// generated/openapi.json (`GET /cards/7c9e6679-…`, a request body's `customer_code` …) find their resources.
// Each record is made through the sandbox's own operations, with the request example of the contract, so
// every rule applies (balances debited, events recorded); its code is then renamed to the code of the
// contract's examples, everywhere it is stored, so that the next example request finds it.
import type { RunningSandbox } from './core/sandbox.js';
import { sandboxDocument, type Json, type JsonObject } from './core/contract.js';
import { CATALOGUE, productById, type GiftCardProduct } from './gift-cards/catalogue.js';
import { newSecret } from './webhooks/handlers.js';
import { EndpointRepository } from './webhooks/repository.js';
import { Setup } from '../setup/setup.js';
import { SETUP_GRAPH, type ResourceKey } from '../setup/graph.js';

/** The codes of the contract's examples (the path parameter examples of generated/openapi.json). */
export const EXAMPLE_CODES = {
  customer: '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f',
  card: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  topup: '6b8d0f2a-4c6e-4a8b-9d0f-2a4c6e8a0b1d',
  beneficiary: '1e3a5c7d-9f2b-4c6e-8a0d-2f4b6d8e0a1c',
  payout: '9d1f3b5c-7e9a-4b2d-8f4a-6c8e0a2c4e6f',
  virtualAccount: '4b7d9f1a-3c5e-4f7a-8b9c-0d1e2f3a4b5c',
  giftCardOrder: '2c4e6a8b-0d1f-4a3c-9e5b-7d9f1b3d5e7a',
  webhookEndpoint: '9b2d4f6a-1c3e-4a5b-8d7f-0e1a2b3c4d5e',
  event: 'evt_0b6f2c1e-4d7a-4f3b-9c8e-1a2b3c4d5e6f',
} as const;

type Doc = { paths: Record<string, Record<string, JsonObject>> };

/** The request examples of an operation, from the contract (copies). */
export function requestExamples(method: string, path: string): JsonObject[] {
  const op = (sandboxDocument() as unknown as Doc).paths[path]?.[method.toLowerCase()];
  const content = ((op?.requestBody as JsonObject | undefined)?.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined;
  const examples = Object.values((content?.examples ?? {}) as JsonObject) as JsonObject[];
  return examples.map((e) => e.value).filter((v): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v)).map((v) => structuredClone(v));
}

/** The first request example of an operation, from the contract. */
function requestExample(method: string, path: string): JsonObject {
  const value = requestExamples(method, path)[0];
  if (!value) throw new Error(`seed: ${method} ${path} has no request example in the contract`);
  return value;
}

/** Creates the example records for `apiKey`'s account. Throws, naming the step, when one is refused. */
export async function seedExamples(sandbox: RunningSandbox, apiKey: string): Promise<void> {
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
  /** Lets the automatic outcomes due now run (card issued, top-up applied, payout completed ...). */
  const settle = async () => {
    await simulate('POST', '/clock/advance', { seconds: Math.ceil(core.autoCompleteMs / 1000) + 1 });
  };
  const account = core.accounts.resolve(apiKey);

  // A webhook endpoint, which customers need, stored directly with the example's code. Its example url is
  // answered by the seeded sandbox's example receiver (./example-receiver.ts).
  const endpoint = requestExample('POST', '/webhooks');
  if (!new EndpointRepository(core.db).find(account.id, EXAMPLE_CODES.webhookEndpoint)) {
    const now = core.clock.now();
    new EndpointRepository(core.db).insert({
      code: EXAMPLE_CODES.webhookEndpoint, account_id: account.id, url: String(endpoint.url), secret: newSecret(),
      events: JSON.stringify(endpoint.events), description: (endpoint.description as string | undefined) ?? null, is_active: 1, created_at: now, updated_at: now,
    });
  } else return; // seeded before (a --db file): nothing to do

  // The records, in the order of the set-up graph, each renamed to the example's code as soon as it is made.
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
  const setup = new Setup(SETUP_GRAPH, {
    // The gift card operations are served at {alt_base_url}.
    call: (method, path, body) => send(method, `${path.startsWith('/gift-cards') ? '/api/v1' : '/v1'}${path}`, body),
    simulate: (method, path, body) => send(method, `/sandbox${path}`, body),
    requestExample: (method, path) => requestExamples(method, path)[0],
    settle,
    made: (key, code) => {
      const to = exampleCodes[key];
      if (!to) return;
      rename(sandbox, code, to);
      return to;
    },
  });
  setup.codes.set('webhookEndpoint', EXAMPLE_CODES.webhookEndpoint);
  // The example's product is in the sandbox's catalogue; were it not, the order would take one that sells its amount.
  const orderBody = requestExample('POST', '/gift-cards/orders');
  setup.codes.set('giftCardProduct', productById(String(orderBody.product_id)) ? String(orderBody.product_id) : productFor(Number(orderBody.amount)).product_id);
  for (const key of ['fullCustomer', 'cardTopup', 'payout', 'virtualAccount', 'giftCardOrder'] as const) {
    await setup.ensure(key).catch((error: Error) => {
      throw new Error(`seed: ${error.message}`);
    });
  }

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
  const product = CATALOGUE.find((p) => (p.denominations ? p.denominations.includes(amount) : amount >= (p.min_amount ?? 0) && amount <= (p.max_amount ?? Infinity)));
  if (!product) throw new Error(`seed: no gift card product of the catalogue sells ${amount}`);
  return product;
}

/** Replaces a generated code by the example's, in every text column of every table (codes are unique uuids). */
function rename(sandbox: RunningSandbox, from: string, to: string): void {
  if (!from || from === 'undefined') throw new Error(`seed: no code to rename to ${to}`);
  const { db } = sandbox.core;
  db.transaction(() => {
    for (const { name } of db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")) {
      for (const column of db.all<{ name: string; type: string }>(`PRAGMA table_info("${name}")`)) {
        if (column.type.toUpperCase() !== 'TEXT') continue;
        db.run(`UPDATE "${name}" SET "${column.name}" = REPLACE("${column.name}", ?, ?) WHERE instr("${column.name}", ?) > 0`, from, to, from);
      }
    }
  });
}

