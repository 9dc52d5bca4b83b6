// The README's quick start, as a new user runs it: `npm ci && npm start` in a fresh clone, with no flag and the
// environment of a terminal; the three servers answer at the addresses the banner prints, the printed key works,
// and Ctrl-C stops all three and leaves nothing running. Then the ways it can fail: a server that cannot start
// stops the others, and `npm start` exits non-zero with one line naming the failure; and `npm run mock` starts
// whatever NODE_ENV says.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, inject } from 'vitest';
import { DEFAULT_DOCS_PORT, DEFAULT_MOCK_PORT } from '../../scripts/lib/dev-servers.ts';
import { DEFAULT_SANDBOX_PORT } from '../../scripts/lib/sandbox-process.ts';
import { background, cleanClone, journey, listening, liveProcesses, removeLater, ROOT, userEnv, type Background } from './support.ts';

/** The README's first command, as printed. */
const QUICK_START = /```sh\n(npm ci && npm start)\n/.exec(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'))?.[1];

let running: Background | undefined;
afterEach(() => running?.kill());

/** Waits for the command to exit, then checks that it left no process running. */
async function exitsLeavingNothing(job: Background): Promise<number | null> {
  const code = await job.exited;
  expect(liveProcesses(job.pid), 'processes left running when the command exited').toEqual([]);
  await job.closed;
  return code;
}

async function assertFree(...ports: number[]): Promise<void> {
  for (const port of ports) {
    if (await listening(port)) throw new Error(`port ${port} is in use before the journey: stop what listens there`);
  }
}

describe('npm start', () => {
  journey('README quick start: `npm ci && npm start` in a fresh clone, then Ctrl-C', async () => {
    expect(QUICK_START, 'the README shows `npm ci && npm start` in its first sh block').toBe('npm ci && npm start');
    const ports = [DEFAULT_SANDBOX_PORT, DEFAULT_MOCK_PORT, DEFAULT_DOCS_PORT];
    await assertFree(...ports);
    const clone = cleanClone();
    running = background(QUICK_START!, { cwd: clone });
    await running.waitFor('Press Ctrl-C', 300_000);
    const banner = running.output();

    const sandbox = /Sandbox\s+(http:\/\/127\.0\.0\.1:\d+\/v1)[\s\S]*?key to paste\s+(sk_test_\w+)/.exec(banner);
    expect(sandbox?.[1]).toBe(`http://127.0.0.1:${DEFAULT_SANDBOX_PORT}/v1`);
    const balances = await fetch(`${sandbox![1]}/balance`, { headers: { Authorization: `Bearer ${sandbox![2]}` } });
    expect(balances.status).toBe(200);
    expect(((await balances.json()) as { success: boolean }).success).toBe(true);

    const mock = /Mock API\s+(http:\/\/\S+\/v1)/.exec(banner)?.[1];
    expect(mock).toBe(`http://127.0.0.1:${DEFAULT_MOCK_PORT}/v1`);
    expect((await fetch(`${mock}/balance`, { headers: { Authorization: `Bearer ${sandbox![2]}` } })).status).toBe(200);

    const docs = /Docs\s+(http:\/\/\S+\/)/.exec(banner)?.[1];
    expect(docs).toBe(`http://127.0.0.1:${DEFAULT_DOCS_PORT}/`);
    for (const page of ['', 'reference/']) expect((await fetch(`${docs}${page}`)).status, `${docs}${page}`).toBe(200);

    running.interrupt();
    await exitsLeavingNothing(running);
    for (const port of ports) expect(await listening(port), `port ${port} after Ctrl-C`).toBe(false);
    expect(running.output()).not.toMatch(/\bError\b|exited unexpectedly/);
    removeLater(path.dirname(clone));
  });

  journey('a server that cannot start stops the others; npm start exits non-zero with one line', async () => {
    // Ports of their own, below the ephemeral range; the sandbox's is taken once the build is done, after
    // npm start checked it, so that the mock and the docs start and the sandbox fails.
    const [sandboxPort, mockPort, docsPort] = [4120, 4110, 8180];
    await assertFree(sandboxPort, mockPort, docsPort);
    running = background('npm start', {
      cwd: inject('clone'),
      env: userEnv({ SANDBOX_PORT: String(sandboxPort), MOCK_PORT: String(mockPort), DOCS_PORT: String(docsPort) }),
    });
    await running.waitFor('Docs site built', 300_000);
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(sandboxPort, '127.0.0.1', resolve));
    try {
      expect(await exitsLeavingNothing(running)).not.toBe(0);
      expect(await listening(mockPort), 'the mock after the failure').toBe(false);
      expect(await listening(docsPort), 'the docs after the failure').toBe(false);
      const lines = running
        .output()
        .split('\n')
        .filter((line) => line.startsWith('start: '));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`sandbox.*${sandboxPort}.*in use`));
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  journey('npm run mock starts under NODE_ENV=production too', async () => {
    const port = 4111;
    await assertFree(port);
    running = background('npm run mock', { cwd: inject('clone'), env: userEnv({ NODE_ENV: 'production', MOCK_PORT: String(port) }) });
    await running.waitFor('Press Ctrl-C', 120_000);
    expect((await fetch(`http://127.0.0.1:${port}/v1/balance`, { headers: { Authorization: 'Bearer sk_test_x' } })).status).toBe(200);
    running.interrupt();
    await exitsLeavingNothing(running);
    expect(await listening(port)).toBe(false);
  });
});
