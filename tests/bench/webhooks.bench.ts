// Webhook verification speed against the reference, the `stripe` package's `webhooks.constructEvent`
// (same `t=<ts>,v1=<hex>` scheme, also checks the timestamp and parses the body), at 1 KB and 64 KB, in
// the same run: `npm run bench`, or `npx vitest bench --run tests/bench/webhooks.bench.ts`.
// Prints ours / stripe in calls per second (>= 1.00 means ours is at least as fast), per crypto path:
// node:crypto (what Node uses) and Web Crypto (the path of Deno, Bun, Workers and browsers).
import Stripe from 'stripe';
import { expect, test } from 'vitest';
import { signWebhook, verifyWebhook, verifyWebhookSync } from '../../src/webhooks/index.js';
import { forceWebCrypto } from '../../src/webhooks/crypto.js';

const SECRET = 'whsec_bench_5f2b8c1d9e3a4b6c7d8e9f0a1b2c3d4e';
const OLD_SECRET = 'whsec_bench_00000000000000000000000000000000';
const T = Math.floor(Date.now() / 1000); // stripe reads the real clock: sign with it
const now = () => T;
const stripe = new Stripe('sk_test_bench');

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

type Result = { throughput: { mean: number } };
const ratio = (ours: Result, reference: Result) => (ours.throughput.mean / reference.throughput.mean).toFixed(2);

for (const [label, size] of [
  ['1 KB', 1024],
  ['64 KB', 65536],
] as const) {
  test(`verify a ${label} body, against stripe.webhooks.constructEvent`, async ({ bench }) => {
    const body = eventOfSize(size);
    const bytes = Buffer.from(body, 'utf8');
    const headers = await signWebhook(body, SECRET, { timestamp: T });
    const stripeHeader = headers['X-Service-Signature'];
    const names = {
      stripe: `stripe.webhooks.constructEvent ${label}, Buffer body`,
      sync: `verifyWebhookSync ${label}, Buffer body (node:crypto)`,
      node: `await verifyWebhook ${label}, Buffer body (node:crypto)`,
      string: `await verifyWebhook ${label}, string body (node:crypto)`,
      rotated: `await verifyWebhook ${label}, 2 secrets, 2nd matches (node:crypto)`,
      web: `await verifyWebhook ${label}, Buffer body (Web Crypto)`,
    };

    const results = await bench.compare(
      bench(names.stripe, () => {
        stripe.webhooks.constructEvent(bytes, stripeHeader, SECRET);
      }),
      bench(names.sync, () => {
        verifyWebhookSync(bytes, headers, SECRET, { now });
      }),
      bench(names.node, async () => {
        await verifyWebhook(bytes, headers, SECRET, { now });
      }),
      bench(names.string, async () => {
        await verifyWebhook(body, headers, SECRET, { now });
      }),
      bench(names.rotated, async () => {
        await verifyWebhook(bytes, headers, [OLD_SECRET, SECRET], { now });
      }),
      bench(names.web, async () => {
        forceWebCrypto(true); // read when the call starts: the path is chosen synchronously
        const verified = verifyWebhook(bytes, headers, SECRET, { now });
        forceWebCrypto(false);
        await verified;
      }),
      { time: 1000 },
    );
    const reference = results.get(names.stripe);
    for (const name of [names.sync, names.node, names.string, names.web]) {
      console.log(`${label}: ${name} / stripe = ${ratio(results.get(name), reference)}`);
    }
    // A smoke floor, far below any real figure: catches a verification that stalls or errors.
    expect(results.get(names.node).throughput.mean).toBeGreaterThan(100);
  });
}
