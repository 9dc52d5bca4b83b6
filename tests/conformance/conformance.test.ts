// The conformance suite (scripts/conformance/run.ts, Dredd + strict hooks) against small servers that
// answer from the contract's examples: it must pass against the correct one, in mock and in real mode, and
// fail against each deliberately broken one, naming the problem.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../scripts/lib/port-check.ts';
import { API_KEY, defaultSpec, startExampleServer, type ExampleServer, type Mutation } from './broken-servers/example-server.ts';
import * as errorOutsideEnvelope from './broken-servers/error-outside-envelope.ts';
import * as leakedField from './broken-servers/leaked-field.ts';
import * as missingField from './broken-servers/missing-field.ts';
import * as undocumentedStatus from './broken-servers/undocumented-status.ts';
import * as unknownEnum from './broken-servers/unknown-enum.ts';
import * as wrongType from './broken-servers/wrong-type.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RUNNER = path.join(ROOT, 'scripts', 'conformance', 'run.ts');
// run.ts verifies webhook deliveries with src/webhooks, whose imports need tsx, as `npm run conformance` uses.
const TSX = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const spec = defaultSpec();

interface Run {
  code: number;
  output: string;
  passed: number;
  failed: number;
  skipped: number;
}

/** The suite's Dredd run (the checks before it have their own tests, checks.test.ts, against the sandbox). */
function runSuite(server: string, ...extra: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const checks = extra.includes('--checks') ? [] : ['--checks', 'none'];
    const child = spawn(process.execPath, [TSX, RUNNER, '--server', server, '--api-key', API_KEY, '--spec', spec, ...checks, ...extra], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = output.trim().split('\n').at(-1) ?? '';
      const m = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/.exec(last);
      resolve({
        code: code ?? 1,
        output,
        passed: m ? Number(m[1]) : -1,
        failed: m ? Number(m[2]) : -1,
        skipped: m ? Number(m[3] ?? 0) : -1,
      });
    });
  });
}

const servers: ExampleServer[] = [];
async function serve(mutate?: Mutation): Promise<string> {
  const server = await startExampleServer({ spec, mutate });
  servers.push(server);
  return server.url;
}

