// npm run bench:sandbox [-- --duration 5]
// The sandbox and the Prism mock in the same run, with autocannon: GET /v1/cards and the withdraw POST, at
// 10 and 50 connections. Each server runs in its own process (autocannon runs in this one). Prints requests
// per second, p99 latency, the sandbox/Prism ratio, and the sandbox process's memory at rest and under load.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { findFreePort } from '../lib/port-check.ts';
import { ROOT } from '../lib/paths.ts';
import { startPrism } from '../mock/prism.ts';
import { startSandboxProcess } from '../lib/sandbox-process.ts';

interface Result {
  requests: { average: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<Result>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const { values } = parseArgs({ options: { duration: { type: 'string', default: '5' } } });
const duration = Number(values.duration);
const KEY = 'sk_test_bench';

/** The sandbox's command line in a process of its own, with a config for load (large balances, instant outcomes). */
async function startBenchSandbox() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sandbox-'));
  const config = path.join(dir, 'config.json');
  fs.writeFileSync(config, JSON.stringify({ defaults: { opening_balance: 5_000_000, auto_complete_seconds: 0 } }));
  const child = await startSandboxProcess({ port: await findFreePort(), args: ['--no-rate-limit', '--config', config] });
  return {
    baseUrl: child.baseUrl,
    /** Resident memory of the sandbox process, MB (Linux /proc). */
    rss: () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024),
    close: async () => {
      await child.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const sandbox = await startBenchSandbox();
const mb = sandbox.rss;
const prism = await startPrism({ spec: path.join(ROOT, 'generated', 'openapi.json'), port: await findFreePort(), output: 'ignore' });
const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
try {
  // A card with enough balance for every withdrawal of the run, and its customer and endpoint.
  const receiver = (await import('node:http')).createServer((_, res) => res.writeHead(200).end()).listen(0, '127.0.0.1');
  await new Promise((r) => receiver.once('listening', r));
  const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const post = async (p: string, body: unknown) => (await (await fetch(`${sandbox.baseUrl}${p}`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as { data: any };
  await post('/webhooks', { url: hook, events: ['card.frozen'] });
  const customer = (await post('/customers', { external_reference: 'bench', first_name: 'B', last_name: 'E', date_of_birth: '1990-01-01' })).data.customer_code;
  // 100,000 USD is the largest initial load and top-up (CardInitialLoad): 500,000 USD in all, 100,000 withdrawals of 5.
  const card = (await post('/cards', { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 100_000 })).data.code;
  await new Promise((r) => setTimeout(r, 200));
  for (let i = 0; i < 4; i++) await post(`/cards/${card}/topup`, { amount: 100_000 });
  await new Promise((r) => setTimeout(r, 200));
  const atRest = mb();

  const targets = [
    { name: 'GET /cards', method: 'GET', sandbox: `${sandbox.baseUrl}/cards`, prism: `${prism.url}/cards`, body: undefined },
    { name: 'POST /cards/{code}/withdraw', method: 'POST', sandbox: `${sandbox.baseUrl}/cards/${card}/withdraw`, prism: `${prism.url}/cards/${card}/withdraw`, body: JSON.stringify({ amount: 5 }) },
  ];
  let peak = atRest;
  const timer = setInterval(() => (peak = Math.max(peak, mb())), 100);
  console.log(`autocannon, ${duration} s per run, on this machine (shared cores):`);
  for (const t of targets) {
    for (const connections of [10, 50]) {
      const run = (url: string) => autocannon({ url, method: t.method, headers, body: t.body, connections, duration });
      const s = await run(t.sandbox);
      const p = await run(t.prism);
      console.log(
        `${t.name.padEnd(28)} ${String(connections).padStart(2)} conn: sandbox ${Math.round(s.requests.average)} req/s p99 ${s.latency.p99} ms` +
          ` (non-2xx ${s.non2xx}) | prism ${Math.round(p.requests.average)} req/s p99 ${p.latency.p99} ms | ratio ${(s.requests.average / p.requests.average).toFixed(1)}x`,
      );
    }
  }
  clearInterval(timer);
  console.log(`sandbox memory (RSS of its process): ${atRest} MB at rest, ${peak} MB peak under load`);
  receiver.close();
} finally {
  await prism.stop();
  await sandbox.close();
}
