// npm run bench:lists [-- --rows 100000] [--accounts 8] [--duration 2] [--runs 3] [--warmup 1] [--entry compiled|source]
// What a small account's lists cost once other accounts fill the database, against what they cost while it is
// empty, in the same run and the same sandbox process. A small account gets a webhook endpoint, a customer, a
// card and a few withdrawals (each one an event, a delivery, a balance transaction and a card transaction); its
// lists are measured with autocannon (the CPU time the sandbox process spent per request, from Linux /proc, and
// p99 latency); then `--accounts` other accounts make `--rows` withdrawals in all through the partner API (as
// many events, deliveries, balance transactions and card transactions), and the same lists are measured again.
// Each list is measured `--runs` times in each phase and its lowest CPU time per request kept: another process
// on a shared machine can only add to it. `GET /balance` is measured alike as the reference: it reads the
// account's five balances by primary key, whatever the other accounts hold, so its ratio is what the machine's
// drift between the phases (its load, the process's larger memory) adds to every request. Prints each list's
// cost before and after, its ratio, and its ratio to the reference's: an index per list keeps the latter near 1
// (target: at most 1.2).
import os from 'node:os';
import { parseCli, reportCliError, UsageError } from '../lib/cli-parser.ts';
import { cardAccount, load, measure, partnerCalls, startBenchSandbox, startCountingReceiver, type Entry } from './bench-sandbox.ts';

const USAGE = `Usage: npm run bench:lists [-- --rows <n>] [--accounts <n>] [--duration <s>] [--runs <n>] [--warmup <s>] [--entry compiled|source]
  --rows <n>      withdrawals the other accounts make in all, each an event, a delivery and a balance transaction (default 100000)
  --accounts <n>  other accounts that make them (default 8)
  --duration <s>  seconds of each measured run (default 2)
  --runs <n>      measured runs of each list in each phase, the lowest CPU time kept (default 3)
  --warmup <s>    seconds of warm-up of each list before the empty database is measured (default 1)
  --entry         compiled (default): dist/sandbox/cli.js, as the package's bin runs it; source: src/ through tsx`;

