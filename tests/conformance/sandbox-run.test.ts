// `npm run conformance:sandbox` on a few operations: with the keys and the simulation API it passes to the
// suite (--rate-limited-key, --no-product-key, --simulation-url, --second-key), every documented status is
// provoked through real sandbox state and every check runs, nothing is skipped; and a --simulation-url or
// --checks that is wrong is refused before anything runs.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
// The conformance CLIs run under tsx, as their npm scripts do.
const TSX = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');

function run(command: string[], args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...command, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

describe.concurrent('conformance against the sandbox', () => {
  it('provokes 400, 402, 429, 500, 502, the balance-type 404, 421 and the synchronize 200 through sandbox state', async () => {
    const only = ['createCard', 'withdrawFromCard', 'createPayout', 'getBalance', 'synchronizeKycIdentity', 'listGiftCardProducts'];
    const { code, output } = await run([TSX, 'scripts/conformance/sandbox.ts'], ['--only', only.join(',')]);
    expect(code, output.slice(-4000)).toBe(0);
    expect(output).toMatch(/^\d+ passed, 0 failed, 0 skipped$/m);
    expect(output).toMatch(
      /POST \/cards +200: 1 passed \| 400: 1 passed \| 401: 2 passed \| 402: 1 passed \| 403: 1 passed \| 404: 1 passed \| 422: 1 passed \| 429: 1 passed \| 500: 1 passed \| 502: 1 passed/,
    );
    expect(output).toMatch(/POST \/cards\/\{code\}\/withdraw +200: 1 passed \| 400: 1 passed/);
    expect(output).toMatch(/POST \/payouts +200: 1 passed \| 400: 1 passed/);
    expect(output).toMatch(/GET \/balance\/\{type\} +200: 1 passed .*404: 1 passed/);
    expect(output).toMatch(/POST \/kyc\/\{customerCode\}\/synchronize +200: 1 passed/);
    expect(output).toMatch(/GET \/gift-cards\/products +200: 1 passed .*421: 1 passed/);
    expect(output).toContain('approved_identity_mismatch -> customer restricted for an identity mismatch');
    expect(output).toMatch(/set-up: GET \/balance with --no-product-key -> balance type that --no-product-key does not hold cards_visa/);
    // The checks before Dredd, each run (--second-key included; none of these operations deletes), in the same report.
    const checks = output.slice(output.indexOf('Negative, security and isolation checks (per check):'));
    for (const check of ['invalid input', 'authentication', 'wrong method', 'isolation'])
      expect(checks).toMatch(new RegExp(`^  ${check} +\\d+ passed$`, 'm'));
  });

  it('refuses an unknown --checks value in one line, naming the nearest, with exit code 2', async () => {
    const { code, output } = await run(
      [TSX, 'scripts/conformance/run.ts'],
      ['--server', 'http://127.0.0.1:9/v1', '--api-key', 'sk_test_x', '--checks', 'inputs'],
    );
    expect(code, output).toBe(2);
    expect(output).toContain('conformance: --checks: unknown check inputs (did you mean input?)');
  });

  it('refuses a --simulation-url that is not an http(s) URL, in one line, with exit code 2', async () => {
    const { code, output } = await run(
      [TSX, 'scripts/conformance/run.ts'],
      ['--server', 'http://127.0.0.1:9/v1', '--api-key', 'sk_test_x', '--simulation-url', 'sandbox'],
    );
    expect(code, output).toBe(2);
    expect(output).toContain('conformance: --simulation-url sandbox is not an http:// or https:// URL');
  });

  it('runs the workflows named by --workflow (and no operation), each with its steps and its events verified at the receiver', async () => {
    const { code, output } = await run(
      [TSX, 'scripts/conformance/sandbox.ts'],
      ['--workflow', 'cardFreezeUnfreeze,customerNeedsActiveEndpoint'],
    );
    expect(code, output.slice(-4000)).toBe(0);
    expect(output).toMatch(/^ {2}cardFreezeUnfreeze +passed \(21\/21 steps, 3 events\)$/m);
    expect(output).toMatch(/^ {2}customerNeedsActiveEndpoint +passed \(6\/6 steps, 0 events\)$/m);
    expect(output).not.toMatch(/^Per operation/m);
    // The two workflows, and one result per operation of the simulation API the run called (settings, balances).
    const simulation = Number(/^ {2}simulation API +(\d+) passed$/m.exec(output)?.[1] ?? 0);
    expect(output).toMatch(new RegExp(`^${2 + simulation} passed, 0 failed, 0 skipped$`, 'm'));
  });

  it('refuses an unknown workflow, naming the nearest', async () => {
    const { code, output } = await run(
      [TSX, 'scripts/conformance/run.ts'],
      ['--server', 'http://127.0.0.1:9/v1', '--api-key', 'sk_test_x', '--workflow', 'cardFreezeUnfreez'],
    );
    expect(code, output).toBe(2);
    expect(output).toContain('conformance: --workflow: unknown workflow cardFreezeUnfreez (did you mean cardFreezeUnfreeze?)');
  });
});
