// KYC and proof of address end to end over HTTP (every row of the interface document's "Customer verification"
// table), the hosted KYC page (plain HTTP: GET the page, POST the choice), the customer update and deactivation
// rules, and the balance deposit simulation. Every response and every event is checked against the contract.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSimulationClient } from '../../src/sandbox/index.ts';
import { requestExamples } from '../../src/sandbox/seed.ts';
import { MODEL, clockOf, connect, newCustomer, startReceiver, until, useScenario, type Receiver, type TestSandbox } from './support.ts';

const KEY = 'sk_test_kyc';
const MANUAL = 'sk_test_kyc_manual';
const scenario = useScenario({ key: KEY, sandbox: { config: { accounts: { [MANUAL]: { manual: true } } } }, customer: false });
let sandbox: TestSandbox, receiver: Receiver, manualReceiver: Receiver;
beforeAll(async () => {
  ({ sandbox, receiver } = scenario);
  manualReceiver = await startReceiver();
  await connect(sandbox, manualReceiver, MANUAL);
});
afterAll(() => manualReceiver.close());
afterEach(() => {
  expect(manualReceiver.problems).toEqual([]);
});

const post = (path: string, body?: unknown, key = MANUAL) =>
  sandbox.request('POST', `/v1${path}`, { key, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
const get = (path: string, key = MANUAL) => sandbox.request('GET', `/v1${path}`, { key });
const eventsFor = (r: Receiver, customer: string) => r.events.filter((e) => e.data.customer_code === customer);
const typesFor = (r: Receiver, customer: string) => eventsFor(r, customer).map((e) => e.type);
const PDF = 'JVBERi0xLjcKJcfsj6IKMSAwIG9iago8PC9UeXBlL0NhdGFsb2c+PgplbmRvYmoK';
const document = (name = 'utility-bill.pdf', content = PDF) => ({ document_name: name, content_type: 'application/pdf', content });

async function link(customer: string, body?: unknown, key = MANUAL): Promise<string> {
  const r = await post(`/kyc/${customer}/link`, body, key);
  expect(r.status).toBe(200);
  return r.body.data.url as string;
}

/** A customer of the manual account whose KYC is approved (level verified). */
async function verifiedCustomer(): Promise<string> {
  const customer = await newCustomer(sandbox, MANUAL);
  await link(customer);
  // The package's typed client of the simulation API.
  const { data } = await createSimulationClient({ apiKey: MANUAL, baseUrl: sandbox.simulationUrl }).POST('/kyc/{customerCode}/outcome', {
    params: { path: { customerCode: customer } },
    body: { outcome: 'approved' },
  });
  expect(data?.data.verification_level).toBe('verified');
  return customer;
}

describe('the hosted KYC page', () => {
  it('a link opens a real page where a person approves; it redirects to return_url; approval moves the level and is billed', async () => {
    const customer = await newCustomer(sandbox, MANUAL);
    expect((await get(`/kyc/${customer}/status`)).body.data).toMatchObject({
      kyc_status: 'not_started',
      verification_level: 'basic',
      identity_mismatch: false,
      approved_at: null,
    });
    const before = (await get('/balance/others')).body.data.balance as number;
    const url = await link(customer, { return_url: 'http://127.0.0.1:9/onboarding/done', locale: 'fr-FR' });
    expect(url.startsWith(`${sandbox.url}/sandbox/kyc/s/`)).toBe(true);

    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('Amina Diallo');
    expect(html).not.toMatch(/<(script|link)\b|src="http/); // no external assets
    for (const outcome of [
      'approved',
      'approved_identity_mismatch',
      'rejected',
      'abandoned',
      'expired',
      'resubmission_requested',
      'pending_review',
    ]) {
      expect(html).toContain(`value="${outcome}"`);
    }

    const chosen = await fetch(url, { method: 'POST', body: new URLSearchParams({ outcome: 'approved' }), redirect: 'manual' });
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get('location')).toBe('http://127.0.0.1:9/onboarding/done');

    const status = (await get(`/kyc/${customer}/status`)).body.data;
    expect(status).toMatchObject({
      kyc_status: 'approved',
      verification_level: 'verified',
      status: 'active',
      identity_mismatch: false,
      reason: null,
    });
    expect(status.approved_at).toBe(sandbox.core.clock.iso());
    expect((await get(`/customers/${customer}`)).body.data.verification_level).toBe('verified');
    expect((await get('/balance/others')).body.data.balance).toBe(before - 2);

    await until(() => typesFor(manualReceiver, customer).length === 2);
    expect(typesFor(manualReceiver, customer).sort()).toEqual(['balance.debited', 'kyc.approved']);
    const approved = manualReceiver.of('kyc.approved').find((e) => e.data.customer_code === customer)!;
    expect(approved.data).toMatchObject({
      kyc_status: 'approved',
      verification_level: 'verified',
      identity_mismatch: false,
      status: 'active',
      verified_identity: { first_name: 'Amina', last_name: 'Diallo', date_of_birth: '1990-04-17' },
    });
    const billed = manualReceiver.of('balance.debited').find((e) => e.data.customer_code === customer)!;
    expect(billed.data).toMatchObject({ reason: 'kyc_verification', balance_type: 'others', amount: 2 });

    // The page is used up; a new link is refused once approved.
    expect((await fetch(url)).status).toBe(410);
    const again = await post(`/kyc/${customer}/link`);
    expect(again.status).toBe(422);
    expect(again.body.error.details).toMatchObject({ reason: 'kyc_already_approved', current_status: 'approved' });
  });

  it('without return_url the page shows a closing message; an unknown token is 404; an unknown outcome 422; English by default', async () => {
    const customer = await newCustomer(sandbox, MANUAL);
    const url = await link(customer);
    const html = await (await fetch(url)).text();
    expect(html).toContain('<html lang="en">');
    expect((await fetch(url, { method: 'POST', body: new URLSearchParams({ outcome: 'approve_everything' }) })).status).toBe(422);
    const done = await fetch(url, { method: 'POST', body: new URLSearchParams({ outcome: 'rejected' }) });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('outcome was recorded');
    expect((await get(`/kyc/${customer}/status`)).body.data).toMatchObject({
      kyc_status: 'rejected',
      reason: 'document_rejected',
      verification_level: 'basic',
    });
    expect((await fetch(`${sandbox.url}/sandbox/kyc/s/00000000000000000000beef`)).status).toBe(404);
  });

  it('the page chooses an identity mismatch with the first name read on the document', async () => {
    const customer = await newCustomer(sandbox, MANUAL);
    const url = await link(customer);
    const r = await fetch(url, {
      method: 'POST',
      body: new URLSearchParams({ outcome: 'approved_identity_mismatch', verified_first_name: 'Aminata' }),
    });
    expect(r.status).toBe(200);
    await until(() => typesFor(manualReceiver, customer).includes('kyc.identity_mismatch'));
    expect(
      manualReceiver.of('kyc.identity_mismatch').find((e) => e.data.customer_code === customer)!.data.verified_identity.first_name,
    ).toBe('Aminata');
  });
});

describe('KYC outcomes (every row of the table)', () => {
  it('approved by itself a few seconds after the link, unless the account chooses outcomes', async () => {
    const customer = await newCustomer(sandbox, KEY);
    await link(customer, undefined, KEY);
    expect((await get(`/kyc/${customer}/status`, KEY)).body.data.kyc_status).toBe('not_started');
    await sandbox.advance(2, KEY);
    expect((await get(`/kyc/${customer}/status`, KEY)).body.data).toMatchObject({ kyc_status: 'approved', verification_level: 'verified' });
    await until(() => typesFor(receiver, customer).includes('kyc.approved'));
  });

  it('identity mismatch: restricted, kyc.approved then kyc.identity_mismatch; activate does not lift it, synchronize does', async () => {
    const customer = await newCustomer(sandbox, MANUAL);
    await link(customer);
    const sim = await sandbox.simulate(
      'POST',
      `/kyc/${customer}/outcome`,
      { outcome: 'approved_identity_mismatch', verified_identity: { first_name: 'Aminata', date_of_birth: '1990-04-18' } },
      MANUAL,
    );
    expect(sim.status).toBe(200);
    expect(sim.body.data).toMatchObject({
      kyc_status: 'approved',
      verification_level: 'verified',
      status: 'restricted',
      identity_mismatch: true,
    });
    await until(() => typesFor(manualReceiver, customer).length === 3);
    const kycEvents = eventsFor(manualReceiver, customer).filter((e) => e.type.startsWith('kyc.'));
    expect(kycEvents.map((e) => e.type)).toEqual(['kyc.approved', 'kyc.identity_mismatch']);
    expect(kycEvents[0]!.data).toMatchObject({ identity_mismatch: true, status: 'restricted' });
    expect(kycEvents[1]!.data).toEqual({
      customer_code: customer,
      external_reference: expect.any(String),
      declared_identity: { first_name: 'Amina', last_name: 'Diallo', date_of_birth: '1990-04-17' },
      verified_identity: { first_name: 'Aminata', last_name: 'Diallo', date_of_birth: '1990-04-18' },
      status: 'restricted',
      restriction_reason: 'identity_mismatch',
      required_action: 'synchronize_identity',
    });
    expect((await get(`/customers/${customer}`)).body.data).toMatchObject({
      status: 'restricted',
      restriction_reason: 'identity_mismatch',
    });

    const activate = await post(`/customers/${customer}/activate`);
    expect(activate.status).toBe(403);
    expect(activate.body.error).toMatchObject({
      code: 'ACCOUNT_RESTRICTED',
      details: { reason: 'customer_restricted', current_status: 'restricted' },
    });
    expect((await post(`/customers/${customer}/deactivate`)).status).toBe(403);
    expect((await post(`/kyc/${customer}/link`)).body.error.details.reason).toBe('customer_restricted');
    const card = await post('/cards', { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 10 });
    expect(card.body.error.details.reason).toBe('customer_restricted');

    const synced = await post(`/kyc/${customer}/synchronize`);
    expect(synced.status).toBe(200);
    expect(synced.body.data).toMatchObject({ first_name: 'Aminata', last_name: 'Diallo', date_of_birth: '1990-04-18', status: 'active' });
    expect((await get(`/customers/${customer}`)).body.data).toMatchObject({
      status: 'active',
      restriction_reason: null,
      first_name: 'Aminata',
      verification_level: 'verified',
    });
    expect((await get(`/kyc/${customer}/status`)).body.data).toMatchObject({
      status: 'active',
      identity_mismatch: false,
      kyc_status: 'approved',
    });
    await until(() => typesFor(manualReceiver, customer).includes('kyc.identity_synchronized'));
    expect(manualReceiver.of('kyc.identity_synchronized').find((e) => e.data.customer_code === customer)!.data).toMatchObject({
      first_name: 'Aminata',
      date_of_birth: '1990-04-18',
      status: 'active',
    });

    const twice = await post(`/kyc/${customer}/synchronize`);
    expect(twice.status).toBe(422);
    expect(twice.body.error.details).toMatchObject({ reason: 'identity_not_mismatched', current_status: 'active' });
  });

  it('rejected or abandoned: kyc.rejected, level basic, a new link allows a retry', async () => {
    const customer = await newCustomer(sandbox, MANUAL);
    await link(customer);
    await sandbox.simulate('POST', `/kyc/${customer}/outcome`, { outcome: 'rejected', reason: 'document_forged' }, MANUAL);
    expect((await get(`/kyc/${customer}/status`)).body.data).toMatchObject({
      kyc_status: 'rejected',
      reason: 'document_forged',
      verification_level: 'basic',
    });
    await link(customer);
    await sandbox.simulate('POST', `/kyc/${customer}/outcome`, { outcome: 'abandoned' }, MANUAL);
    expect((await get(`/kyc/${customer}/status`)).body.data).toMatchObject({ kyc_status: 'rejected', reason: 'abandoned_by_user' });
    await link(customer);
    await sandbox.simulate('POST', `/kyc/${customer}/outcome`, { outcome: 'approved' }, MANUAL);
    await until(() => typesFor(manualReceiver, customer).length === 4);
    expect(typesFor(manualReceiver, customer)).toEqual(['kyc.rejected', 'kyc.rejected', 'balance.debited', 'kyc.approved']);
    expect(eventsFor(manualReceiver, customer)[0]!.data).toMatchObject({
      kyc_status: 'rejected',
      verification_level: 'basic',
      reason: 'document_forged',
    });
  });

  it('expired: a link left open 7 days of the clock sends kyc.expired; the expired page is gone', async () => {
    const customer = await newCustomer(sandbox, MANUAL);
    const url = await link(customer);
    const created = (await post(`/kyc/${customer}/link`)).body.data; // a second link replaces the first
    expect(Date.parse(created.expires_at) - clockOf(sandbox, MANUAL).now()).toBe(7 * 24 * 3600 * 1000);
    expect((await fetch(url)).status).toBe(410);
    await sandbox.advance(7 * 24 * 3600, MANUAL);
    expect((await get(`/kyc/${customer}/status`)).body.data).toMatchObject({
      kyc_status: 'expired',
      reason: 'session_expired',
      verification_level: 'basic',
    });
    await until(() => typesFor(manualReceiver, customer).includes('kyc.expired'));
    expect(typesFor(manualReceiver, customer)).toEqual(['kyc.expired']); // the replaced link expires silently
    expect((await fetch(created.url)).status).toBe(410);
    // The simulation's expiry gives the same.
    await link(customer);
    await sandbox.simulate('POST', `/kyc/${customer}/outcome`, { outcome: 'expired' }, MANUAL);
    await until(() => typesFor(manualReceiver, customer).length === 2);
  });

  it('documents insufficient: kyc.resubmission_requested, the link stays open for the new documents', async () => {
    const customer = await newCustomer(sandbox, MANUAL);
    const url = await link(customer);
    await sandbox.simulate('POST', `/kyc/${customer}/outcome`, { outcome: 'resubmission_requested' }, MANUAL);
    expect((await get(`/kyc/${customer}/status`)).body.data).toMatchObject({
      kyc_status: 'resubmission_requested',
      reason: 'document_unreadable',
      verification_level: 'basic',
    });
    expect((await fetch(url)).status).toBe(200);
    await fetch(url, { method: 'POST', body: new URLSearchParams({ outcome: 'approved' }) });
    await until(() => typesFor(manualReceiver, customer).length === 3);
    expect(typesFor(manualReceiver, customer)).toEqual(['kyc.resubmission_requested', 'balance.debited', 'kyc.approved']);
  });

  it('manual review: kyc.pending_review, then a final approved or rejected (only those)', async () => {
    const customer = await newCustomer(sandbox, MANUAL);
    await link(customer);
    await sandbox.simulate('POST', `/kyc/${customer}/outcome`, { outcome: 'pending_review' }, MANUAL);
    expect((await get(`/kyc/${customer}/status`)).body.data).toMatchObject({ kyc_status: 'pending', verification_level: 'basic' });
    const notFinal = await sandbox.simulate('POST', `/kyc/${customer}/outcome`, { outcome: 'expired' }, MANUAL);
    expect(notFinal.status).toBe(422);
    expect(notFinal.body.error.details.current_status).toBe('pending');
    await sandbox.simulate('POST', `/kyc/${customer}/outcome`, { outcome: 'rejected' }, MANUAL);
    await until(() => typesFor(manualReceiver, customer).length === 2);
    expect(typesFor(manualReceiver, customer)).toEqual(['kyc.pending_review', 'kyc.rejected']);

    // Automatic accounts: the review ends approved by itself.
    const auto = await newCustomer(sandbox, KEY);
    const url = await link(auto, undefined, KEY);
    await fetch(url, { method: 'POST', body: new URLSearchParams({ outcome: 'pending_review' }) });
    await sandbox.advance(2, KEY);
    expect((await get(`/kyc/${auto}/status`, KEY)).body.data.kyc_status).toBe('approved');
    await until(() => typesFor(receiver, auto).includes('kyc.approved'));
    expect(typesFor(receiver, auto).filter((t) => t.startsWith('kyc.'))).toEqual(['kyc.pending_review', 'kyc.approved']);
  });

  it('errors: unknown customer 404, inactive customer 422 customer_not_active, no link to decide 422, an http return_url 422', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const r of [await post(`/kyc/${unknown}/link`), await get(`/kyc/${unknown}/status`), await post(`/kyc/${unknown}/synchronize`)]) {
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('RESOURCE_NOT_FOUND');
    }
    expect((await sandbox.simulate('POST', `/kyc/${unknown}/outcome`, { outcome: 'approved' }, MANUAL)).status).toBe(404);
    const customer = await newCustomer(sandbox, MANUAL);
    const none = await sandbox.simulate('POST', `/kyc/${customer}/outcome`, { outcome: 'approved' }, MANUAL);
    expect(none.status).toBe(422);
    expect(none.body.error.details.current_status).toBe('not_started');
    const sync = await post(`/kyc/${customer}/synchronize`);
    expect(sync.body.error.details).toMatchObject({ reason: 'identity_not_mismatched', current_status: 'active' });
    const http = await post(`/kyc/${customer}/link`, { return_url: 'http://app.example.com/done' });
    expect(http.status).toBe(422);
    expect(http.body.error.details.fields[0].field).toBe('return_url');
    await post(`/customers/${customer}/deactivate`);
    const inactive = await post(`/kyc/${customer}/link`);
    expect(inactive.status).toBe(422);
    expect(inactive.body.error.details).toMatchObject({ reason: 'customer_not_active', current_status: 'inactive' });
  });
});

