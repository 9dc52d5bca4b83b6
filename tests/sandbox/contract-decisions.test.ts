// What an implementer would otherwise guess, as the contract decides it (issue 23, item 4), and the sandbox doing
// it: the webhook ping's payload, the idempotency fingerprint, the balance transaction reasons, a termination of a
// card holding less than its fees, a pending card's balance, a withdrawal's card transaction, `available` on a card
// under the floor, the default name on a card, and a declined payment's status. Each expectation is read from the
// contract (the bundle the sandbox serves).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleAjv } from '../../scripts/lib/schema.ts';
import { verifyWebhook } from '../../src/webhooks/index.ts';
import { DOCUMENT, KEY, MODEL, failure, until, useScenario, type Receiver, type TestSandbox } from './support.ts';

const scenario = useScenario();
let sandbox: TestSandbox, receiver: Receiver, customer: string;
beforeAll(() => ({ sandbox, receiver, customer } = scenario));

/** A schema of the contract, by name. */
const schema = (name: string): any => MODEL.schema(name)?.node;
const plans = (DOCUMENT as any)['x-plans'];
const typeValues = schema('CardTransaction')['x-type-values'];
const api = () => sandbox.client();
const ajv = bundleAjv(DOCUMENT, 'https://decisions.test/openapi.json');
const valid = (schema: string, value: unknown) => {
  const validate = ajv.getSchema(`https://decisions.test/openapi.json#/components/schemas/${schema}`)!;
  return validate(value) ? [] : validate.errors;
};

async function activeCard(amount: number, brand: 'VISA' | 'MASTERCARD' = 'VISA'): Promise<string> {
  const created = await api().call.POST('/cards', { body: { customer_code: customer, brand, category: 'virtual', amount } });
  await sandbox.advance(2);
  await until(() => receiver.of('card.activated').some((e) => e.data.card_code === created.data.code));
  return created.data.code;
}

