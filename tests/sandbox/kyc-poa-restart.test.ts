// Pending KYC and proof-of-address timers are stored jobs, like the card ones: with --db, a sandbox restarted on
// the same file still runs them when the clock advances (the automatic approvals and the link's expiry).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, newCustomer, startReceiver, startTestSandbox, until, type Receiver, type TestSandbox } from './support.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-kyc-db-'));
let receiver: Receiver;
let sandbox: TestSandbox | undefined;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  expect(sandbox?.problems ?? []).toEqual([]);
  expect(receiver.problems).toEqual([]);
  await sandbox?.close();
  sandbox = undefined;
});
afterAll(async () => {
  await receiver.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const PDF = 'JVBERi0xLjcKJcfsj6IKMSAwIG9iago8PC9UeXBlL0NhdGFsb2c+PgplbmRvYmoK';
const post = (s: TestSandbox, key: string, p: string, body?: unknown) =>
  s.request('POST', `/v1${p}`, { key, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
const get = (s: TestSandbox, key: string, p: string) => s.request('GET', `/v1${p}`, { key });
const eventTypes = (customer: string) => receiver.events.filter((e) => e.data.customer_code === customer).map((e) => e.type);
/** The timers waiting on the clock of the key's account. */
const pendingKinds = (s: TestSandbox, key: string) => s.core.scheduler.pending(s.core.accounts.resolve(key).id).map((j) => j.kind);

/** Closes the running sandbox and starts another on the same database file. */
async function restart(db: string): Promise<TestSandbox> {
  await sandbox!.close();
  sandbox = await startTestSandbox({ db });
  return sandbox;
}

describe('restart with --db: pending KYC and proof-of-address outcomes', () => {
  it('the automatic KYC approval, then the automatic POA approval, each fire after a restart when the clock advances', async () => {
    const db = path.join(dir, 'auto.sqlite');
    const key = 'sk_test_kyc_restart';
    sandbox = await startTestSandbox({ db });
    await connect(sandbox, receiver, key);
    const customer = await newCustomer(sandbox, key);
    expect((await post(sandbox, key, `/kyc/${customer}/link`)).status).toBe(200);
    expect(pendingKinds(sandbox, key)).toContain('kyc.auto_outcome');

    let s = await restart(db);
    expect(pendingKinds(s, key)).toContain('kyc.auto_outcome');
    expect((await get(s, key, `/customers/${customer}`)).body.data.verification_level).toBe('basic');
    await s.advance(2, key);
    expect((await get(s, key, `/kyc/${customer}/status`)).body.data).toMatchObject({
      kyc_status: 'approved',
      verification_level: 'verified',
    });
    await until(() => eventTypes(customer).includes('kyc.approved'));

    const submitted = await post(s, key, `/poa/${customer}/document`, {
      document_name: 'utility-bill.pdf',
      content_type: 'application/pdf',
      content: PDF,
    });
    expect(submitted.body.data).toMatchObject({ poa_status: 'pending' });
    s = await restart(db);
    expect(pendingKinds(s, key)).toContain('poa.auto_outcome');
    expect((await get(s, key, `/poa/${customer}/status`)).body.data.poa_status).toBe('pending');
    await s.advance(2, key);
    expect((await get(s, key, `/poa/${customer}/status`)).body.data).toMatchObject({ poa_status: 'approved', verification_level: 'full' });
    expect((await get(s, key, `/customers/${customer}`)).body.data.verification_level).toBe('full');
    await until(() => eventTypes(customer).includes('poa.approved'));
  });

  it("a manual account's open KYC link still expires after a restart, seven days of the clock later", async () => {
    const db = path.join(dir, 'manual.sqlite');
    const key = 'sk_test_kyc_restart_manual';
    sandbox = await startTestSandbox({ db, config: { accounts: { [key]: { manual: true } } } });
    await connect(sandbox, receiver, key);
    const customer = await newCustomer(sandbox, key);
    expect((await post(sandbox, key, `/kyc/${customer}/link`)).status).toBe(200);

    const s = await restart(db);
    expect(pendingKinds(s, key)).toContain('kyc.session_expiry');
    await s.advance(6 * 24 * 3600, key);
    expect((await get(s, key, `/kyc/${customer}/status`)).body.data.kyc_status).not.toBe('expired');
    await s.advance(24 * 3600, key);
    expect((await get(s, key, `/kyc/${customer}/status`)).body.data).toMatchObject({
      kyc_status: 'expired',
      reason: 'session_expired',
      verification_level: 'basic',
    });
    await until(() => eventTypes(customer).includes('kyc.expired'));
  });
});
