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
  const call = async (method: string, url: string, body?: Json): Promise<JsonObject> => {
    const res = await server.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    if (res.statusCode >= 300) throw new Error(`seed: ${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return (res.json() as { data: JsonObject }).data;
  };
  const api = (method: string, path: string, body?: Json) => call(method, `/v1${path}`, body);
  const simulate = (method: string, path: string, body?: Json) => call(method, `/sandbox${path}`, body);
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

  // Each asynchronous outcome is chosen through the simulation API, on the account made manual meanwhile, so
  // the clock is never advanced: it follows real time from the start (`meta.timestamp` is never ahead).
  await simulate('PATCH', '/account', { manual: true });
  const customer = await api('POST', '/customers', requestExample('POST', '/customers'));
  rename(sandbox, String(customer.customer_code ?? customer.code), EXAMPLE_CODES.customer);
  await api('POST', `/kyc/${EXAMPLE_CODES.customer}/link`, requestExample('POST', '/kyc/{customerCode}/link'));
  await simulate('POST', `/kyc/${EXAMPLE_CODES.customer}/outcome`, { outcome: 'approved' });
  await api('POST', `/poa/${EXAMPLE_CODES.customer}/document`, requestExample('POST', '/poa/{customerCode}/document'));
  await simulate('POST', `/poa/${EXAMPLE_CODES.customer}/outcome`, { outcome: 'approved' });

  const card = await api('POST', '/cards', requestExample('POST', '/cards'));
  rename(sandbox, String(card.code), EXAMPLE_CODES.card);
  await simulate('POST', `/cards/${EXAMPLE_CODES.card}/issuance`, { outcome: 'activated' });
  const topup = await api('POST', `/cards/${EXAMPLE_CODES.card}/topup`, requestExample('POST', '/cards/{code}/topup'));
  rename(sandbox, String(topup.topup_id), EXAMPLE_CODES.topup);
  await simulate('POST', `/topups/${EXAMPLE_CODES.topup}/outcome`, { outcome: 'completed' });

  const beneficiary = await api('POST', '/payouts/beneficiaries', requestExample('POST', '/payouts/beneficiaries'));
  rename(sandbox, String(beneficiary.code), EXAMPLE_CODES.beneficiary);
  const quote = await api('POST', '/payouts/quotes', requestExample('POST', '/payouts/quotes'));
  rename(sandbox, String(quote.code ?? quote.quote_code), EXAMPLE_CODES.payout);
  await api('POST', '/payouts', requestExample('POST', '/payouts'));
  await simulate('POST', `/payouts/${EXAMPLE_CODES.payout}/outcome`, { outcome: 'completed' });

  const virtualAccount = await api('POST', '/virtual-accounts', requestExample('POST', '/virtual-accounts'));
  rename(sandbox, String(virtualAccount.code), EXAMPLE_CODES.virtualAccount);

  // The example's product is in the sandbox's catalogue; were it not, the order would take one that sells its amount.
  const orderBody = requestExample('POST', '/gift-cards/orders');
  if (!productById(String(orderBody.product_id))) orderBody.product_id = productFor(Number(orderBody.amount)).product_id;
  const order = await call('POST', '/api/v1/gift-cards/orders', orderBody);
  rename(sandbox, String(order.code), EXAMPLE_CODES.giftCardOrder);
  await simulate('POST', `/gift-card-orders/${EXAMPLE_CODES.giftCardOrder}/outcome`, { outcome: 'delivered' });
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