describe('proof of address', () => {
  it('needs level verified; approved: level full, poa.approved, billed; a second document is refused', async () => {
    const basic = await newCustomer(sandbox, MANUAL);
    const low = await post(`/poa/${basic}/document`, document());
    expect(low.status).toBe(422);
    expect(low.body.error.details).toMatchObject({
      reason: 'verification_level_too_low',
      current_verification_level: 'basic',
      required_verification_level: 'verified',
    });
    expect((await get(`/poa/${basic}/status`)).status).toBe(404);

    const customer = await verifiedCustomer();
    const before = (await get('/balance/others')).body.data.balance as number;
    const sent = await post(`/poa/${customer}/document`, document());
    expect(sent.body.data).toEqual({
      customer_code: customer,
      poa_status: 'pending',
      verification_level: 'verified',
      document_name: 'utility-bill.pdf',
      rejection_reason: null,
      approved_at: null,
    });
    const twice = await post(`/poa/${customer}/document`, document('other.pdf'));
    expect(twice.status).toBe(422);
    expect(twice.body.error.details).toMatchObject({ reason: 'poa_under_review', current_status: 'pending' });

    const approved = await sandbox.simulate('POST', `/poa/${customer}/outcome`, { outcome: 'approved' }, MANUAL);
    expect(approved.body.data).toMatchObject({
      poa_status: 'approved',
      verification_level: 'full',
      approved_at: clockOf(sandbox, MANUAL).iso(),
    });
    expect((await get(`/poa/${customer}/status`)).body.data.poa_status).toBe('approved');
    expect((await get(`/customers/${customer}`)).body.data.verification_level).toBe('full');
    expect((await get('/balance/others')).body.data.balance).toBe(before - 1);
    await until(() => typesFor(manualReceiver, customer).includes('poa.approved'));
    expect(typesFor(manualReceiver, customer).slice(-2)).toEqual(['balance.debited', 'poa.approved']);
    expect(eventsFor(manualReceiver, customer).at(-2)!.data).toMatchObject({ reason: 'poa_verification', amount: 1 });
    const again = await post(`/poa/${customer}/document`, document());
    expect(again.status).toBe(422);
    expect(again.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { reason: 'poa_already_approved', current_status: 'approved', current_verification_level: 'full' },
    });
    expect((await sandbox.simulate('POST', `/poa/${customer}/outcome`, { outcome: 'approved' }, MANUAL)).status).toBe(422);
  });

  it('rejected: stays verified, poa.rejected with the reason; retry with a new document', async () => {
    const customer = await verifiedCustomer();
    await post(`/poa/${customer}/document`, document('old-bill.pdf'));
    const rejected = await sandbox.simulate(
      'POST',
      `/poa/${customer}/outcome`,
      { outcome: 'rejected', reason: 'Document is older than three months' },
      MANUAL,
    );
    expect(rejected.body.data).toMatchObject({
      poa_status: 'rejected',
      verification_level: 'verified',
      rejection_reason: 'Document is older than three months',
      document_name: 'old-bill.pdf',
    });
    await until(() => typesFor(manualReceiver, customer).includes('poa.rejected'));
    expect(manualReceiver.of('poa.rejected').find((e) => e.data.customer_code === customer)!.data).toMatchObject({
      poa_status: 'rejected',
      verification_level: 'verified',
      reason: 'Document is older than three months',
    });
    const retry = await post(`/poa/${customer}/document`, document('new-bill.pdf'));
    expect(retry.body.data).toMatchObject({ poa_status: 'pending', document_name: 'new-bill.pdf', rejection_reason: null });
  });

  it('approved by itself on an automatic account', async () => {
    const customer = await newCustomer(sandbox, KEY);
    await link(customer, undefined, KEY);
    await sandbox.advance(2, KEY);
    await post(`/poa/${customer}/document`, document(), KEY);
    await sandbox.advance(2, KEY);
    expect((await get(`/poa/${customer}/status`, KEY)).body.data).toMatchObject({ poa_status: 'approved', verification_level: 'full' });
  });

  it('accepts a file up to 10 MB (a body above the 1 MiB default); a larger one is a 422 naming content', async () => {
    const customer = await verifiedCustomer();
    const tooLarge = await post(`/poa/${customer}/document`, document('scan.png', 'A'.repeat(13_981_016)));
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.body.error.details.fields[0].field).toBe('content');
    const beyondSchema = await post(`/poa/${customer}/document`, document('scan.png', 'A'.repeat(13_981_020)));
    expect(beyondSchema.status).toBe(422);
    const largest = await post(`/poa/${customer}/document`, { ...document('scan.png', 'A'.repeat(13_981_012)), content_type: 'image/png' });
    expect(largest.status).toBe(200);
  });
});

