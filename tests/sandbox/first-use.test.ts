// What a partner trying the sandbox for the first time runs into (found by writing docs/quickstart.md):
// - `Content-Type: application/json` with no body, as `curl -X POST -H 'Content-Type: application/json'` sends
//   to freeze, is a request without a body, not malformed JSON;
// - asking the simulation API for an outcome that the sandbox already chose by itself (automatic account)
//   says so, and says how to choose outcomes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, newCustomer, startReceiver, startTestSandbox, type Receiver, type TestSandbox } from './support.ts';

const AUTO = 'sk_test_first_use';
const MANUAL = 'sk_test_first_use_manual';
let sandbox: TestSandbox;
let receiver: Receiver;

beforeAll(async () => {
  sandbox = await startTestSandbox({ config: { accounts: { [MANUAL]: { manual: true } } } });
  receiver = await startReceiver();
  await connect(sandbox, receiver, AUTO);
  await connect(sandbox, receiver, MANUAL);
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

/** A POST with exactly these headers and body (no default Content-Type). */
async function rawPost(path: string, headers: Record<string, string>, body?: string, key = AUTO) {
  const response = await fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, ...headers }, body });
  return { status: response.status, body: (await response.json()) as any };
}

/** An active card of a new customer of the automatic account (issued by itself after 2 s of the clock). */
async function activeCard(): Promise<string> {
  const customer = await newCustomer(sandbox, AUTO);
  const created = await sandbox.request('POST', '/v1/cards', {
    key: AUTO,
    body: JSON.stringify({ customer_code: customer, brand: 'VISA', category: 'virtual', amount: 100 }),
  });
  expect(created.status).toBe(200);
  await sandbox.advance(2, AUTO);
  return created.body.data.code as string;
}

describe('a JSON Content-Type with no body', () => {
  it('freezes and unfreezes a card, as without the header', async () => {
    const card = await activeCard();
    const frozen = await rawPost(`/v1/cards/${card}/freeze`, { 'Content-Type': 'application/json' });
    expect([frozen.status, frozen.body.data?.status]).toEqual([200, 'frozen']);
    const active = await rawPost(`/v1/cards/${card}/unfreeze`, { 'Content-Type': 'application/json', 'Content-Length': '0' });
    expect([active.status, active.body.data?.status]).toEqual([200, 'active']);
  });

  it('creates a KYC link, whose body is optional', async () => {
    const customer = await newCustomer(sandbox, MANUAL);
    const r = await rawPost(`/v1/kyc/${customer}/link`, { 'Content-Type': 'application/json' }, undefined, MANUAL);
    expect(r.status).toBe(200);
    expect(r.body.data.customer_code).toBe(customer);
  });

  it('is still refused where a body is required, naming the missing body rather than bad JSON', async () => {
    const card = await activeCard();
    const r = await rawPost(`/v1/cards/${card}/withdraw`, { 'Content-Type': 'application/json' });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'A JSON request body is required.',
      details: { fields: [{ field: 'body', message: 'is required (required)' }] },
    });
  });

  it('leaves a body that is there alone: malformed JSON is still 422 naming bad JSON', async () => {
    const card = await activeCard();
    const malformed = await rawPost(`/v1/cards/${card}/withdraw`, { 'Content-Type': 'application/json' }, '{"amount": 2');
    expect(malformed.status).toBe(422);
    expect(malformed.body.error.details.fields).toEqual([{ field: 'body', message: 'is not valid JSON' }]);
  });
});