describe.skipIf(!existsSync(spec)).concurrent('conformance suite', () => {
  beforeAll(() => {
    expect(existsSync(RUNNER)).toBe(true);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('passes against a server that answers as the contract says, detected as the mock (Prefer: code=...)', async () => {
    const run = await runSuite(await serve());
    expect(run.output).toContain('honours Prefer: code=... -> mock mode');
    expect(run.output).toMatch(/Coverage: (\d+)\/\1 operations and (\d+)\/\2 documented statuses exercised/);
    expect(run.failed, run.output).toBe(0);
    expect(run.skipped).toBe(0);
    expect(run.passed).toBeGreaterThan(300);
    expect(run.code).toBe(0);
    expect(run.output).not.toContain('WARNING');
    expect(run.output).toMatch(/^0 undocumented fields \(warnings\)/m);
  });

  it('passes in real mode: sets up state, provokes 401/404/422 and skips the rest with reasons', async () => {
    // The example server keeps no state, so it cannot pass the workflows: the operations only.
    const run = await runSuite(await serve(), '--real', '--no-workflows');
    expect(run.failed, run.output).toBe(0);
    expect(run.code).toBe(0);
    // The suite creates its own records, never adopting one it did not make (the example server answers each
    // creation with the contract's example record).
    expect(run.output).toMatch(/set-up: POST \/cards -> card 7c9e6679-7425-40de-944b-e07fc1f90ae7/);
    expect(run.output).not.toMatch(/the contract's example|existing/);
    // Customers in the states KYC and proof of address need are created.
    expect(run.output).toMatch(/set-up: POST \/customers -> customer whose verification is open/);
    expect(run.output).toMatch(
      /set-up: POST \/kyc\/\{customerCode\}\/link -> customer whose KYC is approved and proof of address open .* \(verified\)/,
    );
    expect(run.output).toMatch(
      /GET \/cards\/\{code\} +200: 1 passed \| 401: 2 passed \| 402: 1 skipped \| 403: 1 skipped \| 404: 1 passed \| 422: 1 passed/,
    );
    expect(run.output).toContain('RATE_LIMIT_EXCEEDED needs more requests than the key allows');
    expect(run.skipped).toBeGreaterThan(0);
    // A resource under another one: the top-up is made on the suite's card.
    expect(run.output).toMatch(/set-up: POST \/cards\/\{code\}\/topup -> card top-up 6b8d0f2a-4c6e-4a8b-9d0f-2a4c6e8a0b1d/);
    expect(run.output).toMatch(
      /GET \/cards\/\{code\}\/topups\/\{topupId\} +200: 1 passed \| 401: 2 passed .*404: 1 passed \| 422: 1 passed/,
    );
  });

  it('passes in real mode with the gift card address: finds a product in the catalogue and provokes a 404 with an unknown product id', async () => {
    const url = await serve();
    const run = await runSuite(url, '--real', '--alt-server', url, '--no-workflows', '--only', '/gift-cards/products/{productId}');
    expect(run.failed, run.output).toBe(0);
    // The catalogue is the service's: a product is found in it, not created.
    expect(run.output).toMatch(/set-up: GET \/gift-cards\/products -> gift card product gcp_\w+/);
    expect(run.output).toMatch(
      /GET \/gift-cards\/products\/\{productId\} +200: 1 passed \| 401: 2 passed .*404: 1 passed \| 421: 1 skipped \| 422: 1 passed/,
    );
  });

  const broken: [string, { mutate: Mutation; problem: { operation: string; pointer: string; message: string } }][] = [
    ['a wrong type', wrongType],
    ['a missing field', missingField],
    ['an unknown enum value', unknownEnum],
    ['an undocumented status', undocumentedStatus],
    ['an error outside the envelope', errorOutsideEnvelope],
  ];
  // Each broken server breaks one operation; the suite runs on that operation alone (the first two runs check
  // every operation of the correct server), so a failure can only come from the break.
  const only = (operation: string) => ['--only', operation.split(' ')[1]!];
  for (const [what, server] of broken) {
    it(`fails against a server answering ${what}, naming the problem`, async () => {
      const run = await runSuite(await serve(server.mutate), '--mock', ...only(server.problem.operation));
      expect(run.code, run.output).not.toBe(0);
      expect(run.failed).toBeGreaterThan(0);
      const failures = run.output.slice(run.output.indexOf('Failures:'));
      expect(failures).toContain(`${server.problem.operation} `);
      expect(failures).toContain(server.problem.pointer);
      expect(failures).toContain(server.problem.message);
    });
  }

  it('passes against a server that leaks an undocumented field, with a warning that names it', async () => {
    const run = await runSuite(await serve(leakedField.mutate), '--mock', ...only(leakedField.problem.operation));
    expect(run.failed, run.output).toBe(0);
    expect(run.code).toBe(0);
    const { operation, status, pointer } = leakedField.problem;
    expect(run.output).toContain(`WARNING ${operation} ${status}: undocumented field ${pointer}`);
    expect(run.output).toMatch(/^1 undocumented field \(warning\)/m);
  });

  it('fails in real mode too: a provoked 404 outside the envelope', async () => {
    const run = await runSuite(
      await serve(errorOutsideEnvelope.mutate),
      '--real',
      '--no-workflows',
      ...only(errorOutsideEnvelope.problem.operation),
    );
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toMatch(/GET \/cards\/\{code\} 404[^\n]*\n\s+\/success: is required but missing/);
  });

  it('says in one line that the server cannot be reached, exits 2, and runs nothing', async () => {
    const port = await findFreePort('127.0.0.1'); // nothing listens there
    const run = await runSuite(`http://127.0.0.1:${port}`, '--mock');
    expect(run.code, run.output).toBe(2);
    expect(run.output).toBe(`conformance: cannot reach http://127.0.0.1:${port} (ECONNREFUSED): is the server running?\n`);
  });

  it('--only checks the operations named, by operationId or path, and no other', async () => {
    const run = await runSuite(await serve(), '--real', '--only', 'listCards', '--only', '/cards/{code}/freeze');
    expect(run.code, run.output.slice(-3000)).toBe(0);
    const operations = run.output
      .split('\n')
      .filter((l) => /^ {2}(GET|POST|PUT|PATCH|DELETE) \//.test(l))
      .map((l) => l.trim().split(/\s{2,}/)[0]);
    expect(operations).toEqual(['GET /cards', 'POST /cards/{code}/freeze']);
    expect(run.passed).toBeGreaterThan(0);
  });
});
