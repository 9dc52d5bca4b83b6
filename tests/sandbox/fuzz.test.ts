// Generated requests against every operation the sandbox implements, valid and invalid (the contract's request
// examples with fields replaced by arbitrary JSON, arbitrary bodies, known, unknown and malformed codes):
// no 5xx, and every answer conforms to the contract (a 4xx in the envelope with a code the operation
// documents for that status). SANDBOX_FUZZ_RUNS sets the runs per operation (default 60; the issue's
// target is 1,000).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOf } from '../../src/sandbox/core/contract.ts';
import { DOCUMENT, connect, newCustomer, responseProblems, startReceiver, startTestSandbox, type Receiver, type TestSandbox } from './support.ts';

const RUNS = Number(process.env['SANDBOX_FUZZ_RUNS'] ?? 60);
const KEY = 'sk_test_fuzz';
let sandbox: TestSandbox;
let receiver: Receiver;
const codes: Record<string, string> = {};

beforeAll(async () => {
  sandbox = await startTestSandbox();
  receiver = await startReceiver();
  codes.webhook = await connect(sandbox, receiver, KEY);
  codes.customer = await newCustomer(sandbox, KEY);
  const card = await sandbox.client(KEY).call.POST('/cards', { body: { customer_code: codes.customer, brand: 'VISA', category: 'virtual', amount: 500 } });
  codes.card = card.data.code;
  await sandbox.advance(2, KEY);
  // Money products and events (sandbox-money).
  const client = sandbox.client(KEY);
  sandbox.core.db.run("UPDATE customers SET verification_level = 'full' WHERE code = ?", codes.customer);
  codes.virtualAccount = (await client.call.POST('/virtual-accounts', { body: { customer_code: codes.customer, currency: 'EUR' } })).data.code;
  codes.giftCardOrder = (await client.call.POST('/gift-cards/orders', { body: { customer_code: codes.customer, product_id: 'amazon_us_usd', amount: 25, quantity: 1 } })).data.code;
  const beneficiary = (await client.call.POST('/payouts/beneficiaries', {
    body: { customer_code: codes.customer, rail: 'sepa', type: 'individual', name: 'Fuzz', bank_name: 'Bank', iban: 'FR7630006000011234567890189', address: { street: 's', city: 'c', postal_code: '1', country: 'FR' } },
  })).data.code;
  codes.beneficiary = beneficiary;
  const quote = (await client.call.POST('/payouts/quotes', { body: { beneficiary_code: beneficiary, amount_usd: 10, reference: 'fuzz' } })).data.code;
  codes.payout = (await client.call.POST('/payouts', { body: { quote_code: quote } })).data.code;
  codes.event = (await client.call.GET('/events', {})).data[0]!.id;
  codes.product = 'amazon_us_usd';
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

/** Operations with a handler (the others answer 501). */
const implemented = () => operationsOf(DOCUMENT).filter((op) => sandbox.implemented.includes(op.operationId));

function exampleBody(method: string, path: string): Record<string, unknown> | undefined {
  const op = (DOCUMENT.paths as any)[path][method.toLowerCase()];
  let body = op.requestBody;
  if (body?.$ref) body = (DOCUMENT.components as any).requestBodies[body.$ref.split('/').pop()];
  const examples = body?.content?.['application/json']?.examples;
  const first = examples ? (Object.values(examples)[0] as { value: Record<string, unknown> }).value : undefined;
  return first ? structuredClone(first) : undefined;
}

/** The known code of a path's resource (the others are generated). */
function knownCode(path: string): string | undefined {
  const byPrefix: [string, string | undefined][] = [
    ['/webhooks', codes.webhook], ['/customers', codes.customer], ['/kyc', codes.customer], ['/poa', codes.customer], ['/balance', 'cards_visa'], ['/virtual-accounts', codes.virtualAccount],
    ['/gift-cards/orders', codes.giftCardOrder], ['/gift-cards/products', codes.product], ['/payouts/beneficiaries', codes.beneficiary],
    ['/payouts', codes.payout], ['/events', codes.event], ['/cards', codes.card],
  ];
  return byPrefix.find(([prefix]) => path.startsWith(prefix))?.[1];
}

const param = (known: string | undefined) => fc.oneof(fc.constant(known ?? '00000000-0000-4000-8000-000000000000'), fc.uuid(), fc.string({ maxLength: 40 }));

describe('fuzz', () => {
  it(`${RUNS} generated requests per implemented operation: no 5xx, every answer as the contract says`, async () => {
    const ops = implemented();
    expect(ops.length).toBeGreaterThanOrEqual(48);
    const ids = ops.map((o) => o.operationId);
    for (const id of ['createKycLink', 'getKycStatus', 'synchronizeKycIdentity', 'uploadPoaDocument', 'getPoaStatus', 'updateCustomer', 'deactivateCustomer']) expect(ids).toContain(id);
    const seen = new Map<string, Set<number>>();
    for (const op of ops) {
      const example = exampleBody(op.method, op.path);
      const bodies = fc.oneof(
        fc.constant(example),
        example
          ? fc.record({ key: fc.constantFrom(...Object.keys(example), 'unknown_field'), value: fc.jsonValue({ maxDepth: 2 }) }).map(({ key, value }) => ({ ...example, [key]: value }))
          : fc.constant(undefined),
        fc.jsonValue({ maxDepth: 2 }),
        fc.constant(undefined),
      );
      const query = fc.dictionary(fc.constantFrom('page', 'limit', 'customer_code', 'status', 'verification_level', 'external_reference', 'type', 'country', 'created_from', 'x'), fc.oneof(fc.string({ maxLength: 12 }), fc.integer({ min: -5, max: 200 }).map(String)), { maxKeys: 3 });
      await fc.assert(
        fc.asyncProperty(param(knownCode(op.path)), bodies, query, async (code, body, q) => {
          let payload = body;
          // Never ping a host outside the machine.
          if (payload && typeof payload === 'object' && !Array.isArray(payload) && 'url' in payload) payload = { ...payload, url: 'http://127.0.0.1:1/closed' };
          const url = `/${op.altHost ? 'api/v1' : 'v1'}${op.path.replace(/\{[^}]+\}/g, encodeURIComponent(code))}?${new URLSearchParams(q as Record<string, string>)}`;
          const r = await sandbox.server.inject({
            method: op.method as 'GET',
            url,
            headers: { authorization: `Bearer ${KEY}`, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
            ...(payload !== undefined && op.method !== 'GET' ? { payload: JSON.stringify(payload) } : {}),
          });
          const statuses = seen.get(op.operationId) ?? new Set<number>();
          statuses.add(r.statusCode);
          seen.set(op.operationId, statuses);
          expect(r.statusCode, `${op.method} ${url} ${r.body}`).toBeLessThan(500);
          const problems = responseProblems(op.method, `http://sandbox${url}`, r.statusCode, r.json(), r.headers as Record<string, string>);
          expect(problems, `${op.method} ${url} ${JSON.stringify(payload)}`).toEqual([]);
        }),
        { numRuns: RUNS },
      );
    }
    // Both outcomes were reached: some generated requests succeed, some are refused.
    const all = [...seen.values()].flatMap((s) => [...s]);
    expect(all).toContain(200);
    expect(all).toContain(422);
  }, 600_000);
});