/** The flags, checked: a mistake is one line with the usage (exit 2), before anything starts. */
function options(): { rows: number; accounts: number; duration: number; runs: number; warmup: number; entry: Entry } | null {
  try {
    const args = parseCli(process.argv.slice(2), {
      usage: USAGE,
      options: {
        rows: { type: 'string', default: '100000' },
        accounts: { type: 'string', default: '8' },
        duration: { type: 'string', default: '2' },
        runs: { type: 'string', default: '3' },
        warmup: { type: 'string', default: '1' },
        entry: { type: 'string', default: 'compiled' },
      },
    });
    if (!args) return null;
    const { rows = '100000', accounts = '8', duration = '2', runs = '3', warmup = '1', entry = 'compiled' } = args.values;
    if (entry !== 'compiled' && entry !== 'source') throw new UsageError(`--entry must be compiled or source, got "${entry}"`);
    for (const [name, value] of [
      ['rows', rows],
      ['accounts', accounts],
      ['duration', duration],
      ['runs', runs],
    ] as const) {
      if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--${name} must be a positive whole number, got "${value}"`);
    }
    if (!/^\d+$/.test(warmup)) throw new UsageError(`--warmup must be a whole number of seconds, got "${warmup}"`);
    return {
      rows: Number(rows),
      accounts: Number(accounts),
      duration: Number(duration),
      runs: Number(runs),
      warmup: Number(warmup),
      entry,
    };
  } catch (error) {
    process.exit(reportCliError('bench:lists', USAGE, error));
  }
}

const picked = options();
if (!picked) process.exit(0);
const { rows, accounts, duration, runs, warmup, entry } = picked;
const SMALL = 'sk_test_small_account';
const SMALL_WITHDRAWALS = 30;

console.log(
  `load average (1 min) at start: ${load()}; ${os.cpus().length} shared cores; sandbox: ${entry === 'compiled' ? 'compiled (dist/sandbox/cli.js)' : 'source through tsx'}`,
);
const sandbox = await startBenchSandbox(entry);
const receiver = await startCountingReceiver();

/** Waits until every delivery queued so far has reached the receiver: none is in flight while a list is measured. */
async function drained(atLeast: number): Promise<void> {
  let last = -1;
  for (let stable = 0; stable < 5; ) {
    await new Promise((r) => setTimeout(r, 100));
    const now = receiver.received();
    stable = now === last && now >= atLeast ? stable + 1 : 0;
    last = now;
  }
}

try {
  const small = await cardAccount(sandbox.baseUrl, SMALL, receiver.url);
  const api = partnerCalls(sandbox.baseUrl, SMALL);
  for (let i = 0; i < SMALL_WITHDRAWALS; i++) await api.post(`/cards/${small.card}/withdraw`, { amount: 5 });
  await drained(SMALL_WITHDRAWALS);

  const lists = [
    ['GET /events', '/events'],
    ['GET /webhooks/{code}/deliveries', `/webhooks/${small.endpoint}/deliveries`],
    ['GET /balance/{type}/transactions', '/balance/cards_visa/transactions'],
    ['GET /cards/{code}/transactions', `/cards/${small.card}/transactions`],
    ['GET /cards', '/cards'],
    ['GET /customers', '/customers'],
    ['GET /balance (reference)', '/balance'],
  ] as const;
  const run = (p: string, seconds: number) =>
    measure(sandbox.pid, { url: `${sandbox.baseUrl}${p}`, headers: api.headers, connections: 10, duration: seconds });
  const phase = async () => {
    const results = [];
    for (const [, p] of lists) {
      let best: Awaited<ReturnType<typeof run>> | undefined;
      for (let i = 0; i < runs; i++) {
        const r = await run(p, duration);
        if (r.non2xx > 0 || r.errors > 0) throw new Error(`GET ${p}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
        if (!best || r.cpuUsPerRequest < best.cpuUsPerRequest) best = r;
      }
      results.push(best!);
    }
    return results;
  };

  if (warmup > 0) for (const [, p] of lists) await run(p, warmup);
  const empty = await phase();

  // The other accounts' rows: withdrawals through the partner API, in parallel, each account at 4 connections.
  const started = performance.now();
  const before = receiver.received();
  const fillers = await Promise.all(
    Array.from({ length: accounts }, (_, i) => cardAccount(sandbox.baseUrl, `sk_test_filler_${i + 1}`, receiver.url)),
  );
  const per = Math.ceil(rows / accounts);
  const fills = await Promise.all(
    fillers.map((f, i) =>
      measure(sandbox.pid, {
        url: `${sandbox.baseUrl}/cards/${f.card}/withdraw`,
        method: 'POST',
        headers: partnerCalls(sandbox.baseUrl, `sk_test_filler_${i + 1}`).headers,
        body: JSON.stringify({ amount: 5 }),
        connections: 4,
        amount: per,
      }),
    ),
  );
  const refused = fills.reduce((n, r) => n + r.non2xx + r.errors, 0);
  if (refused > 0) throw new Error(`the fill got ${refused} non-2xx answers or errors`);
  await drained(before + per * accounts);
  let events = 0;
  let transactions = 0;
  for (let i = 0; i < accounts; i++) {
    const other = partnerCalls(sandbox.baseUrl, `sk_test_filler_${i + 1}`);
    events += (await other.get('/events?limit=1')).pagination!.total;
    transactions += (await other.get('/balance/cards_visa/transactions?limit=1')).pagination!.total;
  }
  const smallEvents = (await api.get('/events?limit=1')).pagination!.total;
  console.log(
    `filled in ${((performance.now() - started) / 1000).toFixed(1)} s: ${accounts} other accounts hold ${events} events, ${receiver.received() - before} deliveries received,` +
      ` ${transactions} cards_visa balance transactions; the small account holds ${smallEvents} events`,
  );

  const filled = await phase();
  console.log(
    `CPU time of the sandbox per request of the small account's lists (autocannon, 10 connections, lowest of ${runs} runs of ${duration} s), empty database -> filled, same process:`,
  );
  let worst = 0;
  const reference = filled.at(-1)!.cpuUsPerRequest / empty.at(-1)!.cpuUsPerRequest;
  lists.forEach(([name], i) => {
    const e = empty[i]!;
    const f = filled[i]!;
    const ratio = f.cpuUsPerRequest / e.cpuUsPerRequest;
    if (i < lists.length - 1) worst = Math.max(worst, ratio / reference);
    console.log(
      `  ${name.padEnd(34)} ${String(Math.round(e.cpuUsPerRequest)).padStart(6)} -> ${String(Math.round(f.cpuUsPerRequest)).padStart(6)} µs/req` +
        `  ratio ${ratio.toFixed(2)}x, ${(ratio / reference).toFixed(2)}x the reference's  (p99 ${e.latency.p99} -> ${f.latency.p99} ms, ${Math.round(e.requests.total / e.duration)} -> ${Math.round(f.requests.total / f.duration)} req/s)`,
    );
  });
  console.log(`worst list: ${worst.toFixed(2)}x the reference's ratio (target: at most 1.2x); load average (1 min) at end: ${load()}`);
} finally {
  await receiver.close();
  await sandbox.close();
}