describe('an outcome the sandbox already chose by itself', () => {
  const simulate = (path: string, body: unknown, key = AUTO) => sandbox.simulate('POST', path, body, key);
  const HINT =
    'This account does not choose outcomes: the sandbox completes each one by itself 2 seconds of its clock after the request. To choose them, make the account manual first (PATCH /sandbox/account {"manual": true}, or start the sandbox with --manual).';

  it('KYC: already approved, and how to choose outcomes; a customer with no link is told to create one', async () => {
    const customer = await newCustomer(sandbox, AUTO);
    const fresh = await simulate(`/kyc/${customer}/outcome`, { outcome: 'approved' });
    expect(fresh.status).toBe(422);
    expect(fresh.body.error.message).toBe(
      'No KYC verification of this customer waits for an outcome: create a link first (POST /kyc/{customerCode}/link).',
    );
    expect(fresh.body.error.details.current_status).toBe('not_started');

    expect((await sandbox.request('POST', `/v1/kyc/${customer}/link`, { key: AUTO, body: '{}' })).status).toBe(200);
    await sandbox.advance(2, AUTO);
    const late = await simulate(`/kyc/${customer}/outcome`, { outcome: 'rejected' });
    expect(late.status).toBe(422);
    expect(late.body.error.message).toBe(`The customer's KYC is already approved: no verification waits for an outcome. ${HINT}`);
    expect(late.body.error.details.current_status).toBe('approved');
  });

  it('KYC on a manual account: a verification that ended is retried with a new link, and no hint about automatic outcomes', async () => {
    const customer = await newCustomer(sandbox, MANUAL);
    expect((await sandbox.request('POST', `/v1/kyc/${customer}/link`, { key: MANUAL, body: '{}' })).status).toBe(200);
    expect((await simulate(`/kyc/${customer}/outcome`, { outcome: 'rejected' }, MANUAL)).status).toBe(200);
    const again = await simulate(`/kyc/${customer}/outcome`, { outcome: 'approved' }, MANUAL);
    expect(again.status).toBe(422);
    expect(again.body.error.message).toBe(
      "The customer's last KYC verification ended (rejected): create a new link (POST /kyc/{customerCode}/link) to choose another outcome.",
    );
  });

  it('proof of address, card issuance and top-up: already decided, and how to choose outcomes', async () => {
    const customer = await newCustomer(sandbox, AUTO);
    await sandbox.request('POST', `/v1/kyc/${customer}/link`, { key: AUTO, body: '{}' });
    await sandbox.advance(2, AUTO);
    const poa = await sandbox.request('POST', `/v1/poa/${customer}/document`, {
      key: AUTO,
      body: JSON.stringify({ document_name: 'bill.pdf', content_type: 'application/pdf', content: 'JVBERi0xLjcK' }),
    });
    expect(poa.status).toBe(200);
    await sandbox.advance(2, AUTO);
    const review = await simulate(`/poa/${customer}/outcome`, { outcome: 'approved' });
    expect([review.status, review.body.error.message]).toEqual([
      422,
      `No proof-of-address document of this customer is pending review. ${HINT}`,
    ]);

    const card = await activeCard();
    const issuance = await simulate(`/cards/${card}/issuance`, { outcome: 'activated' });
    expect([issuance.status, issuance.body.error.message]).toEqual([
      422,
      `Only a pending card can be issued or fail; this card is active. ${HINT}`,
    ]);

    const topUp = await sandbox.request('POST', `/v1/cards/${card}/topup`, { key: AUTO, body: '{"amount": 50}' });
    await sandbox.advance(2, AUTO);
    const outcome = await simulate(`/topups/${topUp.body.data.topup_id}/outcome`, { outcome: 'completed' });
    expect([outcome.status, outcome.body.error.message]).toEqual([422, `The top-up is already completed. ${HINT}`]);
  });

  it('no hint on a manual account, nor for a customer who never sent a document', async () => {
    const customer = await newCustomer(sandbox, AUTO);
    const none = await simulate(`/poa/${customer}/outcome`, { outcome: 'approved' });
    expect(none.body.error.message).toBe('No proof-of-address document of this customer is pending review.');
    const manualCustomer = await newCustomer(sandbox, MANUAL);
    const created = await sandbox.request('POST', '/v1/cards', {
      key: MANUAL,
      body: JSON.stringify({ customer_code: manualCustomer, brand: 'VISA', category: 'virtual', amount: 100 }),
    });
    const card = created.body.data.code as string;
    expect((await simulate(`/cards/${card}/issuance`, { outcome: 'activated' }, MANUAL)).status).toBe(200);
    const twice = await simulate(`/cards/${card}/issuance`, { outcome: 'activated' }, MANUAL);
    expect(twice.body.error.message).toBe('Only a pending card can be issued or fail; this card is active.');
  });
});
