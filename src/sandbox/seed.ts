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

/** The parameter of the contract whose `example` is the code of each example record. */
const EXAMPLE_PARAMETERS = {
  customer: 'CustomerCode',
  card: 'CardCode',
  topup: 'TopUpId',
  beneficiary: 'BeneficiaryCode',
  payout: 'PayoutCode',
  virtualAccount: 'VirtualAccountCode',
  giftCardOrder: 'GiftCardOrderCode',
  webhookEndpoint: 'WebhookEndpointCode',
  event: 'EventId',
} as const;

/** The codes of the contract's examples: the `example` of each path parameter of generated/openapi.json. */
export const EXAMPLE_CODES = Object.fromEntries(
  Object.entries(EXAMPLE_PARAMETERS).map(([record, parameter]) => {
    const example = (((sandboxDocument().components as JsonObject).parameters as JsonObject)[parameter] as JsonObject | undefined)?.example;
    if (typeof example !== 'string') throw new Error(`the contract's parameter ${parameter} has no example`);
    return [record, example];
  }),
) as Readonly<Record<keyof typeof EXAMPLE_PARAMETERS, string>>;

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

