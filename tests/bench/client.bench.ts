// Client overhead per call, compared with raw openapi-fetch over the same mocked fetch (a fetch that
// returns a canned Response, so no network is measured): `npm run bench` (vitest bench --run), or
// `npx vitest bench --run tests/bench/client.bench.ts`. Prints the ratio of median latencies, client / raw
// (the goal: at most 1.15 with the client's defaults). A POST of the client also carries an Idempotency-Key,
// so it is compared with raw openapi-fetch sending the same key header too: the like-for-like reference.
import createClient from 'openapi-fetch';
import { expect, test } from 'vitest';
import type { paths } from '../../generated/openapi.js';
import { createPartnerClient } from '../../src/index.js';
import { cardExample } from '../client/support.js';

const KEY = 'sk_test_bench_4eC39HqLyjWDarjtT1zdp7dc';
const BASE = 'https://api.example.test/v1';
const CODE = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const CARD = JSON.stringify({
  success: true,
  data: cardExample(),
  meta: { request_id: 'req_bench', mode: 'test', timestamp: '2026-03-02T10:15:30Z' },
});
const HEADERS = { 'Content-Type': 'application/json' };

/** The mocked fetch shared by every contender: a fresh canned Response per call. */
const fetch = async (_request: Request) => new Response(CARD, { status: 200, headers: HEADERS });

const raw = createClient<paths>({ baseUrl: BASE, fetch, headers: { Authorization: `Bearer ${KEY}` } });
const client = createPartnerClient({ apiKey: KEY, baseUrl: BASE, fetch });
const bare = createPartnerClient({ apiKey: KEY, baseUrl: BASE, fetch, retry: false, timeoutMs: 0 });
const init = { params: { path: { code: CODE } } };
const body = { params: { path: { code: CODE } }, body: { amount: 20 } };

type Result = { latency: { p50?: number | undefined }; throughput: { mean: number } };

/** Ratio and overhead on the median latency (robust to GC pauses on a shared machine), in µs. */
function report(method: string, raw: Result, client: Result, label = `client.${method}`, reference = 'raw') {
  const us = (r: Result) => (r.latency.p50 ?? Number.NaN) * 1000;
  console.log(
    `${label} / ${reference}: ${(us(client) / us(raw)).toFixed(2)}x (median), overhead ${(us(client) - us(raw)).toFixed(2)} µs ` +
      `(${reference} ${us(raw).toFixed(2)} µs, ${label} ${us(client).toFixed(2)} µs; ` +
      `${Math.round(raw.throughput.mean)} vs ${Math.round(client.throughput.mean)} calls/s)`,
  );
}

test('client overhead per GET, against raw openapi-fetch', async ({ bench }) => {
  const results = await bench.compare(
    bench('raw openapi-fetch GET', async () => {
      const { data } = await raw.GET('/cards/{code}', init);
      if (!data) throw new Error('no data');
    }),
    bench('client.GET (retry + 30 s timeout, defaults)', async () => {
      const { data } = await client.GET('/cards/{code}', init);
      if (!data) throw new Error('no data');
    }),
    bench('client.call.GET (data or throw)', async () => {
      await client.call.GET('/cards/{code}', init);
    }),
    bench('client.GET, retry: false, timeoutMs: 0', async () => {
      const { data } = await bare.GET('/cards/{code}', init);
      if (!data) throw new Error('no data');
    }),
    { time: 1500 },
  );
  report('GET', results.get('raw openapi-fetch GET'), results.get('client.GET (retry + 30 s timeout, defaults)'));
  report('GET', results.get('raw openapi-fetch GET'), results.get('client.call.GET (data or throw)'), 'call.GET');
  // A smoke floor, far below any real figure: catches a client that stalls.
  expect(results.get('client.GET (retry + 30 s timeout, defaults)').throughput.mean).toBeGreaterThan(1000);
});

test('client overhead per POST, against raw openapi-fetch', async ({ bench }) => {
  const results = await bench.compare(
    bench('raw openapi-fetch POST', async () => {
      const { data } = await raw.POST('/cards/{code}/withdraw', body);
      if (!data) throw new Error('no data');
    }),
    bench('raw openapi-fetch POST + Idempotency-Key', async () => {
      const { data } = await raw.POST('/cards/{code}/withdraw', { ...body, headers: { 'Idempotency-Key': crypto.randomUUID() } });
      if (!data) throw new Error('no data');
    }),
    bench('client.POST (defaults)', async () => {
      const { data } = await client.POST('/cards/{code}/withdraw', body);
      if (!data) throw new Error('no data');
    }),
    { time: 1500 },
  );
  report('POST', results.get('raw openapi-fetch POST'), results.get('client.POST (defaults)'));
  report(
    'POST',
    results.get('raw openapi-fetch POST + Idempotency-Key'),
    results.get('client.POST (defaults)'),
    'client.POST',
    'raw + key',
  );
  // What the key header alone costs openapi-fetch (a UUID, two header merges, one more Request header):
  // the part of client.POST / raw that is the key, not the client.
  report('POST', results.get('raw openapi-fetch POST'), results.get('raw openapi-fetch POST + Idempotency-Key'), 'raw + key', 'raw');
  expect(results.get('client.POST (defaults)').throughput.mean).toBeGreaterThan(1000);
});
