// npm run bench:soak [-- --requests 100000] [--accounts 8] [--connections 10] [--entry compiled|source]
// The sandbox under a long mixed load: `--requests` requests over `--accounts` accounts, each with a webhook
// endpoint for every event (a receiver here answers 200), a customer and a card. The mix, per account: a
// withdrawal (an event, a delivery, a balance and a card transaction), a new customer, and eight reads, among
// them every list that grows (events, deliveries, balance and card transactions, cards, customers). It runs in
// four quarters of autocannon; after each one it prints the quarter's p99 latency and CPU time per request, the
// sandbox's V8 heap after a full GC and its RSS, the rows the lists hold, and the 5xx answers and connection
// errors (both must be 0: the run exits 1 otherwise). A list whose cost follows the whole database shows here
// as CPU time and p99 that climb from quarter to quarter; a leak as heap after GC that does.
import os from 'node:os';
import { parseCli, reportCliError, UsageError } from '../lib/cli-parser.ts';
import { MB, cardAccount, load, measure, partnerCalls, startBenchSandbox, startCountingReceiver, type Entry } from './bench-sandbox.ts';

const USAGE = `Usage: npm run bench:soak [-- --requests <n>] [--accounts <n>] [--connections <n>] [--entry compiled|source]
  --requests <n>     requests in all, in four quarters (default 100000)
  --accounts <n>     accounts the requests are spread over (default 8)
  --connections <n>  autocannon connections (default 10)
  --entry            compiled (default): dist/sandbox/cli.js, as the package's bin runs it; source: src/ through tsx`;

function options(): { requests: number; accounts: number; connections: number; entry: Entry } | null {
  try {
    const args = parseCli(process.argv.slice(2), {
      usage: USAGE,
      options: {
        requests: { type: 'string', default: '100000' },
        accounts: { type: 'string', default: '8' },
        connections: { type: 'string', default: '10' },
        entry: { type: 'string', default: 'compiled' },
      },
    });
    if (!args) return null;
    const { requests = '100000', accounts = '8', connections = '10', entry = 'compiled' } = args.values;
    if (entry !== 'compiled' && entry !== 'source') throw new UsageError(`--entry must be compiled or source, got "${entry}"`);
    for (const [name, value] of [
      ['requests', requests],
      ['accounts', accounts],
      ['connections', connections],
    ] as const) {
      if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--${name} must be a positive whole number, got "${value}"`);
    }
    return { requests: Number(requests), accounts: Number(accounts), connections: Number(connections), entry };
  } catch (error) {
    process.exit(reportCliError('bench:soak', USAGE, error));
  }
}

const picked = options();
if (!picked) process.exit(0);
const { requests, accounts, connections, entry } = picked;
const QUARTERS = 4;
const key = (i: number) => `sk_test_soak_${i + 1}`;

console.log(
  `load average (1 min) at start: ${load()}; ${os.cpus().length} shared cores; sandbox: ${entry === 'compiled' ? 'compiled (dist/sandbox/cli.js)' : 'source through tsx'}`,
);
const sandbox = await startBenchSandbox(entry);
const receiver = await startCountingReceiver();
let failed = false;
try {
  const records = [];
  for (let i = 0; i < accounts; i++) records.push(await cardAccount(sandbox.baseUrl, key(i), receiver.url));
  const customer = JSON.stringify({ external_reference: 'soak', first_name: 'Soak', last_name: 'Test', date_of_birth: '1990-01-01' });
  // One round of every account's mix; autocannon's connections go through it in turn, from the start again at its end.
  const round = records.flatMap((r, i) => {
    const headers = partnerCalls(sandbox.baseUrl, key(i)).headers;
    const get = (path: string) => ({ method: 'GET', path: `/v1${path}`, headers });
    return [
      { method: 'POST', path: `/v1/cards/${r.card}/withdraw`, headers, body: JSON.stringify({ amount: 5 }) },
      get('/events'),
      get(`/webhooks/${r.endpoint}/deliveries`),
      get('/balance/cards_visa/transactions'),
      { method: 'POST', path: '/v1/customers', headers, body: customer },
      get(`/cards/${r.card}/transactions`),
      get('/cards'),
      get('/customers'),
      get('/balance'),
      get(`/cards/${r.card}`),
    ];
  });
  const origin = new URL(sandbox.baseUrl).origin;
  const mb = (bytes: number) => Math.round(bytes / MB);
  const rest = await sandbox.memory(true);
  console.log(
    `${accounts} accounts, ${round.length / accounts} requests per account in each round (1 withdrawal, 1 new customer, 8 reads), ${connections} connections`,
  );
  console.log(`at rest: heap after GC ${mb(rest.heapUsed)} MB, RSS ${mb(rest.rss)} MB`);
  let total5xx = 0;
  let totalErrors = 0;
  let done = 0;
  for (let q = 1; q <= QUARTERS; q++) {
    const amount = Math.round((requests * q) / QUARTERS) - done;
    const r = await measure(sandbox.pid, { url: origin, requests: round, connections, amount });
    done += amount;
    total5xx += r.status5xx;
    totalErrors += r.errors;
    const memory = await sandbox.memory(true);
    const api = partnerCalls(sandbox.baseUrl, key(0));
    const events = (await api.get('/events?limit=1')).pagination!.total;
    console.log(
      `quarter ${q} (${done} requests): p99 ${r.latency.p99} ms, CPU ${Math.round(r.cpuUsPerRequest)} µs/req, ${Math.round(r.requests.total / r.duration)} req/s;` +
        ` heap after GC ${mb(memory.heapUsed)} MB, RSS ${mb(memory.rss)} MB; 5xx ${r.status5xx}, errors ${r.errors}, other non-2xx ${r.non2xx - r.status5xx};` +
        ` ${events} events per account, ${receiver.received()} deliveries received; load ${load()}`,
    );
  }
  failed = total5xx > 0 || totalErrors > 0;
  console.log(`5xx answers in all: ${total5xx}; connection errors: ${totalErrors}${failed ? ' (must be 0)' : ''}`);
} finally {
  await receiver.close();
  await sandbox.close();
}
process.exitCode = failed ? 1 : 0;
