// What the journeys share: a clean clone, a user's terminal environment, commands run through bash as typed, a
// command left running in the background (stopped with Ctrl-C, as a terminal sends it), and each journey's time.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** A fresh clone of this repository's HEAD (what CI and a new user get: committed files only). */
export function cleanClone(): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'journey-'));
  const dir = path.join(parent, 'contract');
  const cloned = spawnSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, dir], { encoding: 'utf8' });
  if (cloned.status !== 0) throw new Error(`git clone failed: ${cloned.stderr}`);
  return dir;
}

/**
 * Removes a journey's folder (a clone's, with its node_modules) in a detached `rm -rf` that outlives the test run:
 * removing some 600 packages in the test's own process held vitest's shutdown past its time-out.
 */
export function removeLater(dir: string): void {
  spawn('rm', ['-rf', dir], { detached: true, stdio: 'ignore' }).unref();
}

/**
 * The environment of a user's terminal: none of npm's or vitest's variables, no node_modules/.bin on PATH (so
 * `node` is the machine's own), and NODE_ENV as the user has it (unset unless the caller sets it).
 */
export function userEnv(overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|VITEST|NODE_ENV$|NODE_OPTIONS$|TSX_)/i.test(k)));
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((p) => !p.includes(`node_modules${path.sep}.bin`) && !p.includes(`node_modules${path.sep}node${path.sep}bin`))
    .join(path.delimiter);
  return { ...env, ...overrides };
}

export interface Ran {
  code: number | null;
  /** stdout and stderr, interleaved as printed. */
  output: string;
}

/** Runs `command` with bash, as typed in a terminal. With `check`, a non-zero exit throws with the output. */
export function sh(command: string, options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; check?: boolean }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], {
      cwd: options.cwd,
      env: options.env ?? userEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c));
    child.stderr.on('data', (c: Buffer) => (output += c));
    const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), options.timeoutMs ?? 300_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      if (options.check && code !== 0) reject(new Error(`\`${command}\` exited ${code} in ${options.cwd}:\n${output.slice(-4000)}`));
      else resolve({ code, output });
    });
  });
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

export interface Background {
  pid: number;
  output(): string;
  /** Resolves once the output matches; rejects with the output when it exits first or `ms` pass. */
  waitFor(pattern: string | RegExp, ms?: number): Promise<void>;
  /** Ctrl-C: SIGINT to the whole process group, as a terminal sends it to the foreground job. */
  interrupt(): void;
  /** SIGKILL to the group (clean-up after a failed journey). */
  kill(): void;
  /** The command's own exit (bash's), which does not wait for processes it left behind. */
  exited: Promise<number | null>;
  /** Every holder of its output has closed it: what it left behind has exited too. */
  closed: Promise<void>;
}

/** Starts `command` with bash in a process group of its own, as a terminal's foreground job. */
export function background(command: string, options: { cwd: string; env?: NodeJS.ProcessEnv }): Background {
  const child = spawn('bash', ['-c', command], {
    cwd: options.cwd,
    env: options.env ?? userEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  child.stdout.on('data', (c: Buffer) => (output += c));
  child.stderr.on('data', (c: Buffer) => (output += c));
  const matches = (pattern: string | RegExp) => (typeof pattern === 'string' ? output.includes(pattern) : pattern.test(output));
  return {
    pid: child.pid!,
    output: () => output,
    async waitFor(pattern, ms = 180_000) {
      const deadline = Date.now() + ms;
      while (!matches(pattern)) {
        if (exitCode !== undefined)
          throw new Error(`\`${command}\` exited ${exitCode} before printing ${pattern}:\n${output.slice(-4000)}`);
        if (Date.now() > deadline)
          throw new Error(`\`${command}\` did not print ${pattern} within ${ms / 1000} s:\n${output.slice(-4000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    interrupt: () => killGroup(child.pid, 'SIGINT'),
    kill: () => killGroup(child.pid, 'SIGKILL'),
    exited,
    closed,
  };
}

/** The processes of the group `pgid` that still run (zombies waiting to be reaped aside), as `pid args` lines. */
export function liveProcesses(pgid: number): string[] {
  const ps = spawnSync('ps', ['-e', '-o', 'pgid=,pid=,stat=,args='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([group, , stat]) => Number(group) === pgid && stat !== undefined && !stat.startsWith('Z'))
    .map(([, pid, , ...args]) => `${pid} ${args.join(' ')}`);
}

/** True when something accepts connections on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Runs `step`, then prints `journey: <name> <seconds> s`. */
export async function timed<T>(name: string, step: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await step();
  } finally {
    console.log(`journey: ${name} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** A journey: a vitest test whose time is printed under its name. */
export function journey(name: string, body: () => Promise<void>, timeoutMs = 600_000): void {
  it(name, () => timed(name, body), timeoutMs);
}
