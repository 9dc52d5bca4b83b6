// --seed examples (the contract's example records for one key), webhook routes (an https:// endpoint url
// delivered to a loopback receiver) and publicUrl (the links the sandbox gives): the options that let the
// conformance suite run against the sandbox with the contract unchanged.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_RULE } from '../../src/client/api-key.ts';
import { parseCli } from '../../src/sandbox/sandbox-flags.ts';
import { checkWebhookRoutes, routeWebhookUrl } from '../../src/sandbox/core/webhook-routes.ts';
import { exampleWebhookOrigins, startExampleReceiver } from '../../src/sandbox/example-receiver.ts';
import { EXAMPLE_CODES, startSandbox } from '../../src/sandbox/index.ts';
import { requestExamples } from '../../src/sandbox/seed.ts';
import { connect, newCustomer, startReceiver, startTestSandbox, until, type Receiver, type TestSandbox } from './support.ts';

const SEEDED = 'sk_test_seeded';

const post = (sandbox: TestSandbox, url: string, body: unknown) =>
  sandbox.request('POST', `/v1${url}`, { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });

describe('--seed examples', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seedExamples: SEEDED });
  });
  afterAll(() => sandbox.close());

  const records: [string, string][] = [
    ['customer', `/customers/${EXAMPLE_CODES.customer}`],
    ['card', `/cards/${EXAMPLE_CODES.card}`],
    ['card top-up', `/cards/${EXAMPLE_CODES.card}/topups/${EXAMPLE_CODES.topup}`],
    ['beneficiary', `/payouts/beneficiaries/${EXAMPLE_CODES.beneficiary}`],
    ['payout', `/payouts/${EXAMPLE_CODES.payout}`],
    ['virtual account', `/virtual-accounts/${EXAMPLE_CODES.virtualAccount}`],
    ['webhook endpoint', `/webhooks/${EXAMPLE_CODES.webhookEndpoint}`],
    ['event', `/events/${EXAMPLE_CODES.event}`],
  ];
  for (const [what, url] of records) {
    it(`the example ${what} exists for the seeded key, and for no other key`, async () => {
      const seeded = await sandbox.request('GET', `/v1${url}`, { key: SEEDED });
      expect(seeded.status, JSON.stringify(seeded.body)).toBe(200);
      expect(JSON.stringify(seeded.body.data)).toContain(url.split('/').at(-1));
      expect((await sandbox.request('GET', `/v1${url}`, { key: 'sk_test_other' })).status).toBe(404);
      expect(sandbox.problems).toEqual([]);
    });
  }

  it('the example gift card order exists at the gift card address', async () => {
    const res = await fetch(`${sandbox.giftCardBaseUrl}/gift-cards/orders/${EXAMPLE_CODES.giftCardOrder}`, {
      headers: { Authorization: `Bearer ${SEEDED}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { customer_code: string; product_id: string } }).data).toMatchObject({
      customer_code: EXAMPLE_CODES.customer,
      product_id: 'gcp_000123',
    });
  });

  it("a seeded sandbox's clock follows real time from its start: meta.timestamp is never ahead of it", async () => {
    // Seeded as `npm start` seeds it, with the clock following real time (not frozen).
    const started = Date.now();
    const seeded = await startSandbox({ port: 0, seedExamples: SEEDED });
    try {
      const res = await fetch(`${seeded.baseUrl}/cards/${EXAMPLE_CODES.card}`, { headers: { Authorization: `Bearer ${SEEDED}` } });
      const { meta } = (await res.json()) as { meta: { timestamp: string } };
      expect(Date.parse(meta.timestamp)).toBeGreaterThanOrEqual(started);
      expect(Date.parse(meta.timestamp)).toBeLessThanOrEqual(Date.now());
    } finally {
      await seeded.close();
    }
  });

  it('the records are in the states the examples need: the card active, the customer fully verified', async () => {
    expect((await sandbox.request('GET', `/v1/cards/${EXAMPLE_CODES.card}`, { key: SEEDED })).body.data.status).toBe('active');
    expect((await sandbox.request('GET', `/v1/customers/${EXAMPLE_CODES.customer}`, { key: SEEDED })).body.data.verification_level).toBe(
      'full',
    );
    // The example event is one the example endpoint subscribes to, so it can be redelivered.
    const endpoint = (await sandbox.request('GET', `/v1/webhooks/${EXAMPLE_CODES.webhookEndpoint}`, { key: SEEDED })).body.data;
    const event = (await sandbox.request('GET', `/v1/events/${EXAMPLE_CODES.event}`, { key: SEEDED })).body.data;
    expect(endpoint.events).toContain(event.type);
  });

  it('a request example of the contract works as it is: POST /cards with the example customer_code', async () => {
    const res = await sandbox.request('POST', '/v1/cards', {
      key: SEEDED,
      body: JSON.stringify({
        customer_code: EXAMPLE_CODES.customer,
        brand: 'VISA',
        category: 'virtual',
        amount: 100,
        name_on_card: 'AMINA DIALLO',
        reference: 'card-000123-main',
      }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.customer_code).toBe(EXAMPLE_CODES.customer);
    expect(sandbox.problems).toEqual([]);
  });

  it('with --db, a restart does not seed twice', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-seed-'));
    const db = path.join(dir, 'sandbox.sqlite');
    try {
      const first = await startSandbox({ port: 0, db, seedExamples: SEEDED });
      await first.close();
      const second = await startSandbox({ port: 0, db, seedExamples: SEEDED });
      const res = await fetch(`${second.baseUrl}/customers`, { headers: { Authorization: `Bearer ${SEEDED}` } });
      const customers = ((await res.json()) as { data: unknown }).data as { customer_code: string }[];
      await second.close();
      expect(customers.map((c) => c.customer_code)).toEqual([EXAMPLE_CODES.customer]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the contract's webhook examples work as they are: their url's ping is answered by the example receiver", async () => {
    expect(exampleWebhookOrigins()).toEqual(['https://hooks.acme-partner.test']);
    const [create] = requestExamples('POST', '/webhooks');
    const created = await sandbox.request('POST', '/v1/webhooks', {
      key: SEEDED,
      body: JSON.stringify(create),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data.url).toBe(create!.url);
    const [update] = requestExamples('PATCH', '/webhooks/{code}');
    const updated = await sandbox.request('PATCH', `/v1/webhooks/${EXAMPLE_CODES.webhookEndpoint}`, {
      key: SEEDED,
      body: JSON.stringify(update),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data.url).toBe(update!.url);
    expect(sandbox.problems).toEqual([]);
  });

  it('an unseeded sandbox does not answer the example url: the ping fails', async () => {
    const plain = await startTestSandbox();
    try {
      const res = await plain.request('POST', '/v1/webhooks', {
        body: JSON.stringify(requestExamples('POST', '/webhooks')[0]),
        headers: { 'Content-Type': 'application/json' },
      });
      expect(res.status).toBe(422);
      expect(res.body.error.details).toMatchObject({ reason: 'webhook_ping_failed' });
    } finally {
      await plain.close();
    }
  });

  it('your own route for the example origin comes first', async () => {
    const receiver = await startReceiver();
    const seeded = await startTestSandbox({
      seedExamples: SEEDED,
      config: { webhook_routes: { 'https://hooks.acme-partner.test': receiver.url.replace(/\/[^/]*$/, '') } },
    });
    try {
      // The seed's own endpoint, made as any endpoint is, was pinged at your route already.
      expect(receiver.pings).toBe(1);
      const receiverPath = new URL(receiver.url).pathname;
      const created = await post(seeded, '/webhooks', { url: `https://hooks.acme-partner.test${receiverPath}`, events: ['kyc.approved'] });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(receiver.pings).toBe(2);
    } finally {
      await seeded.close();
      await receiver.close();
    }
  });

  it('the example receiver answers 204 to any POST, and stops listening when closed', async () => {
    const receiver = await startExampleReceiver();
    const target = receiver.routes['https://hooks.acme-partner.test']!;
    expect(target).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${target}/partner-api`, { method: 'POST', body: '{}' })).status).toBe(204);
    await receiver.close();
    await expect(fetch(`${target}/partner-api`, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('the command line takes --seed examples and --seed-key, and refuses a malformed key', () => {
    expect(parseCli(['--seed', 'examples'])).toMatchObject({ seed: 'examples', 'seed-key': 'sk_test_sandbox' });
    expect(parseCli(['--seed', 'examples', '--seed-key', 'sk_live_mine'])).toMatchObject({ 'seed-key': 'sk_live_mine' });
    expect(() => parseCli(['--seed', 'examples', '--seed-key', 'pk_test_x'])).toThrow(
      `--seed-key must be an API key, ${API_KEY_RULE}, got "pk_test_x"`,
    );
  });
});

describe('webhook routes', () => {
  let receiver: Receiver;
  let sandbox: TestSandbox;
  beforeAll(async () => {
    receiver = await startReceiver();
    sandbox = await startTestSandbox({
      config: { webhook_routes: { 'https://hooks.partner.test': receiver.url.replace(/\/[^/]*$/, '') } },
    });
  });
  afterAll(async () => {
    await sandbox.close();
    await receiver.close();
  });

  it('an https:// endpoint url is pinged and delivered to at the loopback receiver its route names, and keeps its https:// url', async () => {
    const receiverPath = new URL(receiver.url).pathname;
    const created = await post(sandbox, '/webhooks', { url: `https://hooks.partner.test${receiverPath}`, events: ['kyc.approved'] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data.url).toBe(`https://hooks.partner.test${receiverPath}`);
    receiver.secret = created.body.data.secret;
    expect(receiver.pings).toBe(1);
    // An event goes the same way: the KYC of a new customer, approved.
    const customer = await newCustomer(sandbox);
    await post(sandbox, `/kyc/${customer}/link`, {});
    await sandbox.simulate('POST', `/kyc/${customer}/outcome`, { outcome: 'approved' });
    await until(() => receiver.of('kyc.approved').length === 1);
    expect(receiver.problems).toEqual([]);
    expect(sandbox.problems).toEqual([]);
  });

  it('an https:// url without a route is pinged where it says (and fails here)', async () => {
    const res = await post(sandbox, '/webhooks', { url: 'https://unrouted.partner.test/hooks', events: ['kyc.approved'] });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toMatchObject({ reason: 'webhook_ping_failed' });
  });

  it('routes by prefix, and checks the config', () => {
    const routes = { 'https://hooks.partner.test/': 'http://127.0.0.1:9000/in' };
    expect(routeWebhookUrl(routes, 'https://hooks.partner.test/a?b=1')).toBe('http://127.0.0.1:9000/in/a?b=1');
    expect(routeWebhookUrl(routes, 'https://hooks.partner.test.evil/a')).toBe('https://hooks.partner.test.evil/a');
    expect(() => checkWebhookRoutes({ 'http://hooks.partner.test': 'http://127.0.0.1:9000' })).toThrow(/is not an https:\/\/ url/);
    expect(() => checkWebhookRoutes({ 'https://hooks.partner.test': 'http://203.0.113.7:9000' })).toThrow(
      /must be a loopback http:\/\/ url/,
    );
    expect(() => checkWebhookRoutes(['x'])).toThrow(/must be an object/);
  });

  it('a bad route stops the start with its error', async () => {
    await expect(startSandbox({ port: 0, config: { webhook_routes: { 'https://a.test': 'https://b.test' } } })).rejects.toThrow(/loopback/);
  });
});

