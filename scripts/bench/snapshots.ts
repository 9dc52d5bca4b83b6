// npm run bench:snapshots [-- --customers 100] [--accounts 8] [--runs 20]
// How long a snapshot of one account takes, and its restore, in-process. The account gets `--customers` customers
// (KYC approved) and as many cards, through a fixture (`POST /sandbox/fixtures`); `--accounts` other accounts get
// the same, so that the account's rows are read out of a database that holds others' too. Each of `--runs` rounds
// takes a snapshot, withdraws from a card (a change to put back) and restores it; prints the rows a snapshot holds
// and, for each step, the median and slowest time and the median CPU time of this process (the sandbox and its
// client: on a machine shared with other work, the steadier figure), and the same for the whole sandbox.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseCli, reportCliError, UsageError } from '../lib/cli-parser.ts';
import { startSandbox, type Fixture } from '../../src/sandbox/index.ts';

const USAGE = `Usage: npm run bench:snapshots [-- --customers <n>] [--accounts <n>] [--runs <n>]
  --customers <n>  customers of the measured account, each with a card (default 100)
  --accounts <n>   other accounts with as many (default 8)
  --runs <n>       snapshot, change and restore rounds (default 20)`;

function options(): { customers: number; accounts: number; runs: number } | null {
  const args = parseCli(process.argv.slice(2), {
    usage: USAGE,
    options: {
      customers: { type: 'string', default: '100' },
      accounts: { type: 'string', default: '8' },
      runs: { type: 'string', default: '20' },
    },
  });
  if (!args) return null;
  const count = (flag: 'customers' | 'accounts' | 'runs', min: number) => {
    const n = Number(args.values[flag]);
    if (!Number.isInteger(n) || n < min) throw new UsageError(`--${flag} must be an integer of at least ${min}`);
    return n;
  };
  return { customers: count('customers', 1), accounts: count('accounts', 0), runs: count('runs', 1) };
}

function fixture(url: string, customers: number): Fixture {
  const names = Array.from({ length: customers }, (_, i) => `c${i}`);
  return {
    webhook_endpoints: { hooks: { url, events: ['card.activated'] } },
    customers: Object.fromEntries(names.map((name) => [name, { kyc: { outcome: 'approved' } }])),
    cards: Object.fromEntries(names.map((name) => [`${name}_card`, { customer: name, brand: 'VISA', balance: 50 }])),
  };
}

async function post<T = Record<string, unknown>>(key: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as { data: T; error?: unknown };
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(answer.error)}`);
  return answer.data;
}

interface Timing {
  wall: number;
  cpu: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (timings: Timing[]) => {
  const wall = timings.map((t) => t.wall);
  return `median ${median(wall).toFixed(2)} ms, slowest ${Math.max(...wall).toFixed(2)} ms; CPU median ${median(timings.map((t) => t.cpu)).toFixed(2)} ms`;
};

async function timed(fn: () => unknown): Promise<Timing> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}

async function main(): Promise<void> {
  const opts = options();
  if (!opts) return;
  const receiver = http.createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const sandbox = await startSandbox({
    port: 0,
    freezeClock: true,
    rateLimit: false,
    config: { defaults: { opening_balance: 1_000_000 } },
  });
  try {
    const keys = Array.from({ length: opts.accounts + 1 }, (_, i) => `sk_test_bench_snapshots_${i}`);
    let codes: Record<string, string> = {};
    for (const key of keys)
      codes = (await post<{ codes: Record<string, string> }>(key, `${sandbox.simulationUrl}/fixtures`, fixture(url, opts.customers))).codes;
    const key = keys.at(-1)!;
    const card = codes.c0_card!;
    const take: Timing[] = [];
    const restore: Timing[] = [];
    let rows = 0;
    for (let i = 0; i < opts.runs; i++) {
      let id = '';
      take.push(
        await timed(async () => ({ id, rows } = await post<{ id: string; rows: number }>(key, `${sandbox.simulationUrl}/snapshots`))),
      );
      await post(key, `${sandbox.baseUrl}/cards/${card}/withdraw`, { amount: 5 });
      restore.push(await timed(() => post(key, `${sandbox.simulationUrl}/snapshots/${id}/restore`)));
    }
    console.log(`An account of ${opts.customers} customers and cards (${rows} rows), beside ${opts.accounts} others alike:`);
    console.log(`  POST /sandbox/snapshots: ${ms(take)}`);
    console.log(`  POST /sandbox/snapshots/{id}/restore: ${ms(restore)}`);
    const wholeTake: Timing[] = [];
    const wholeRestore: Timing[] = [];
    for (let i = 0; i < opts.runs; i++) {
      let id = '';
      wholeTake.push(await timed(() => (id = sandbox.snapshot())));
      await post(key, `${sandbox.baseUrl}/cards/${card}/withdraw`, { amount: 5 });
      wholeRestore.push(await timed(() => sandbox.restore(id)));
    }
    console.log(`The whole sandbox (${keys.length} accounts):`);
    console.log(`  sandbox.snapshot(): ${ms(wholeTake)}`);
    console.log(`  sandbox.restore(id): ${ms(wholeRestore)}`);
  } finally {
    await sandbox.close();
    receiver.close();
  }
}

await main().catch((error: unknown) => {
  process.exitCode = reportCliError('bench:snapshots', USAGE, error);
});