describe('customers: update and deactivate', () => {
  it('update contact details and, at level basic, the declared identity; empty or unknown fields are 422', async () => {
    const customer = await newCustomer(sandbox, MANUAL);
    const r = await sandbox.request('PATCH', `/v1/customers/${customer}`, {
      key: MANUAL,
      body: JSON.stringify({ email: 'amina@example.com', phone: '+33612345678', last_name: 'Diallo-Ba' }),
    });
    expect(r.body.data).toMatchObject({ email: 'amina@example.com', phone: '+33612345678', last_name: 'Diallo-Ba' });
    const removed = await sandbox.request('PATCH', `/v1/customers/${customer}`, {
      key: MANUAL,
      body: JSON.stringify({ phone: null, external_reference: 'cust-renamed' }),
    });
    expect(removed.body.data).toMatchObject({ phone: null, email: 'amina@example.com', external_reference: 'cust-renamed' });
    expect((await sandbox.request('PATCH', `/v1/customers/${customer}`, { key: MANUAL, body: '{}' })).status).toBe(422);
    expect(
      (await sandbox.request('PATCH', `/v1/customers/${customer}`, { key: MANUAL, body: JSON.stringify({ status: 'inactive' }) })).status,
    ).toBe(422);
    expect(
      (
        await sandbox.request('PATCH', '/v1/customers/00000000-0000-4000-8000-000000000000', {
          key: MANUAL,
          body: JSON.stringify({ phone: null }),
        })
      ).status,
    ).toBe(404);
  });

  it('after KYC the declared identity cannot change (identity_already_verified); contact details still can', async () => {
    const customer = await verifiedCustomer();
    const before = (await get(`/customers/${customer}`)).body.data;
    const r = await sandbox.request('PATCH', `/v1/customers/${customer}`, {
      key: MANUAL,
      body: JSON.stringify({ first_name: 'Other', email: 'x@example.com' }),
    });
    expect(r.status).toBe(422);
    expect(r.body.error.details).toMatchObject({ reason: 'identity_already_verified', current_verification_level: 'verified' });
    expect((await get(`/customers/${customer}`)).body.data).toEqual(before);
    const ok = await sandbox.request('PATCH', `/v1/customers/${customer}`, {
      key: MANUAL,
      body: JSON.stringify({ email: 'x@example.com' }),
    });
    expect(ok.body.data.email).toBe('x@example.com');
  });

  it("deactivate: every kind of request the operation's description lists is refused for an inactive customer, and no money moves; activate restores", async () => {
    // The rule as the contract states it: "requests that create something for it or move money for it (cards,
    // top-ups, ...) are refused with 422 `VALIDATION_ERROR`, `details.reason` `customer_not_active` and
    // `details.current_status` `inactive`".
    const description = String(MODEL.byPath('POST', '/customers/{customerCode}/deactivate')?.node.description).replace(/\s+/g, ' ');
    const rule = description.match(
      /\(([^)]+)\) are refused with (\d{3}) `([A-Z_]+)`, `details\.reason` `([a-z_]+)` and `details\.current_status` `([a-z_]+)`/,
    );
    if (!rule) throw new Error(`the deactivate description no longer states its rule as this test reads it: ${description}`);
    const kinds = rule[1]!.split(/,\s*|\s+and\s+/);
    const [status, code, reason, currentStatus] = [Number(rule[2]), rule[3], rule[4], rule[5]];
    expect(kinds.length).toBeGreaterThanOrEqual(9);

    // A customer with something of each kind already: an active card, a beneficiary and a quote.
    const customer = await verifiedCustomer();
    const card = (await post('/cards', { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 20 })).body.data
      .code as string;
    await sandbox.simulate('POST', `/cards/${card}/issuance`, { outcome: 'activated' }, MANUAL);
    const example = (path: string, fields: Record<string, unknown>) => ({ ...requestExamples('POST', path)[0], ...fields });
    const beneficiary = (await post('/payouts/beneficiaries', example('/payouts/beneficiaries', { customer_code: customer }))).body.data
      .code as string;
    const quote = (await post('/payouts/quotes', example('/payouts/quotes', { beneficiary_code: beneficiary }))).body.data.code as string;
    const giftCardOrder = (body: unknown) =>
      sandbox.request('POST', '/api/v1/gift-cards/orders', { key: MANUAL, body: JSON.stringify(body) });
    /** The requests of each kind the description names. */
    const requests: Record<string, () => Promise<{ status: number; body: any }>[]> = {
      cards: () => [post('/cards', example('/cards', { customer_code: customer }))],
      'top-ups': () => [post(`/cards/${card}/topup`, example('/cards/{code}/topup', {}))],
      'KYC links': () => [post(`/kyc/${customer}/link`)],
      'proof of address': () => [post(`/poa/${customer}/document`, document())],
      wallets: () => [post('/wallets', example('/wallets', { customer_code: customer }))],
      'virtual accounts': () => [post('/virtual-accounts', example('/virtual-accounts', { customer_code: customer }))],
      'gift card orders': () => [giftCardOrder(example('/gift-cards/orders', { customer_code: customer }))],
      beneficiaries: () => [post('/payouts/beneficiaries', example('/payouts/beneficiaries', { customer_code: customer }))],
      payouts: () => [
        post('/payouts/quotes', example('/payouts/quotes', { beneficiary_code: beneficiary })),
        post('/payouts', { quote_code: quote }),
      ],
    };
    const balances = async () => (await get('/balance')).body.data.map((b: { type: string; balance: number }) => `${b.type} ${b.balance}`);

    expect((await post(`/customers/${customer}/deactivate`)).body.data.status).toBe('inactive');
    expect((await post(`/customers/${customer}/deactivate`)).body.data.status).toBe('inactive');
    const before = await balances();
    for (const kind of kinds) {
      const make = requests[kind];
      if (!make) throw new Error(`the deactivate description names "${kind}", which this test has no request for: add one`);
      for (const r of await Promise.all(make())) {
        expect(r.status, kind).toBe(status);
        expect(r.body.error, kind).toMatchObject({ code, details: { reason, current_status: currentStatus } });
      }
    }
    expect(await balances()).toEqual(before);
    expect((await get(`/cards/${card}`)).body.data.status).toBe('active'); // what it has keeps working
    expect((await post(`/customers/${customer}/activate`)).body.data.status).toBe('active');
    expect((await post(`/cards/${card}/topup`, { amount: 10 })).status).toBe(200);
    expect((await post('/payouts', { quote_code: quote })).status).toBe(200);
  });
});

