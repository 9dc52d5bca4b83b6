// npm run bench:build [-- --runs <n>]: `npm run build` against `redocly lint` alone, in the same run.
// Each run times the commands as child processes, in rotating order, and prints the ratios of the medians,
// in wall time and in CPU time (the machine is shared: CPU time does not depend on what else runs).
// The build runs with --check: every step of `npm run build`, then a comparison with generated/ instead
// of replacing it, so the benchmark never rewrites the working tree. It is timed twice:
//   cold  CONTRACT_BUILD_CACHE=off: every step runs (a first build, or a change to both documents);
//   warm  the cache of the slow steps holds the bundles (an unchanged document is not validated again).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseCli, runCli, UsageError } from '../lib/cli-parser.ts';
import { REDOCLY_BIN, ROOT } from '../lib/paths.ts';

const USAGE = `Usage: npm run bench:build [-- --runs <n>]
  --runs <n>  timed runs of each command (default 5), after one warm-up run of each`;

const BUILD = [path.join(ROOT, 'scripts', 'build', 'cli.ts'), '--check'];
const COMMANDS = {
  'redocly lint': { args: [REDOCLY_BIN, 'lint'], env: {} },
  'build, cold': { args: BUILD, env: { CONTRACT_BUILD_CACHE: 'off' } },
  'build, warm': { args: BUILD, env: {} },
} as const;
type Name = keyof typeof COMMANDS;

/** CPU seconds used by this process's finished children (Linux /proc; 0 elsewhere). */
function childCpu(): number {
  try {
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in clock ticks of 1/100 s
  } catch {
    return 0;
  }
}

interface Sample {
  wall: number;
  cpu: number;
}

function time(name: Name): Sample {
  const cpuBefore = childCpu();
  const started = performance.now();
  const r = spawnSync(process.execPath, [...COMMANDS[name].args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1', ...COMMANDS[name].env },
  });
  const wall = (performance.now() - started) / 1000;
  if (r.status !== 0)
    throw new Error(`${name} failed (exit ${r.status}):\n${(r.stdout + r.stderr).trim().split('\n').slice(-5).join('\n')}`);
  return { wall, cpu: childCpu() - cpuBefore };
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
  for (const name of names) time(name); // warm-up: file cache, and the build cache for the warm runs
  const samples: Record<Name, Sample[]> = { 'redocly lint': [], 'build, cold': [], 'build, warm': [] };
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length]!;
      samples[name].push(time(name));
    }
  }
  const wall = (n: Name) => median(samples[n].map((s) => s.wall));
  const cpu = (n: Name) => median(samples[n].map((s) => s.cpu));
  for (const name of names) {
    console.log(
      `${name.padEnd(12)} wall median ${wall(name).toFixed(2)} s (${samples[name].map((s) => s.wall.toFixed(2)).join(', ')}); CPU median ${cpu(name).toFixed(2)} s`,
    );
  }
  for (const build of ['build, cold', 'build, warm'] as const) {
    console.log(
      `${build} / lint: ${(wall(build) / wall('redocly lint')).toFixed(2)}x wall time (target: at most 3x), ${(cpu(build) / cpu('redocly lint')).toFixed(2)}x CPU time`,
    );
  }
  return 0;
}

await runCli('bench:build', USAGE, main);
