// Verifications per second for 1 KB and 64 KB bodies: `npm run bench` (vitest bench --run).
// Vitest 5 benchmarks are the `bench` fixture of a test. node:crypto appears here only as a baseline;
// src/webhooks itself uses Web Crypto.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { expect, test } from 'vitest';
import { signWebhook, verifyWebhook } from '../../src/webhooks/index.js';

const SECRET = 'whsec_bench_5f2b8c1d9e3a4b6c7d8e9f0a1b2c3d4e';
const OLD_SECRET = 'whsec_bench_00000000000000000000000000000000';
const T = 1772446530;
const now = () => T;

/** A card.transaction-like event serialised to exactly `size` bytes. */
function eventOfSize(size: number): string {
  const base = {
    id: 'evt_0b6f2c1e-4d7a-4f3b-9c8e-1a2b3c4d5e6f',
    type: 'card.transaction',
    created_at: '2026-03-02T10:15:30Z',
    mode: 'live',
    data: { card_code: '7c9e6679-7425-40de-944b-e07fc1f90ae7', balance: 75, currency: 'USD', note: '' },
  };
  base.data.note = 'x'.repeat(size - JSON.stringify(base).length);
  const body = JSON.stringify(base);
  if (body.length !== size) throw new Error(`body is ${body.length} bytes, wanted ${size}`);
  return body;
}

for (const [label, size] of [['1 KB', 1024], ['64 KB', 65536]] as const) {
  test(`verify a ${label} body`, async ({ bench }) => {
    const body = eventOfSize(size);
    const bytes = Buffer.from(body, 'utf8');
    const headers = await signWebhook(body, SECRET, { timestamp: T });
    const v1 = Buffer.from(headers['X-Service-Signature'].split('v1=')[1] ?? '');

    const results = await bench.compare(
      bench(`verifyWebhook ${label}, Buffer body`, async () => {
        await verifyWebhook(bytes, headers, SECRET, { now });
      }),
      bench(`verifyWebhook ${label}, string body`, async () => {
        await verifyWebhook(body, headers, SECRET, { now });
      }),
      bench(`verifyWebhook ${label}, 2 secrets, 2nd matches`, async () => {
        await verifyWebhook(bytes, headers, [OLD_SECRET, SECRET], { now });
      }),
      bench(`baseline ${label}: node:crypto HMAC only`, () => {
        const mac = createHmac('sha256', SECRET).update(`${T}.`).update(bytes).digest('hex');
        if (!timingSafeEqual(Buffer.from(mac), v1)) throw new Error('mismatch');
      }),
      { time: 1000 },
    );
    // A smoke floor, far below any real figure: catches a verification that stalls or errors.
    expect(results.get(`verifyWebhook ${label}, Buffer body`).throughput.mean).toBeGreaterThan(100);
  });
}