describe('balance deposits (simulation)', () => {
  it('credit the net amount and send balance.deposit_confirmed; a gift card redemption carries source', async () => {
    const before = (await get('/balance/payout_sepa')).body.data.balance as number;
    const r = await sandbox.simulate('POST', '/balances/payout_sepa/deposits', { gross_amount: 1000, fee: 10.5 }, MANUAL);
    expect(r.body.data.balance).toBe(before + 989.5);
    await sandbox.simulate('POST', '/balances/gift_cards/deposits', { gross_amount: 250, gift_card_code: 'GC-7F3A-19QZ' }, MANUAL);
    await until(() => manualReceiver.of('balance.deposit_confirmed').length === 2);
    expect(manualReceiver.of('balance.deposit_confirmed').map((e) => e.data)).toEqual([
      { balance_type: 'payout_sepa', gross_amount: 1000, fee: 10.5, amount: 989.5 },
      {
        balance_type: 'gift_cards',
        gross_amount: 250,
        fee: 0,
        amount: 250,
        source: { type: 'gift_card_redemption', gift_card_code: 'GC-7F3A-19QZ' },
      },
    ]);
    const history = (await get('/balance/payout_sepa/transactions')).body.data;
    expect(history[0]).toMatchObject({ direction: 'credit', amount: 989.5, reason: 'deposit' });
    const bad = await sandbox.simulate('POST', '/balances/others/deposits', { gross_amount: 10, fee: 10 }, MANUAL);
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.fields[0].field).toBe('fee');
  });
});

