// The sandbox's bin with `--fixtures FILE`: the records of the file are made for the --seed-key account before it
// listens, and their codes printed in one line; a fixture the sandbox refuses stops the start in one line naming
// the field, exit 1.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from './support.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-fixtures-'));
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the bin until it prints `until` (then stops it with SIGTERM) or exits; its output and exit code. */
function run(args: string[], until: RegExp): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGTERM'), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (until.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    });
  });
}

describe('partner-api-sandbox --fixtures FILE', () => {
  it('makes the records of the file for the --seed-key account and prints their codes', async () => {
    const file = path.join(dir, 'fixture.json');
    const fixture = {
      webhook_endpoints: { hooks: { url: receiver.url, events: ['*'] } },
      customers: { amina: { kyc: { outcome: 'approved' } } },
      cards: { visa: { customer: 'amina', brand: 'VISA', balance: 42 } },
    };
    fs.writeFileSync(file, JSON.stringify(fixture));
    const { stdout, stderr } = await run(['--fixtures', file, '--seed-key', 'sk_test_fixture_bin'], /are made for .*\n/);
    const line = stdout.split('\n').find((l) => l.startsWith(`The records of ${file} are made for sk_test_fixture_bin: `));
    expect(line, `${stdout}\n${stderr}`).toBeDefined();
    const loaded = JSON.parse(line!.slice(line!.indexOf(': ') + 2)) as { codes: Record<string, string>; secrets: Record<string, string> };
    expect(Object.keys(loaded.codes).sort()).toEqual(['amina', 'hooks', 'visa']);
    expect(loaded.secrets.hooks).toMatch(/^whsec_/);
    expect(receiver.pings).toBeGreaterThan(0);
  }, 90_000);

  it('refuses to start with a fixture the sandbox refuses, in one line naming the field, exit 1', async () => {
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, JSON.stringify({ cards: { visa: { customer: 'amina', brand: 'VISA', balance: 42 } } }));
    const { stderr, code } = await run(['--fixtures', file], /Sandbox of the partner API on/);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^partner-api-sandbox: the fixture of sk_test_sandbox was refused: .*cards\.visa\.customer/);
  }, 90_000);

  it('names the file it cannot read, exit 1', async () => {
    const { stderr, code } = await run(['--fixtures', path.join(dir, 'missing.json')], /Sandbox of the partner API on/);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^partner-api-sandbox: --fixtures .*missing\.json: ENOENT/);
  }, 90_000);
});
