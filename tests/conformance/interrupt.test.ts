// A conformance run stopped by Ctrl-C still cleans up after itself (scripts/conformance/interrupt.ts): the run,
// a child process against an in-process sandbox, gets SIGINT once its set-up has made a webhook endpoint; it must
// exit with 130 after its clean-up, which leaves none of its endpoints or beneficiaries and sets the balances it
// brought into place back to what it found.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { findFreePort } from '../../scripts/lib/port-check.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
// The conformance CLI runs under tsx, as its npm script does.
const TSX = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const KEY = 'sk_test_interrupt';
const WEBHOOK_URL = 'https://receiver.interrupt.test';

let sandbox: RunningSandbox;
let receiverPort = 0;
beforeAll(async () => {
  receiverPort = await findFreePort('127.0.0.1');
  sandbox = await startSandbox({
    port: 0,
    config: { webhook_routes: { [WEBHOOK_URL]: `http://127.0.0.1:${receiverPort}` }, accounts: { [KEY]: { rate_limit: 100_000 } } },
  });
}, 60_000);
afterAll(() => sandbox?.close());

const get = async (p: string) => {
  const res = await fetch(`${sandbox.baseUrl}${p}`, { headers: { Authorization: `Bearer ${KEY}` } });
  return ((await res.json()) as { data: Record<string, unknown>[] }).data;
};
const balances = async () => Object.fromEntries((await get('/balance')).map((b) => [b.type, b.balance]));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a conformance run stopped by SIGINT', () => {
  it('cleans up once, says what it left, and exits with 130', async () => {
    // A balance short of what the run needs, which the run raises for itself and must set back.
    const set = await fetch(`${sandbox.simulationUrl}/balances/cards_visa`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ balance: 12 }),
    });
    expect(set.status).toBe(200);
    const before = await balances();
    const child = spawn(
      process.execPath,
      [
        TSX,
        'scripts/conformance/run.ts',
        ...['--server', sandbox.baseUrl, '--alt-server', sandbox.giftCardBaseUrl, '--api-key', KEY, '--real'],
        ...['--webhook-url', `${WEBHOOK_URL}/webhooks`, '--receiver-port', String(receiverPort), '--simulation-url', sandbox.simulationUrl],
        ...['--only', 'createCard'],
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Once the set-up has made the run's endpoint.
    const deadline = Date.now() + 60_000;
    while ((await get('/webhooks')).length === 0) {
      expect(Date.now(), `no endpoint made within 60 s:\n${output}`).toBeLessThan(deadline);
      await sleep(50);
    }
    expect(await balances()).not.toEqual(before);
    child.kill('SIGINT');
    const code = await exited;
    console.log(output.slice(-3000));
    expect(code, output.slice(-4000)).toBe(130);
    expect(output).toMatch(/^Interrupted \(SIGINT\): the run stops here and cleans up after itself/m);
    expect(output).toMatch(/^Clean-up \(run conformance-\S+\):$/m);
    expect(output).toMatch(/^ {2}removed: [1-9]\d* webhook endpoints?/m);
    expect(output).toMatch(/^ {2}balances set back to what the run found: .*cards_visa/m);
    expect(output).toMatch(/^Interrupted \(SIGINT\): the run did not finish/m);
    expect(output).not.toMatch(/^\d+ passed, \d+ failed/m);
    // Nothing of the run is left, though its set-up went on making records until the signal.
    expect(await get('/webhooks')).toEqual([]);
    expect(await get('/payouts/beneficiaries')).toEqual([]);
    expect(await balances()).toEqual(before);
  }, 180_000);
});