describe('the checks every operation shares, on the KYC and POA operations', () => {
  it('an Idempotency-Key replays the same link (no second session); reused with another body: 422 idempotency_key_reused', async () => {
    const customer = await newCustomer(sandbox, MANUAL);
    const send = (body: unknown) =>
      sandbox.request('POST', `/v1/kyc/${customer}/link`, {
        key: MANUAL,
        body: JSON.stringify(body),
        headers: { 'Idempotency-Key': `link-${customer}` },
      });
    const first = await send({ locale: 'fr' });
    const replay = await send({ locale: 'fr' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.url).toBe(first.body.data.url);
    expect((await fetch(first.body.data.url)).status).toBe(200); // still the open link
    const reused = await send({ locale: 'en' });
    expect(reused.status).toBe(422);
    expect(reused.body.error.details.reason).toBe('idempotency_key_reused');
  });

  it('while an ops balance is negative, link, synchronize and document are refused (403); the status reads still answer', async () => {
    const key = 'sk_test_kyc_negative';
    const r = await startReceiver();
    try {
      await connect(sandbox, r, key);
      const customer = await newCustomer(sandbox, key);
      await sandbox.simulate('PUT', '/balances/gift_cards', { balance: -1 }, key);
      for (const path of [`/kyc/${customer}/link`, `/kyc/${customer}/synchronize`]) {
        const refused = await post(path, undefined, key);
        expect(refused.status).toBe(403);
        expect(refused.body.error.code).toBe('ACCOUNT_SUSPENDED_NEGATIVE_BALANCE');
      }
      expect((await post(`/poa/${customer}/document`, document(), key)).body.error.code).toBe('ACCOUNT_SUSPENDED_NEGATIVE_BALANCE');
      expect((await get(`/kyc/${customer}/status`, key)).status).toBe(200);
      expect((await get(`/poa/${customer}/status`, key)).status).toBe(404);
    } finally {
      await r.close();
    }
  });

  it('a malformed customer code or a bad body is a 422 naming the field; no key is a 401', async () => {
    expect((await get('/kyc/not-a-uuid/status')).status).toBe(422);
    const customer = await newCustomer(sandbox, MANUAL);
    const locale = await post(`/kyc/${customer}/link`, { locale: 'French' });
    expect(locale.body.error.details.fields[0].field).toBe('locale');
    const type = await post(`/poa/${customer}/document`, { ...document(), content_type: 'image/gif' });
    expect(type.body.error.details.fields[0].field).toBe('content_type');
    expect((await sandbox.request('GET', `/v1/kyc/${customer}/status`, { key: null })).status).toBe(401);
  });
});
