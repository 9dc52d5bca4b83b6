// The order in which the sandbox decides a request's refusals is the contract's (`x-refusals.order` of the bundle,
// provisional): each request below fails two or more checks at once, and must get an answer of the first of them
// in that order. The expectations are read from the contract; the requests only say which checks they fail.
import { beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT, MODEL, useScenario, type TestSandbox } from './support.ts';

interface Answer {
  status: number;
  code: string;
  reason?: string;
}
const ORDER = (DOCUMENT as any)['x-refusals'].order as { check: string; answers: Answer[] }[];
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const KEYS = {
  decouverte: 'sk_test_order_decouverte',
  suspended: 'sk_test_order_suspended',
  both: 'sk_test_order_both',
  revoked: 'sk_test_order_revoked',
};

const scenario = useScenario();
let sandbox: TestSandbox;
beforeAll(async () => {
  ({ sandbox } = scenario);
  for (const key of [KEYS.decouverte, KEYS.both]) await sandbox.simulate('PATCH', '/account', { plan: 'decouverte' }, key);
  for (const key of [KEYS.suspended, KEYS.both]) await sandbox.simulate('PUT', '/balances/cards_visa', { balance: -5 }, key);
  await sandbox.simulate('PATCH', '/account', { revoked: true }, KEYS.revoked);
});

/** The answers of the first check, in the contract's order, among those a request fails. */
function firstOf(fails: string[]): Answer[] {
  for (const name of fails)
    expect(
      ORDER.map((c) => c.check),
      name,
    ).toContain(name);
  return ORDER.find((c) => fails.includes(c.check))!.answers;
}

const wallet = (customer: string) => JSON.stringify({ customer_code: customer, currency: 'USDC' });
const order = JSON.stringify({ customer_code: UNKNOWN, product_id: 'gcp_000123', amount: 10, quantity: 1 });

const PROBES: {
  name: string;
  fails: string[];
  method: string;
  path: string;
  key?: string | null;
  body?: string;
  headers?: Record<string, string>;
}[] = [
  { name: 'an unknown path without a key', fails: ['route', 'authentication'], method: 'GET', path: '/v1/no-such-thing', key: null },
  { name: 'a wrong method without a key', fails: ['route', 'authentication'], method: 'PUT', path: '/v1/cards', key: null },
  {
    name: 'a literal path that a parameter path also matches (GET /payouts/quotes), without a key',
    fails: ['route', 'authentication'],
    method: 'GET',
    path: '/v1/payouts/quotes',
    key: null,
  },
  { name: 'a wrong method with a malformed body', fails: ['route', 'validation'], method: 'PUT', path: '/v1/cards', body: '{' },
  {
    name: 'a revoked key on an unknown card',
    fails: ['authentication', 'records'],
    method: 'GET',
    path: `/v1/cards/${UNKNOWN}`,
    key: KEYS.revoked,
  },
  {
    name: 'an invalid gift card order at {base_url}',
    fails: ['validation', 'address'],
    method: 'POST',
    path: '/v1/gift-cards/orders',
    body: '{}',
  },
  {
    name: 'a gift card order at {base_url} on Découverte',
    fails: ['address', 'plan_products', 'records'],
    method: 'POST',
    path: '/v1/gift-cards/orders',
    key: KEYS.decouverte,
    body: order,
  },
  {
    name: 'an invalid wallet on Découverte',
    fails: ['validation', 'plan_products'],
    method: 'POST',
    path: '/v1/wallets',
    key: KEYS.decouverte,
    body: '{"x":1}',
  },
  {
    name: 'a wallet of an unknown customer on Découverte',
    fails: ['plan_products', 'records'],
    method: 'POST',
    path: '/v1/wallets',
    key: KEYS.decouverte,
    body: wallet(UNKNOWN),
  },
  {
    name: 'a withdrawal below the minimum while suspended',
    fails: ['validation', 'suspension', 'records'],
    method: 'POST',
    path: `/v1/cards/${UNKNOWN}/withdraw`,
    key: KEYS.suspended,
    body: '{"amount":1}',
  },
  {
    name: 'a withdrawal from an unknown card while suspended',
    fails: ['suspension', 'records'],
    method: 'POST',
    path: `/v1/cards/${UNKNOWN}/withdraw`,
    key: KEYS.suspended,
    body: '{"amount":10}',
  },
  {
    name: 'a gift card order on Découverte while suspended',
    fails: ['plan_products', 'suspension', 'records'],
    method: 'POST',
    path: '/api/v1/gift-cards/orders',
    key: KEYS.both,
    body: order,
  },
];

describe("the order of refusals is the contract's", () => {
  it.each(PROBES)('$name: an answer of the first check it fails', async (probe) => {
    const init = { ...(probe.key !== undefined ? { key: probe.key } : {}), ...(probe.body !== undefined ? { body: probe.body } : {}) };
    const r = await sandbox.request(probe.method, probe.path, init);
    const expected = firstOf(probe.fails);
    expect(
      expected.map((a) => `${a.status} ${a.code}`),
      JSON.stringify(r.body),
    ).toContain(`${r.status} ${r.body.error.code}`);
  });

  it("a literal path's wrong method names the literal path's methods, not those of the parameter path it also matches", async () => {
    const r = await sandbox.request('GET', '/v1/payouts/quotes');
    expect(r.status).toBe(firstOf(['route']).find((a) => a.status !== 404)!.status);
    const methods = MODEL.operations.filter((o) => o.path === '/payouts/quotes').map((o) => o.method.toUpperCase());
    expect(r.headers.get('allow')?.split(', ').sort()).toEqual(methods.sort());
  });

  it('a reused Idempotency-Key is refused before the plan decides', async () => {
    const headers = { 'Idempotency-Key': 'order-probe-1' };
    const first = await sandbox.request('POST', '/v1/wallets', { key: KEYS.decouverte, body: wallet(UNKNOWN), headers });
    expect(firstOf(['plan_products']).map((a) => a.status)).toContain(first.status);
    const reused = await sandbox.request('POST', '/v1/wallets', { key: KEYS.decouverte, body: wallet(scenario.customer), headers });
    const [answer] = firstOf(['idempotency', 'plan_products']);
    expect({ status: reused.status, code: reused.body.error.code, reason: reused.body.error.details.reason }).toEqual(answer);
  });
});
