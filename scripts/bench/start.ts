// npm run bench:start [-- --starts 20] [--extra 10]
// How long `startSandbox()` takes in-process, with the package's compiled code (dist/sandbox/index.js, built
// here first with `npm run build:lib`), beside a bare fastify server started and closed the same way in the
// same run; and the memory each extra sandbox holds in one process. Prints the first start of the process
// (which loads and compiles what later starts share), the median and p90 of the next ones, the ratio to the
// bare fastify start, the retained heap and RSS per extra open sandbox (after a full GC), and the load average.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { parseCli, reportCliError, UsageError } from '../lib/cli-args.ts';
import { ROOT } from '../lib/paths.ts';

const USAGE = `Usage: npm run bench:start [-- --starts <n>] [--extra <n>]
  --starts <n>  starts measured after the first (default 20)
  --extra <n>   sandboxes kept open at once to measure the memory of each (default 10)`;

function options(): { starts: number; extra: number } | null {
  try {
    const args = parseCli(process.argv.slice(2), {
      usage: USAGE,
      options: { starts: { type: 'string', default: '20' }, extra: { type: 'string', default: '10' } },
    });
    if (!args) return null;
    const { starts = '20', extra = '10' } = args.values;
    for (const [name, value] of [
      ['starts', starts],
      ['extra', extra],
    ] as const) {
      if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--${name} must be a positive whole number, got "${value}"`);
    }
    return { starts: Number(starts), extra: Number(extra) };
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
type SandboxModule = typeof import('../../src/sandbox/index.ts');
const { startSandbox } = (await import(pathToFileURL(path.join(ROOT, 'dist/sandbox/index.js')).href)) as SandboxModule;

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

const sandbox = () => startSandbox({ port: 0 });

console.log(`load average (1 min) at start: ${load()}; ${os.cpus().length} shared cores; node ${process.version}`);
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
console.log(`startSandbox() (dist/sandbox/index.js), ${picked.starts} starts after the first:`);
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
