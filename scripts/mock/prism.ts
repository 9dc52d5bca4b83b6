// Runs the Prism mock server (`prism mock <spec> -p <port> -h <host>`) as a child process of the current
// Node, waits until it listens, and stops it (SIGTERM, then SIGKILL after a grace period).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../lib/paths.ts';

/** Prism's CLI entry point (the `prism` bin of @stoplight/prism-cli). */
export const PRISM_BIN = path.join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

export interface PrismOptions {
  /** The OpenAPI document to serve (a bundle: generated/openapi.json). */
  spec: string;
  port: number;
  host?: string;
  /**
   * Where Prism's request log goes once it listens: 'inherit' prints it (npm start), 'ignore' keeps it
   * only in `log()` (tests). The start-up route list is never printed, only kept.
   */
  output?: 'inherit' | 'ignore';
  /** How long to wait for "Prism is listening", in ms. Default 60 s. */
  timeoutMs?: number;
}

export interface PrismServer {
  /** http://<host>:<port>, with no trailing slash. Prism serves the paths at the root (no /v1). */
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code (or signal name) when Prism exits, for whatever reason. */
  exited: Promise<number | string>;
  /** Everything Prism printed so far (ANSI colours removed). */
  log(): string;
  /** Stops Prism: SIGTERM, then SIGKILL after `graceMs` (default 3 s). Safe to call twice. */
  stop(graceMs?: number): Promise<void>;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the ANSI colour codes Prism prints, which this removes.
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * Prism's mode, given in full so that no environment variable chooses it: its `--multiprocess` defaults to
 * `NODE_ENV === 'production'`, and the docs build (Astro) sets NODE_ENV=production in the process that starts
 * Prism next; forked that way, Prism 5.16 exits with `Cannot read properties of undefined (reading 'isPrimary')`.
 */
export const PRISM_MODE = ['--multiprocess=false', '--dynamic=false', '--errors=false'];

/**
 * The line of Prism's output that says why it stopped: a thrown error (`TypeError: ...`), else its own fatal or
 * error log line, else its last line. (On a crash it also prints its whole usage, which names no cause.)
 */
export function prismFailure(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return (
    lines.find((line) => /^[A-Z]\w*Error\b/.test(line)) ??
    lines.find((line) => /\b(fatal|error)\b/.test(line) && !line.startsWith('-')) ??
    lines.at(-1) ??
    'no output'
  );
}

/** Starts Prism and resolves once it listens. Rejects (and kills it) when it exits or times out first. */
export function startPrism(options: PrismOptions): Promise<PrismServer> {
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host}:${options.port}`;
  const child = spawn(process.execPath, [PRISM_BIN, 'mock', options.spec, '-p', String(options.port), '-h', host, ...PRISM_MODE], {
    cwd: ROOT,
    env: { ...process.env, SCARF_ANALYTICS: 'false', FORCE_COLOR: '0', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let buffer = '';
  let listening = false;
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const onOutput = (chunk: Buffer) => {
    const text = chunk.toString().replace(ANSI, '');
    buffer += text;
    if (listening && options.output === 'inherit') process.stdout.write(text);
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);

  const stop = async (graceMs = 3000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };

  return new Promise((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const timer = setTimeout(() => {
      void stop().then(() => reject(new Error(`Prism did not start within ${timeoutMs / 1000} s: ${prismFailure(buffer)}`)));
    }, timeoutMs);
    const check = () => {
      if (!listening && buffer.includes('Prism is listening')) {
        listening = true;
        clearTimeout(timer);
        resolve({ url, child, exited, log: () => buffer, stop });
      }
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then((code) => {
      if (listening) return;
      clearTimeout(timer);
      reject(new Error(`Prism exited (${code}) before it listened on ${url}: ${prismFailure(buffer)}`));
    });
  });
}
