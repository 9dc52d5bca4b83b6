// The sandbox's bin as a process, as a partner or a validator in front of it meets it: with `--seed examples` it
// answers only once the example records exist, and with `--public-url` the links it gives are the contract's
// `https://` ones (a KYC link's url must match `^https://`).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertPortFree } from '../../scripts/lib/port-check.ts';
import { createResponseValidator, formatErrors, type OpenApiBundle } from '../../scripts/conformance/validate-response.ts';
import { EXAMPLE_CODES } from '../../src/sandbox/index.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const KEY = 'sk_test_sandbox';
const PUBLIC_URL = 'https://sandbox.partner.test';
const BANNER = 'Sandbox of the partner API on';

/**
 * A free port below the kernel's ephemeral range (32768-60999): a client that connects again and again to a port
 * of that range while nothing listens there can connect to itself, and the server then cannot bind it.
 */
async function fixedFreePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (
      await assertPortFree('127.0.0.1', port, '').then(
        () => true,
        () => false,
      )
    )
      return port;
  }
}

interface Answer {
  order: number;
  giftCards: number | undefined;
  afterBanner: boolean;
}

let child: ChildProcess;
let stdout = '';
let port: number;
/** Every answer to the seeded key, from the process's start until a little after its banner. */
const answers: Answer[] = [];

const get = (path: string) =>
  fetch(`http://127.0.0.1:${port}${path}`, { headers: { Authorization: `Bearer ${KEY}` }, signal: AbortSignal.timeout(10_000) });

beforeAll(async () => {
  port = await fixedFreePort();
  // tsx as a loader of this process, as the installed bin runs: one process, started the way a partner starts it.
  child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/sandbox/cli.ts', '--seed', 'examples', '--port', String(port), '--public-url', PUBLIC_URL],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A client polling from the moment the process starts: the order of the seed at the gift card address, then
  // the ops balances it debited.
  const deadline = Date.now() + 60_000;
  let afterBanner = 0;
  while (afterBanner < 5) {
    if (child.exitCode !== null) throw new Error(`the sandbox exited with ${child.exitCode}:\n${stderr}`);
    if (Date.now() > deadline) throw new Error(`the sandbox did not answer within 60 s:\n${stdout}\n${stderr}`);
    const banner = stdout.includes(BANNER);
    try {
      const order = await get(`/api/v1/gift-cards/orders/${EXAMPLE_CODES.giftCardOrder}`);
      await order.body?.cancel();
      const balances = (await (await get('/v1/balance')).json()) as { data: { type: string; balance: number }[] };
      answers.push({ order: order.status, giftCards: balances.data.find((b) => b.type === 'gift_cards')?.balance, afterBanner: banner });
      if (banner) afterBanner++;
    } catch {
      await new Promise((r) => setTimeout(r, 10)); // not listening yet
    }
  }
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

describe('partner-api-sandbox --seed examples', () => {
  it('answers no request before the example records exist: from its first answer, the order is there and its price debited', () => {
    const seeded = answers.at(-1)!;
    expect(seeded.order).toBe(200);
    expect(seeded.giftCards).toBeLessThan(10_000);
    expect(answers.filter((a) => a.order !== 200 || a.giftCards !== seeded.giftCards)).toEqual([]);
  });
});

describe('partner-api-sandbox --public-url', () => {
  it('gives the KYC link under the public https:// address, as the contract says, and says so when it starts', async () => {
    expect(stdout).toContain(`Links it gives (the KYC page) start with ${PUBLIC_URL}`);
    const post = (path: string, body: unknown) =>
      fetch(`http://127.0.0.1:${port}/v1${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    // The seeded key has a webhook endpoint, which a new customer needs.
    const customer = (await (
      await post('/customers', { external_reference: 'public-url', first_name: 'Amina', last_name: 'Diallo', date_of_birth: '1990-04-17' })
    ).json()) as { data: { customer_code: string } };
    const res = await post(`/kyc/${customer.data.customer_code}/link`, {});
    const body = (await res.json()) as { data: { url: string } };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.data.url).toMatch(new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/sandbox/kyc/s/[^/]+$`));
    // The contract as published, without the sandbox's loopback allowance: what a strict validator checks.
    const contract = JSON.parse(fs.readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8')) as OpenApiBundle;
    expect(formatErrors(createResponseValidator(contract).validate('POST', '/kyc/{customerCode}/link', res.status, body))).toBe('');
  });
});
