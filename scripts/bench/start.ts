// npm run bench:start [-- --fresh 5] [--starts 20] [--extra 10]
// How long a sandbox takes to start, with the package's compiled code (dist/sandbox/index.js, built here first
// with `npm run build:lib`), beside a bare fastify server (one route) started and closed the same way in the same
// run. First what a partner's test file pays: the import and the first `startSandbox()` in a fresh process
// (scripts/bench/fresh-start.ts, `--fresh` processes of each, interleaved), their medians and the ratios (wall and
// CPU time); then
// in one process, the first start and the median and p90 of the next ones; then the memory each extra open
// sandbox holds (after a full GC); and the load average.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { parseCli, reportCliError, UsageError } from '../lib/cli-parser.ts';
import { ROOT } from '../lib/paths.ts';

const USAGE = `Usage: npm run bench:start [-- --fresh <n>] [--starts <n>] [--extra <n>]
  --fresh <n>   fresh processes that import and start each (default 5)
  --starts <n>  starts measured in one process after the first (default 20)
  --extra <n>   sandboxes kept open at once to measure the memory of each (default 10)`;

function options(): { fresh: number; starts: number; extra: number } | null {
  try {
    const args = parseCli(process.argv.slice(2), {
      usage: USAGE,
      options: {
        fresh: { type: 'string', default: '5' },
        starts: { type: 'string', default: '20' },
        extra: { type: 'string', default: '10' },
      },
    });
    if (!args) return null;
    const { fresh = '5', starts = '20', extra = '10' } = args.values;
    for (const [name, value] of [
      ['fresh', fresh],
      ['starts', starts],
      ['extra', extra],
    ] as const) {
      if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--${name} must be a positive whole number, got "${value}"`);
    }
    return { fresh: Number(fresh), starts: Number(starts), extra: Number(extra) };
  } catch (error) {
    process.exit(reportCliError('bench:start', USAGE, error));
  }
}

const picked = options();
if (!picked) process.exit(0);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('bench:start: run with node --expose-gc (npm run bench:start does)');
  process.exit(2);
}

execFileSync('npm', ['run', '--silent', 'build:lib'], { cwd: ROOT, stdio: 'inherit' });
const ENTRY = path.join(ROOT, 'dist/sandbox/index.js');

const load = () => os.loadavg()[0]!.toFixed(2);
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;
const ms = (n: number) => n.toFixed(1);
const MB = 1024 * 1024;

async function timed(start: () => Promise<{ close(): Promise<void> }>): Promise<number> {
  const t0 = performance.now();
  const server = await start();
  const elapsed = performance.now() - t0;
  await server.close();
  return elapsed;
}

async function bareFastify() {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

console.log(`load average (1 min) at start: ${load()}; ${os.cpus().length} shared cores; node ${process.version}`);

/** One fresh process (scripts/bench/fresh-start.ts): its import and first start, in ms. */
function freshStart(...args: string[]): { import: number; start: number; total: number; cpu: number } {
  const out = execFileSync(process.execPath, [path.join(ROOT, 'scripts/bench/fresh-start.ts'), ...args], { cwd: ROOT, encoding: 'utf8' });
  const times = JSON.parse(out.trim().split('\n').at(-1)!) as { import: number; start: number; cpu: number };
  return { ...times, total: times.import + times.start };
}
// Interleaved, so that a change of load weighs on both alike.
const freshSandbox: ReturnType<typeof freshStart>[] = [];
const freshBare: ReturnType<typeof freshStart>[] = [];
for (let i = 0; i < picked.fresh; i++) {
  freshSandbox.push(freshStart('sandbox', ENTRY));
  freshBare.push(freshStart('fastify'));
}
const medianOf = (runs: ReturnType<typeof freshStart>[], key: 'import' | 'start' | 'total' | 'cpu') =>
  quantile(
    runs.map((r) => r[key]),
    0.5,
  );
const phases = (runs: ReturnType<typeof freshStart>[]) =>
  `import + first start ${ms(medianOf(runs, 'total'))} ms (import ${ms(medianOf(runs, 'import'))} ms, start ${ms(medianOf(runs, 'start'))} ms; ` +
  `totals ${runs.map((r) => ms(r.total)).join(', ')}); CPU ${ms(medianOf(runs, 'cpu'))} ms`;
console.log(`a fresh process, medians of ${picked.fresh} (load average ${load()}):`);
console.log(`  startSandbox() (dist/sandbox/index.js): ${phases(freshSandbox)}`);
console.log(`  bare fastify (one route, listen, close): ${phases(freshBare)}`);
console.log(
  `  sandbox / bare fastify, import + first start: ${(medianOf(freshSandbox, 'total') / medianOf(freshBare, 'total')).toFixed(1)}x; ` +
    `CPU ${(medianOf(freshSandbox, 'cpu') / medianOf(freshBare, 'cpu')).toFixed(1)}x (the steadier figure on a loaded machine)`,
);

type SandboxModule = typeof import('../../src/sandbox/index.ts');
const { startSandbox } = (await import(pathToFileURL(ENTRY).href)) as SandboxModule;
const sandbox = () => startSandbox({ port: 0 });
const firstSandbox = await timed(sandbox);
const firstBare = await timed(bareFastify);
// Interleaved, so that a change of load weighs on both alike.
const sandboxTimes: number[] = [];
const bareTimes: number[] = [];
for (let i = 0; i < picked.starts; i++) {
  sandboxTimes.push(await timed(sandbox));
  bareTimes.push(await timed(bareFastify));
}
const median = quantile(sandboxTimes, 0.5);
const bareMedian = quantile(bareTimes, 0.5);
console.log(`in one process: startSandbox() (dist/sandbox/index.js), ${picked.starts} starts after the first:`);
console.log(`  first start of the process ${ms(firstSandbox)} ms; median ${ms(median)} ms, p90 ${ms(quantile(sandboxTimes, 0.9))} ms`);
console.log(`bare fastify (one route, listen, close), same run:`);
console.log(`  first start ${ms(firstBare)} ms; median ${ms(bareMedian)} ms, p90 ${ms(quantile(bareTimes, 0.9))} ms`);
console.log(`sandbox / bare fastify median: ${(median / bareMedian).toFixed(1)}x`);

gc();
const before = process.memoryUsage();
const open = [];
for (let i = 0; i < picked.extra; i++) open.push(await sandbox());
gc();
const after = process.memoryUsage();
const per = (key: 'heapUsed' | 'rss' | 'external') => ((after[key] - before[key]) / picked.extra / MB).toFixed(1);
console.log(
  `memory of each extra open sandbox (${picked.extra} open, after a full GC): heap ${per('heapUsed')} MB, external ${per('external')} MB, RSS ${per('rss')} MB`,
);
for (const s of open) await s.close();
console.log(`load average (1 min) at end: ${load()}`);
