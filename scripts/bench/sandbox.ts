// npm run bench:sandbox [-- --duration 5] [--warmup 2] [--entry compiled|source]
// The sandbox and the Prism mock in the same run, with autocannon: GET /v1/cards and the withdraw POST, at
// 10 and 50 connections. Each server runs in its own process (autocannon runs in this one), and each gets
// the same warm-up on each target before it is measured. The sandbox runs as the package's bin runs it
// (compiled JS, built here first with `npm run build:lib`), or from source through tsx with
// `--entry source`. Prints requests per second, p99 latency, the CPU time each server spent per request,
// the sandbox/Prism ratio, the load average of the machine, and the memory of both processes at rest and
// under load.
import os from 'node:os';
import path from 'node:path';
import { parseCli, reportCliError, UsageError } from '../lib/cli-parser.ts';
import { findFreePort } from '../lib/port-check.ts';
import { ROOT } from '../lib/paths.ts';
import { startPrism } from '../mock/prism.ts';
import { autocannon, startBenchSandbox } from './bench-sandbox.ts';
import { cpuMs, rssMb } from './process-stats.ts';

const USAGE = `Usage: npm run bench:sandbox [-- --duration <s>] [--warmup <s>] [--entry compiled|source]
  --duration <s>  seconds of each measured run (default 5)
  --warmup <s>    seconds of warm-up of each server on each target (default 2)
  --entry         compiled (default): dist/sandbox/cli.js, as the package's bin runs it; source: src/ through tsx`;