describe('publicUrl', () => {
  it('the KYC link is given under the public https:// address', async () => {
    const sandbox = await startTestSandbox({ publicUrl: 'https://sandbox.partner.test/' });
    try {
      const receiver = await startReceiver();
      await connect(sandbox, receiver);
      const customer = await newCustomer(sandbox);
      const link = await post(sandbox, `/kyc/${customer}/link`, {});
      expect(link.status, JSON.stringify(link.body)).toBe(200);
      expect(link.body.data.url).toMatch(/^https:\/\/sandbox\.partner\.test\/sandbox\/kyc\//);
      await receiver.close();
    } finally {
      await sandbox.close();
    }
  });

  it('refuses a url that is not https://', async () => {
    await expect(startSandbox({ port: 0, publicUrl: 'http://sandbox.partner.test' })).rejects.toThrow(
      /publicUrl must be an https:\/\/ url/,
    );
  });

  it('is --public-url on the command line, which refuses a url that is not https:// (tests/sandbox/bin.test.ts runs the bin)', () => {
    expect(parseCli(['--public-url', 'https://sandbox.partner.test/base'])).toMatchObject({
      'public-url': 'https://sandbox.partner.test/base',
    });
    for (const url of ['http://sandbox.partner.test', 'https://', 'https://sandbox.partner.test?x=1']) {
      expect(() => parseCli(['--public-url', url])).toThrow(`--public-url must be an https:// url (https://host[/path]), got "${url}"`);
    }
  });
});