describe('the webhook ping (x-ping)', () => {
  it('is the schema x-ping names, signed with the secret the creation returns', async () => {
    const pointer = MODEL.byPath('POST', '/webhooks')?.extension('x-ping');
    expect(pointer).toBe('#/components/schemas/WebhookPing');
    const pings: { body: string; headers: http.IncomingHttpHeaders }[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        pings.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ping`;
      const created = (await sandbox.client('sk_test_decisions_ping').call.POST('/webhooks', { body: { url, events: ['*'] } })).data;
      expect(pings).toHaveLength(1);
      const body = JSON.parse(pings[0]!.body);
      expect(valid('WebhookPing', body)).toEqual([]);
      expect(body.type).toBe(schema('WebhookPing').allOf[1].properties.type.const);
      expect(body.data).toEqual({ endpoint_code: created.code, url });
      const event = await verifyWebhook<{ id: string }>(pings[0]!.body, pings[0]!.headers as any, created.secret);
      expect(event.id).toBe(body.id);
      // The test ping sends the same schema, and its result shows the ping as sent.
      const client = sandbox.client('sk_test_decisions_ping');
      const tested = (await client.call.POST('/webhooks/{code}/test', { params: { path: { code: created.code } } })).data;
      expect(pings).toHaveLength(2);
      expect(valid('WebhookPing', JSON.parse(pings[1]!.body))).toEqual([]);
      expect(tested.ping).toEqual(JSON.parse(pings[1]!.body));
    } finally {
      server.close();
    }
  });
});

describe('the idempotency fingerprint', () => {
  it('is the method, the path and query, and the body as parsed JSON: key order and whitespace do not matter, values do', async () => {
    const code = await activeCard(60);
    const send = (body: string) =>
      sandbox.request('POST', `/v1/cards/${code}/withdraw`, { body, headers: { 'Idempotency-Key': `fingerprint-${code}` } });
    const first = await send('{"amount":10}');
    expect(first.status).toBe(200);
    const sameParsed = await send('{ "amount" : 10.0 }');
    expect(sameParsed.headers.get('idempotent-replayed')).toBe('true');
    expect(sameParsed.body).toEqual(first.body);
    const other = await send('{"amount":11}');
    expect(other.status).toBe(422);
    expect(other.body.error.details.reason).toBe('idempotency_key_reused');
  });

  it("an object's keys in another order are the same request", async () => {
    const headers = { 'Idempotency-Key': 'fingerprint-order' };
    const body = { url: receiver.url, events: ['card.frozen'], description: 'order' };
    const first = await sandbox.request('POST', '/v1/webhooks', { key: 'sk_test_decisions_order', body: JSON.stringify(body), headers });
    const reordered = JSON.stringify({ description: 'order', events: ['card.frozen'], url: receiver.url });
    const again = await sandbox.request('POST', '/v1/webhooks', { key: 'sk_test_decisions_order', body: reordered, headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.code).toBe(first.body.data.code);
  });
});

describe('cards', () => {
  it("a pending card's balance is 0; the initial load is the card's once it is active", async () => {
    const created = (await api().call.POST('/cards', { body: { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 30 } }))
      .data;
    expect(created.status).toBe('pending');
    expect(created.balance).toBe(0);
    await sandbox.advance(2);
    expect((await api().call.GET('/cards/{code}', { params: { path: { code: created.code } } })).data.balance).toBe(30);
  });

  it('a withdrawal is a card transaction with the values x-type-values gives it, and credits the ops balance with a contract reason', async () => {
    const code = await activeCard(50, 'MASTERCARD');
    const result = (await api().call.POST('/cards/{code}/withdraw', { params: { path: { code } }, body: { amount: 20 } })).data;
    const [transaction] = (await api().call.GET('/cards/{code}/transactions', { params: { path: { code } } })).data;
    expect(transaction).toMatchObject({ id: result.withdrawal_id, type: 'withdrawal', ...typeValues.default, ...typeValues.withdrawal });
    expect(transaction!.description).toContain('cards_mastercard');
    const [credit] = (await api().call.GET('/balance/{type}/transactions', { params: { path: { type: 'cards_mastercard' } } })).data;
    expect(credit).toMatchObject({ direction: 'credit', amount: result.net_amount });
    expect(schema('BalanceTransaction').properties.reason.examples).toContain(credit!.reason);
    expect(schema('BalanceTransaction').properties.reason.description).toContain(`\`${credit!.reason}\``);
  });

  it("a declined payment and a refund have the contract's direction and status", async () => {
    const code = await activeCard(20);
    const declined = await sandbox.simulate('POST', `/cards/${code}/transactions`, { type: 'auth', amount: 500 });
    expect(declined.body.data).toMatchObject({ type: 'decline', ...typeValues.default, ...typeValues.decline });
    expect(declined.body.data.failure_reason).toBe('insufficient_funds');
    const refund = await sandbox.simulate('POST', `/cards/${code}/transactions`, { type: 'refund', amount: 1 });
    expect(refund.body.data).toMatchObject({ ...typeValues.default, ...typeValues.refund });
  });

  it('`available` is 0, never negative, on a card holding less than what must remain', async () => {
    const remaining = plans.limits.card_withdrawal_remaining_usd;
    const code = await activeCard(remaining - 1);
    const refused = await failure(
      api().call.POST('/cards/{code}/withdraw', { params: { path: { code } }, body: { amount: plans.limits.card_withdrawal_minimum_usd } }),
    );
    expect(refused).toMatchObject({ status: 400, code: 'INSUFFICIENT_BALANCE', details: { available: 0, reason: 'card_balance_too_low' } });
  });

  it('a card holding less than its fees is terminated: the fees are what it held, nothing is refunded or debited', async () => {
    const fees = plans.fees;
    const held = fees.provider_fee_usd + fees.termination_fee_usd / 2;
    const code = await activeCard(held);
    const opsBefore = (await api().call.GET('/balance/{type}', { params: { path: { type: 'cards_visa' } } })).data.balance;
    await api().call.POST('/cards/{code}/terminate', { params: { path: { code } } });
    await until(() => receiver.of('card.terminated').some((e) => e.data.card_code === code));
    const terminated = receiver.of('card.terminated').find((e) => e.data.card_code === code)!.data;
    expect(terminated).toMatchObject({
      status: 'cancelled',
      card_balance_at_closure: held,
      provider_fee: fees.provider_fee_usd,
      termination_fee: fees.termination_fee_usd / 2,
      refunded_amount: 0,
    });
    expect((await api().call.GET('/balance/{type}', { params: { path: { type: 'cards_visa' } } })).data.balance).toBe(opsBefore);
  });

  it('without name_on_card, the name is the transliterated customer name within NameOnCard', async () => {
    const person = (
      await api().call.POST('/customers', {
        body: {
          external_reference: 'cust-zoe',
          first_name: 'Zoë',
          last_name: 'Müller-Lüdenscheidt Ørsted-Åberg von Hohenzollern',
          date_of_birth: '1990-04-17',
        },
      })
    ).data;
    const card = (
      await api().call.POST('/cards', {
        body: { customer_code: person.customer_code, brand: 'VISA', category: 'virtual', amount: 10 },
      })
    ).data;
    const pattern = new RegExp(schema('NameOnCard').pattern, 'u');
    expect(card.name_on_card).toMatch(pattern);
    expect(card.name_on_card.length).toBeLessThanOrEqual(schema('NameOnCard').maxLength);
    expect(card.name_on_card.startsWith('ZOE MULLER-LUDENSCHEIDT')).toBe(true);
  });
});

it('every reason the sandbox records is a value of BalanceTransaction.reason (the sandbox refuses to record another)', async () => {
  const { Ledger } = await import('../../src/sandbox/core/ledger.ts');
  const account = sandbox.core.accounts.resolve(KEY);
  expect(() =>
    sandbox.core.db.transaction(() =>
      (sandbox.core.ledger as InstanceType<typeof Ledger>).credit(account, 'cards_visa', 1, { reason: 'made_up_reason', description: 'x' }),
    ),
  ).toThrow("balance transaction reason made_up_reason is not one of the contract's");
});