/** The flags, checked: a mistake is one line with the usage (exit 2), before anything starts. */
function options(): { duration: number; warmup: number; entry: 'compiled' | 'source' } | null {
  try {
    const args = parseCli(process.argv.slice(2), {
      usage: USAGE,
      options: {
        duration: { type: 'string', default: '5' },
        warmup: { type: 'string', default: '2' },
        entry: { type: 'string', default: 'compiled' },
      },
    });
    if (!args) return null;
    const { duration = '5', warmup = '2', entry = 'compiled' } = args.values;
    if (entry !== 'compiled' && entry !== 'source') throw new UsageError(`--entry must be compiled or source, got "${entry}"`);
    for (const [name, value] of [
      ['duration', duration],
      ['warmup', warmup],
    ] as const) {
      if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number of seconds, got "${value}"`);
    }
    return { duration: Number(duration), warmup: Number(warmup), entry };
  } catch (error) {
    process.exit(reportCliError('bench:sandbox', USAGE, error));
  }
}

const picked = options();
if (!picked) process.exit(0);
const { duration, warmup, entry } = picked;
const KEY = 'sk_test_bench';
const MB = 1024 * 1024;

const load = () => os.loadavg()[0]!.toFixed(2);
console.log(
  `load average (1 min) at start: ${load()}; sandbox: ${entry === 'compiled' ? 'compiled (dist/sandbox/cli.js)' : 'source through tsx'}`,
);
const sandbox = await startBenchSandbox(entry);
const prism = await startPrism({ spec: path.join(ROOT, 'generated', 'openapi.json'), port: await findFreePort(), output: 'ignore' });
const prismPid = prism.child.pid!;
const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
const receiver = (await import('node:http')).createServer((_, res) => res.writeHead(200).end()).listen(0, '127.0.0.1');
try {
  // A card with enough balance for every withdrawal of the run, and its customer and endpoint.
  await new Promise((r) => receiver.once('listening', r));
  const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const post = async (p: string, body: unknown) =>
    (await (await fetch(`${sandbox.baseUrl}${p}`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as {
      data: Record<string, string>;
    };
  await post('/webhooks', { url: hook, events: ['card.frozen'] });
  const customer = (await post('/customers', { external_reference: 'bench', first_name: 'B', last_name: 'E', date_of_birth: '1990-01-01' }))
    .data.customer_code;
  // 100,000 USD is the largest initial load and top-up (CardInitialLoad): 2,100,000 USD in all, 420,000 withdrawals of 5.
  const card = (await post('/cards', { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 100_000 })).data.code;
  await new Promise((r) => setTimeout(r, 200));
  for (let i = 0; i < 20; i++) await post(`/cards/${card}/topup`, { amount: 100_000 });
  await new Promise((r) => setTimeout(r, 200));
  const atRest = await sandbox.memory(true);
  const prismAtRest = rssMb(prismPid);

  const targets = [
    { name: 'GET /cards', method: 'GET', sandbox: `${sandbox.baseUrl}/cards`, prism: `${prism.url}/cards`, body: undefined },
    {
      name: 'POST /cards/{code}/withdraw',
      method: 'POST',
      sandbox: `${sandbox.baseUrl}/cards/${card}/withdraw`,
      prism: `${prism.url}/cards/${card}/withdraw`,
      body: JSON.stringify({ amount: 5 }),
    },
  ];
  let peak = { rss: atRest.rss, heapUsed: atRest.heapUsed, heapTotal: atRest.heapTotal };
  let prismPeak = prismAtRest;
  let sampling = false;
  const timer = setInterval(() => {
    if (sampling) return;
    sampling = true;
    prismPeak = Math.max(prismPeak, rssMb(prismPid));
    void sandbox.memory().then((m) => {
      peak = {
        rss: Math.max(peak.rss, m.rss),
        heapUsed: Math.max(peak.heapUsed, m.heapUsed),
        heapTotal: Math.max(peak.heapTotal, m.heapTotal),
      };
      sampling = false;
    });
  }, 250);
  /** One autocannon run; with the CPU time the server process spent per request, µs. */
  const measure = async (url: string, pid: number, method: string, body: string | undefined, connections: number, seconds: number) => {
    const cpuBefore = cpuMs(pid);
    const result = await autocannon({ url, method, headers, body, connections, duration: seconds });
    return { ...result, cpuUsPerRequest: ((cpuMs(pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total) };
  };
  console.log(
    `autocannon, ${duration} s per run after a ${warmup} s warm-up of each server on each target, on this machine (${os.cpus().length} shared cores):`,
  );
  for (const t of targets) {
    if (warmup > 0) {
      await measure(t.sandbox, sandbox.pid, t.method, t.body, 10, warmup);
      await measure(t.prism, prismPid, t.method, t.body, 10, warmup);
    }
    for (const connections of [10, 50]) {
      const s = await measure(t.sandbox, sandbox.pid, t.method, t.body, connections, duration);
      const p = await measure(t.prism, prismPid, t.method, t.body, connections, duration);
      const side = (r: typeof s) =>
        `${Math.round(r.requests.average)} req/s p99 ${r.latency.p99} ms CPU ${Math.round(r.cpuUsPerRequest)} µs/req (non-2xx ${r.non2xx})`;
      console.log(
        `${t.name.padEnd(28)} ${String(connections).padStart(2)} conn: sandbox ${side(s)} | prism ${side(p)}` +
          ` | ratio ${(s.requests.average / p.requests.average).toFixed(1)}x | load ${load()}`,
      );
    }
  }
  clearInterval(timer);
  const after = await sandbox.memory(true);
  const mb = (bytes: number) => Math.round(bytes / MB);
  console.log(
    `sandbox memory: at rest RSS ${mb(atRest.rss)} MB, heap ${mb(atRest.heapUsed)} of ${mb(atRest.heapTotal)} MB;` +
      ` peak under load RSS ${mb(peak.rss)} MB, heap ${mb(peak.heapUsed)} of ${mb(peak.heapTotal)} MB; after the load RSS ${mb(after.rss)} MB, heap ${mb(after.heapUsed)} MB` +
      ' (at rest and after the load: after a full GC)',
  );
  console.log(`prism memory: at rest RSS ${prismAtRest} MB, peak under load RSS ${prismPeak} MB`);
  console.log(`load average (1 min) at end: ${load()}`);
} finally {
  receiver.close();
  await prism.stop();
  await sandbox.close();
}
