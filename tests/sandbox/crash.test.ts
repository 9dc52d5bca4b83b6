// Crash: the sandbox process is killed with SIGKILL under load (keyed top-ups, deliveries failing), then
// restarted on the same database file. Every acknowledged request is still there (its Idempotency-Key replays
// the same answer), the ops balance matches the top-ups on record, and the pending deliveries resume with
// their original idempotency keys.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createPartnerClient } from '../../src/client/index.ts';
import { startReceiver, until } from './support.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-crash-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

async function start(db: string, config: string): Promise<{ child: ChildProcess; url: string }> {
  // tsx as a loader of this very process: the pid is the server's, so SIGKILL kills the server itself.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--db', db, '--config', config, '--no-rate-limit'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return { child, url };
}

it('kill -9 under load, then a restart: no acknowledged change lost, pending deliveries resume with their keys', async () => {
  const db = path.join(dir, 'crash.sqlite');
  const config = path.join(dir, 'config.json');
  fs.writeFileSync(config, JSON.stringify({ defaults: { auto_complete_seconds: 0 } }));
  const key = 'sk_test_crash';
  const receiver = await startReceiver();
  let { child, url } = await start(db, config);
  let client = createPartnerClient({ apiKey: key, baseUrl: `${url}/v1`, retry: false });
  const endpoint = await client.call.POST('/webhooks', { body: { url: receiver.url, events: ['*'] } });
  receiver.secret = endpoint.data.secret;
  const customer = (
    await client.call.POST('/customers', {
      body: { external_reference: 'crash', first_name: 'A', last_name: 'B', date_of_birth: '1990-01-01' },
    })
  ).data.customer_code;
  const card = (await client.call.POST('/cards', { body: { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 1000 } }))
    .data.code;
  for (let i = 0; i < 100 && (await client.call.GET('/cards/{code}', { params: { path: { code: card } } })).data.status !== 'active'; i++)
    await new Promise((r) => setTimeout(r, 50));
  receiver.status = 500;

  // Load: 8 workers sending keyed top-ups until the process dies.
  const acknowledged = new Map<string, string>();
  let stop = false;
  let sent = 0;
  const worker = async (w: number) => {
    for (let i = 0; !stop; i++) {
      const idempotencyKey = `crash-${w}-${i}`;
      sent++;
      try {
        const r = await client.POST('/cards/{code}/topup', {
          params: { path: { code: card } },
          body: { amount: 1 },
          headers: { 'Idempotency-Key': idempotencyKey },
        });
        if (r.data) acknowledged.set(idempotencyKey, r.data.data.topup_id);
      } catch {
        return; // the connection died with the process
      }
    }
  };
  const workers = Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
  await until(() => acknowledged.size >= 150, 30_000);
  child.kill('SIGKILL');
  stop = true;
  await workers;
  await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve)));
  expect(child.signalCode).toBe('SIGKILL');
  // The deliveries the receiver refused (500): each must come again after the restart.
  const eventsBefore = receiver.events.filter((e) => e.answered >= 300).map((e) => ({ id: e.id, key: e.idempotencyKey }));
  const received = receiver.events.length;
  expect(acknowledged.size).toBeGreaterThanOrEqual(150);
  expect(eventsBefore.length).toBeGreaterThan(0);

  ({ child, url } = await start(db, config));
  client = createPartnerClient({ apiKey: key, baseUrl: `${url}/v1`, retry: false });
  // Every acknowledged top-up is on record: its key replays the same answer.
  for (const [idempotencyKey, topUpId] of acknowledged) {
    const r = await client.POST('/cards/{code}/topup', {
      params: { path: { code: card } },
      body: { amount: 1 },
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect(r.response.headers.get('idempotent-replayed'), idempotencyKey).toBe('true');
    expect(r.data?.data.topup_id).toBe(topUpId);
  }
  // The ops balance equals the opening amount less the card and the top-ups on record (2 USD each).
  let topUps = 0;
  for await (const t of client.paginate('/balance/{type}/transactions', {
    params: { path: { type: 'cards_visa' }, query: { limit: 100 } },
  })) {
    if (t.reason === 'card_topup') topUps++;
  }
  expect(topUps).toBeGreaterThanOrEqual(acknowledged.size);
  expect(topUps).toBeLessThanOrEqual(sent);
  const balance = (await client.call.GET('/balance/{type}', { params: { path: { type: 'cards_visa' } } })).data.balance;
  expect(Math.round(balance * 100)).toBe(1_000_000 - 100_600 - 200 * topUps);

  // Pending deliveries resume after the restart, each event with its original idempotency key.
  receiver.status = 200;
  const advanced = await fetch(`${url}/sandbox/clock/advance`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ seconds: 3 * 3600 }),
  });
  expect(advanced.status).toBe(200);
  const after = () => receiver.events.slice(received);
  await until(() => eventsBefore.every((e) => after().some((a) => a.id === e.id)), 60_000);
  for (const e of eventsBefore) expect(after().find((a) => a.id === e.id)!.idempotencyKey).toBe(e.key);
  expect(receiver.problems).toEqual([]);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await receiver.close();
}, 180_000);
