// `npm run mock` and `npm start` as processes: a port in use is one clear sentence and a non-zero exit
// (nothing spawned); Ctrl-C (SIGINT) stops every child and exits 0, releasing the ports.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSite, SITE_DIR } from '../../scripts/docs/site.ts';
import { assertPortFree, findFreePort } from '../../scripts/lib/port-check.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];

function run(script: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const output = () => out;
  const waitFor = async (text: string, ms = 60_000) => {
    const until = Date.now() + ms;
    while (!out.includes(text)) {
      if (Date.now() > until || child.exitCode !== null) throw new Error(`"${text}" not printed. Output:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { child, exited, output, waitFor };
}

/** Holds a port on 127.0.0.1 until closed. */
async function occupy(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Three different free ports. */
async function threeFreePorts(): Promise<[number, number, number]> {
  const ports = new Set<number>();
  while (ports.size < 3) ports.add(await findFreePort());
  return [...ports] as [number, number, number];
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe.skipIf(!fs.existsSync(path.join(ROOT, 'generated', 'openapi.json')))('mock and start processes', () => {
  it('npm run mock: a port in use gets a clear message and exit 1', async () => {
    const busy = await occupy();
    try {
      const mock = run('scripts/mock/cli.ts', [], { MOCK_PORT: String(busy.port) });
      expect(await mock.exited).toBe(1);
      expect(mock.output()).toContain(`port ${busy.port} on 127.0.0.1 is already in use; set MOCK_PORT=<port>`);
      expect(mock.output()).not.toMatch(/\n\s+at /);
    } finally {
      await busy.close();
    }
  });

  it('npm start: a sandbox port in use is reported before the build, exit 1', async () => {
    const busy = await occupy();
    try {
      const [mockPort, docsPort] = await threeFreePorts();
      const start = run('scripts/start/cli.ts', ['--mock-port', String(mockPort), '--sandbox-port', String(busy.port)], {
        DOCS_PORT: String(docsPort),
      });
      expect(await start.exited).toBe(1);
      expect(start.output()).toContain(`port ${busy.port} on 127.0.0.1 is already in use; set SANDBOX_PORT=<port>`);
      expect(start.output()).not.toContain('Linting');
    } finally {
      await busy.close();
    }
  });

  it('npm start: a docs port in use is reported before the build, exit 1', async () => {
    const busy = await occupy();
    try {
      const start = run('scripts/start/cli.ts', ['--mock-port', String(await findFreePort())], { DOCS_PORT: String(busy.port) });
      expect(await start.exited).toBe(1);
      expect(start.output()).toContain(`port ${busy.port} on 127.0.0.1 is already in use; set DOCS_PORT=<port>`);
      expect(start.output()).not.toContain('Linting');
    } finally {
      await busy.close();
    }
  });

  it('npm run mock: prints both base addresses and a curl at /v1; SIGINT stops it and exits 0', async () => {
    const port = await findFreePort();
    const mock = run('scripts/mock/cli.ts', ['--port', String(port)]);
    await mock.waitFor('Press Ctrl-C');
    expect(mock.output()).toContain(`http://127.0.0.1:${port}/v1 `);
    expect(mock.output()).toContain(`http://127.0.0.1:${port}/api/v1 `);
    expect(mock.output()).toContain(`curl -X POST 'http://127.0.0.1:${port}/v1/cards/`);
    expect(mock.output()).toContain('Authorization: Bearer sk_test_');
    const res = await fetch(`http://127.0.0.1:${port}/v1/balance`, { headers: { Authorization: 'Bearer sk_test_x' } });
    expect(res.status).toBe(200);
    mock.child.kill('SIGINT');
    expect(await mock.exited).toBe(0);
    await expect(assertPortFree('127.0.0.1', port, '')).resolves.toBeUndefined();
  });

  it('npm start --skip-build: serves the sandbox, mock and docs, prints their addresses and a key that works; SIGINT stops all and exits 0', async () => {
    // site/ is gitignored build output: build it when absent (about 3 s).
    if (!fs.existsSync(path.join(SITE_DIR, 'index.html'))) await buildSite();
    const [mockPort, docsPort, sandboxPort] = await threeFreePorts();
    const start = run('scripts/start/cli.ts', ['--skip-build', '--mock-port', String(mockPort)], {
      DOCS_PORT: String(docsPort),
      SANDBOX_PORT: String(sandboxPort),
    });
    await start.waitFor('Press Ctrl-C');
    expect(start.output()).toContain(`http://127.0.0.1:${mockPort}/v1`);
    expect(start.output()).toContain(`http://127.0.0.1:${docsPort}/`);
    expect((await fetch(`http://127.0.0.1:${docsPort}/`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${docsPort}/asyncapi.html`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${mockPort}/v1/balance`, { headers: { Authorization: 'Bearer sk_test_x' } })).status).toBe(200);
    // The sandbox: its address and a key to paste, which works as printed (a funded account of its own).
    const banner = /Sandbox\s+(http:\/\/127\.0\.0\.1:\d+\/v1)[\s\S]*?key to paste\s+(sk_test_\w+)/.exec(start.output());
    expect(banner?.[1]).toBe(`http://127.0.0.1:${sandboxPort}/v1`);
    const balances = await fetch(`${banner![1]}/balance`, { headers: { Authorization: `Bearer ${banner![2]}` } });
    expect(balances.status).toBe(200);
    expect(((await balances.json()) as { data: { balance: number }[] }).data).toHaveLength(5);
    // That key holds the contract's example records, which the reference's code samples use.
    const cards = await fetch(`${banner![1]}/cards`, { headers: { Authorization: `Bearer ${banner![2]}` } });
    expect(((await cards.json()) as { data: { code: string }[] }).data.map((c) => c.code)).toContain(
      '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    );
    start.child.kill('SIGINT');
    expect(await start.exited).toBe(0);
    await assertPortFree('127.0.0.1', mockPort, '');
    await assertPortFree('127.0.0.1', docsPort, '');
    await assertPortFree('127.0.0.1', sandboxPort, '');
  });
});
