// npm run bench:build [-- --runs <n>]: `npm run build` against `redocly lint` alone, in the same run.
// Each run times both commands as child processes, in alternating order, and the ratio of the medians is
// printed. The build runs with --check: every step of `npm run build`, then a comparison with generated/
// instead of replacing it, so the benchmark never rewrites the working tree.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseCli, runCli, UsageError } from '../lib/cli-args.ts';
import { REDOCLY_BIN, ROOT } from '../lib/paths.ts';

const USAGE = `Usage: npm run bench:build [-- --runs <n>]
  --runs <n>  timed runs of each command (default 5), after one warm-up run of each`;

const COMMANDS = {
  'redocly lint': [REDOCLY_BIN, 'lint'],
  'npm run build': [path.join(ROOT, 'scripts', 'build', 'cli.ts'), '--check'],
} as const;
type Name = keyof typeof COMMANDS;

function time(name: Name): number {
  const started = performance.now();
  const r = spawnSync(process.execPath, [...COMMANDS[name]], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`${name} failed (exit ${r.status}):\n${(r.stdout + r.stderr).trim().split('\n').slice(-5).join('\n')}`);
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<number> {
  const args = parseCli(process.argv.slice(2), { usage: USAGE, options: { runs: { type: 'string' } } });
  if (!args) return 0;
  const runs = Number(args.values.runs ?? 5);
  if (!Number.isInteger(runs) || runs < 1) throw new UsageError(`--runs must be a positive integer, got ${args.values.runs}`);
  const names = Object.keys(COMMANDS) as Name[];
  for (const name of names) time(name); // warm-up: file cache, first compilation
  const times: Record<Name, number[]> = { 'redocly lint': [], 'npm run build': [] };
  for (let i = 0; i < runs; i++) {
    for (const name of i % 2 ? [...names].reverse() : names) times[name].push(time(name));
  }
  for (const name of names) {
    console.log(`${name.padEnd(14)} median ${(median(times[name]) / 1000).toFixed(2)} s  (${times[name].map((t) => (t / 1000).toFixed(2)).join(', ')})`);
  }
  const ratio = median(times['npm run build']) / median(times['redocly lint']);
  console.log(`build / lint: ${ratio.toFixed(2)}x (target: at most 3x)`);
  return 0;
}

await runCli('bench:build', USAGE, main);
