// What the sandbox benchmarks share: the sandbox's command line in a process of its own (compiled, as the
// package's bin runs it, or from source through tsx), configured for load (large balances, instant outcomes, no
// rate limit), with the memory probe preloaded (its `process.memoryUsage()`, after a full GC on request); a
// webhook receiver that answers 200; and one autocannon run with the CPU time the server spent per request.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from '../lib/port-check.ts';
import { ROOT } from '../lib/paths.ts';
import { startSandboxProcess } from '../lib/sandbox-process.ts';
import { cpuMs } from './process-stats.ts';

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
  /** Seconds the run took. */
  duration: number;
}
export type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export type Entry = 'compiled' | 'source';
export const MB = 1024 * 1024;
export const load = (): string => os.loadavg()[0]!.toFixed(2);

export interface BenchSandbox {
  baseUrl: string;
  simulationUrl: string;
  pid: number;
  /** The sandbox process's `process.memoryUsage()`, after a full GC with `afterGc` (scripts/bench/memory-probe.ts answers). */
  memory(afterGc?: boolean): Promise<NodeJS.MemoryUsage>;
  close(): Promise<void>;
}

/** The sandbox's command line in a process of its own, with a config for load (large balances, instant outcomes). */
export async function startBenchSandbox(entry: Entry, extraArgs: string[] = []): Promise<BenchSandbox> {
  if (entry === 'compiled') execFileSync('npm', ['run', '--silent', 'build:lib'], { cwd: ROOT, stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sandbox-'));
  const config = path.join(dir, 'config.json');
  fs.writeFileSync(config, JSON.stringify({ defaults: { opening_balance: 5_000_000, auto_complete_seconds: 0 } }));
  const sandbox = await startSandboxProcess({
    port: await findFreePort(),
    args: ['--no-rate-limit', '--config', config, ...extraArgs],
    entry,
    nodeArgs: ['--expose-gc', '--import', path.join(ROOT, 'scripts/bench/memory-probe.ts')],
    ipc: true,
  });
  const memory = (afterGc = false) =>
    new Promise<NodeJS.MemoryUsage>((resolve) => {
      sandbox.child.once('message', (message) => resolve((message as { memory: NodeJS.MemoryUsage }).memory));
      sandbox.child.send(afterGc ? 'memory-after-gc' : 'memory');
    });
  return {
    baseUrl: sandbox.baseUrl,
    simulationUrl: sandbox.simulationUrl,
    pid: sandbox.child.pid!,
    memory,
    close: async () => {
      await sandbox.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A webhook receiver on 127.0.0.1 that answers 200 and counts what it received. */
export async function startCountingReceiver(): Promise<{ url: string; received: () => number; close(): Promise<void> }> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One autocannon run against a server process; with the CPU time that process spent per request, µs. */
export async function measure(
  pid: number,
  options: Record<string, unknown>,
): Promise<AutocannonResult & { cpuUsPerRequest: number; status5xx: number }> {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon(options);
  const status5xx = Object.entries(result.statusCodeStats ?? {}).reduce(
    (n, [code, { count }]) => (code.startsWith('5') ? n + Number(count) : n),
    0,
  );
  return { ...result, status5xx, cpuUsPerRequest: ((cpuMs(pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total) };
}

/** A partner API client of one key for setting up a benchmark's records: data, or throws with the answer. */
export function partnerCalls(baseUrl: string, key: string) {
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    // biome-ignore lint/suspicious/noExplicitAny: the benchmark reads fields of the answers of many operations
    const json = (await res.json()) as { data: any; pagination?: { total: number } };
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    headers,
    get: (p: string) => call('GET', p),
    post: (p: string, body?: unknown) => call('POST', p, body),
  };
}

/** An account with a webhook endpoint (every event) to `hook`, a customer and an active card loaded with 100,000 USD. */
export async function cardAccount(
  baseUrl: string,
  key: string,
  hook: string,
): Promise<{ card: string; customer: string; endpoint: string }> {
  const api = partnerCalls(baseUrl, key);
  const endpoint = (await api.post('/webhooks', { url: hook, events: ['*'] })).data.code as string;
  const customer = (
    await api.post('/customers', { external_reference: key, first_name: 'Bench', last_name: 'Mark', date_of_birth: '1990-01-01' })
  ).data.customer_code as string;
  const card = (await api.post('/cards', { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 100_000 })).data
    .code as string;
  // Issued at once (auto_complete_seconds 0), by the scheduler's next turn.
  for (let i = 0; i < 100 && (await api.get(`/cards/${card}`)).data.status !== 'active'; i++) await new Promise((r) => setTimeout(r, 20));
  return { card, customer, endpoint };
}
