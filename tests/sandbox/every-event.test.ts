// Every event type of the contract is sent by the sandbox in at least one scenario a partner can play: the
// list is the contract's (`webhooks` of generated/openapi.json), so a new event that no scenario below provokes
// fails here. Each scenario goes through the partner API and the simulation API only, on a manual account (every
// outcome is chosen), and the receiver verifies every delivery and checks each event against its schema.
import { beforeAll, describe, expect, it } from 'vitest';
import { MODEL, newCustomer, until, useScenario, type Receiver, type TestSandbox } from './support.ts';

const KEY = 'sk_test_every_event';
const scenario = useScenario({ key: KEY, sandbox: { config: { accounts: { [KEY]: { manual: true } } } }, customer: false });
let sandbox: TestSandbox, receiver: Receiver;

/** The event types of the contract. */
const CONTRACT_EVENTS = MODEL.webhooks.map((w) => w.path).sort();
const PDF = 'JVBERi0xLjcKJcfsj6IKMSAwIG9iago8PC9UeXBlL0NhdGFsb2c+PgplbmRvYmoK';

/** A request that must succeed; its `data`. */
async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const simulation = path.startsWith('/sandbox/');
  const r = simulation
    ? await sandbox.simulate(method, path.slice('/sandbox'.length), body, KEY)
    : await sandbox.request(method, path, { key: KEY, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** A customer whose KYC link is open. */
async function linked(): Promise<string> {
  const customer = await newCustomer(sandbox, KEY);
  await ok('POST', `/v1/kyc/${customer}/link`);
  return customer;
}

const kycOutcome = (customer: string, outcome: string, extra: object = {}) =>
  ok('POST', `/sandbox/kyc/${customer}/outcome`, { outcome, ...extra });

/** Scenarios a partner can play, each provoking some events. */
const SCENARIOS: Record<string, () => Promise<void>> = {
  async 'KYC: every outcome, the identity mismatch and its synchronization; a low balance crossed by the billing'() {
    await ok('PUT', '/sandbox/balances/others', { balance: 101, low_balance_threshold: 100 });
    await kycOutcome(await linked(), 'approved'); // billed 2 USD: from 101 to 99, below the threshold
    await ok('PUT', '/sandbox/balances/others', { balance: 10_000 });
    await kycOutcome(await linked(), 'rejected');
    await kycOutcome(await linked(), 'expired');
    const reviewed = await linked();
    await kycOutcome(reviewed, 'resubmission_requested');
    await kycOutcome(reviewed, 'pending_review');
    await kycOutcome(reviewed, 'approved_identity_mismatch', { verified_identity: { first_name: 'Aminata' } });
    await ok('POST', `/v1/kyc/${reviewed}/synchronize`);
  },

  async 'proof of address approved and rejected, a virtual account with its deposit and transfers'() {
    const approved = await linked();
    await kycOutcome(approved, 'approved');
    const document = { document_name: 'bill.pdf', content_type: 'application/pdf', content: PDF };
    await ok('POST', `/v1/poa/${approved}/document`, document);
    await ok('POST', `/sandbox/poa/${approved}/outcome`, { outcome: 'approved' });
    const rejected = await linked();
    await kycOutcome(rejected, 'approved');
    await ok('POST', `/v1/poa/${rejected}/document`, document);
    await ok('POST', `/sandbox/poa/${rejected}/outcome`, { outcome: 'rejected' });

    const account = await ok('POST', '/v1/virtual-accounts', { customer_code: approved, currency: 'EUR' });
    await ok('POST', `/sandbox/virtual-accounts/${account.code}/deposits`, { amount: 500, sender_name: 'ACME SAS' });
    await ok('POST', `/sandbox/virtual-accounts/${account.code}/transfers`, { amount: 100 });
    await ok('POST', `/sandbox/virtual-accounts/${account.code}/transfers`, { amount: 100, outcome: 'failed' });
  },

  async 'a card through its whole life, with the card provider failing a withdrawal and delaying the termination'() {
    const customer = await linked();
    await kycOutcome(customer, 'approved');
    const refused = await ok('POST', '/v1/cards', { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 50 });
    await ok('POST', `/sandbox/cards/${refused.code}/issuance`, { outcome: 'failed' });
    const card = (await ok('POST', '/v1/cards', { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 100 })).code;
    await ok('POST', `/sandbox/cards/${card}/issuance`, { outcome: 'activated' });
    await ok('POST', `/sandbox/topups/${(await ok('POST', `/v1/cards/${card}/topup`, { amount: 20 })).topup_id}/outcome`, {
      outcome: 'completed',
    });
    await ok('POST', `/sandbox/topups/${(await ok('POST', `/v1/cards/${card}/topup`, { amount: 20 })).topup_id}/outcome`, {
      outcome: 'failed',
    });
    await ok('POST', `/sandbox/cards/${card}/transactions`, { type: 'settle', amount: 12.9, merchant_name: 'COFFEE HOUSE' });
    await ok('POST', `/sandbox/cards/${card}/3ds`, { amount: 19.99 });
    await ok('POST', `/v1/cards/${card}/freeze`);
    await ok('POST', `/v1/cards/${card}/unfreeze`);
    await ok('POST', `/v1/cards/${card}/withdraw`, { amount: 10 });
    await ok('POST', `/sandbox/cards/${card}/withdrawal-failure`);
    const failed = await sandbox.request('POST', `/v1/cards/${card}/withdraw`, { key: KEY, body: JSON.stringify({ amount: 10 }) });
    expect(failed.status).toBe(502);
    await ok('POST', `/sandbox/cards/${card}/termination-delay`);
    expect((await ok('POST', `/v1/cards/${card}/terminate`)).status).toBe('pending');
    await ok('POST', `/sandbox/cards/${card}/termination`, { outcome: 'completed' });
  },

  async 'a wallet: a deposit, a completed and a failed dashboard withdrawal'() {
    const customer = await newCustomer(sandbox, KEY);
    const wallet = await ok('POST', '/v1/wallets', { customer_code: customer, currency: 'USDC' });
    await ok('POST', `/sandbox/wallets/${wallet.id}/deposits`, { amount: 100 });
    const completed = await ok('POST', `/sandbox/wallets/${wallet.id}/withdrawals`, { amount: 20, to_address: `0x${'ab'.repeat(20)}` });
    await ok('POST', `/sandbox/wallet-withdrawals/${completed.code}/outcome`, { outcome: 'completed' });
    const failed = await ok('POST', `/sandbox/wallets/${wallet.id}/withdrawals`, { amount: 20, to_address: `0x${'ab'.repeat(20)}` });
    await ok('POST', `/sandbox/wallet-withdrawals/${failed.code}/outcome`, { outcome: 'failed' });
  },

  async 'gift card orders delivered, refunded and failed; a deposit to an ops balance'() {
    const customer = await newCustomer(sandbox, KEY);
    const order = async () => {
      const r = await sandbox.request('POST', '/api/v1/gift-cards/orders', {
        key: KEY,
        body: JSON.stringify({ customer_code: customer, product_id: 'amazon_us_usd', amount: 25, quantity: 1 }),
      });
      expect(r.status).toBe(200);
      return r.body.data.code as string;
    };
    const delivered = await order();
    await ok('POST', `/sandbox/gift-card-orders/${delivered}/outcome`, { outcome: 'delivered' });
    await ok('POST', `/sandbox/gift-card-orders/${delivered}/outcome`, { outcome: 'refunded' });
    await ok('POST', `/sandbox/gift-card-orders/${await order()}/outcome`, { outcome: 'failed' });
    await ok('POST', '/sandbox/balances/gift_cards/deposits', { gross_amount: 100, fee: 1 });
  },
};

beforeAll(async () => {
  ({ sandbox, receiver } = scenario);
  for (const [name, play] of Object.entries(SCENARIOS)) {
    try {
      await play();
    } catch (error) {
      throw new Error(`scenario "${name}": ${(error as Error).message}`);
    }
  }
  // Deliveries run on real timers: wait until nothing is left to deliver.
  await until(() => sandbox.core.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM deliveries WHERE status = 'pending'")!.n === 0, 20_000);
}, 60_000);

describe('every event type of the contract is sent in a scenario', () => {
  it('the contract lists the events (webhooks)', () => {
    expect(CONTRACT_EVENTS.length).toBeGreaterThan(0);
  });
  for (const type of CONTRACT_EVENTS) {
    it(type, () => {
      expect(receiver.of(type).length, `no scenario sent ${type}: add one to SCENARIOS that provokes it`).toBeGreaterThan(0);
    });
  }
  it('sends no event type the contract does not list', () => {
    expect(receiver.events.map((e) => e.type).filter((t) => !CONTRACT_EVENTS.includes(t))).toEqual([]);
  });
});
