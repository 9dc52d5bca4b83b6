// Every CLI fails in one line: a mistake on the command line names itself, then the usage, exit 2, and no
// stack trace; a server or receiver that cannot be reached is said once.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closest, parseCli, UsageError } from '../../scripts/lib/cli-parser.ts';
import { TOOL as SANDBOX_BIN } from '../../src/sandbox/sandbox-flags.ts';
import { TOOL as MCP_BIN } from '../../src/mcp/mcp-flags.ts';
import { TOOL as TRIGGER_BIN } from '../../src/trigger/trigger-flags.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import { listValues, selectOperations } from '../../scripts/conformance/select.ts';
import type { OpenApiBundle } from '../../scripts/conformance/validate-response.ts';

const TSX = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const ENTRY: Record<string, string[]> = {
  build: ['scripts/build/cli.ts'],
  diff: ['scripts/diff/cli.ts'],
  conformance: [TSX, 'scripts/conformance/run.ts'],
  'conformance:mock': [TSX, 'scripts/conformance/mock.ts'],
  trigger: [TSX, 'src/trigger/cli.ts'],
  mock: ['scripts/mock/cli.ts'],
  start: ['scripts/start/cli.ts'],
  docs: ['scripts/docs/cli.ts'],
  lint: ['scripts/lint/cli.ts'],
  'bench:sandbox': [TSX, 'scripts/bench/sandbox.ts'],
  sandbox: [TSX, 'src/sandbox/cli.ts'],
  mcp: [TSX, 'src/mcp/cli.ts'],
};
/** The name a tool's lines start with, where it is not the tool's own. */
const PREFIX: Record<string, string> = { diff: 'contract diff', sandbox: SANDBOX_BIN, trigger: TRIGGER_BIN, mcp: MCP_BIN };

function run(tool: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...ENTRY[tool]!, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A 127.0.0.1 port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function expectUsageError(r: { code: number | null; stdout: string; stderr: string }, tool: string, line: string): void {
  expect(r.code).toBe(2);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines[0]).toBe(`${tool}: ${line}`);
  expect(lines[1]).toMatch(/^Usage: /);
  expect(r.stderr).not.toMatch(/\n\s+at |Error:|node:internal/);
}

describe.concurrent('an unknown flag or a missing argument: one line naming it, the usage, exit 2', () => {
  it.each([
    ['build', ['--chek'], 'unknown option --chek (did you mean --check?)'],
    ['diff', ['--bogus'], 'unknown option --bogus'],
    ['diff', ['--format'], '--format needs a value'],
    ['diff', ['--format', 'xml'], 'unknown --format xml (expected text, markdown, json, changelog)'],
    ['diff', ['main', 'HEAD'], 'too many arguments: HEAD (at most 1 base-ref)'],
    ['conformance', ['--only', '/cards'], 'missing --server and --api-key'],
    ['conformance', ['--server', 'http://127.0.0.1:1'], 'missing --api-key'],
    ['conformance', ['--server', 'localhost', '--api-key', 'k'], '--server localhost is not an http:// or https:// URL'],
    [
      'conformance',
      ['--server', 'http://127.0.0.1:1', '--api-key', 'k', '--only', 'listCardz'],
      '--only: unknown operation or path listCardz (did you mean listCards?); give operationIds (listCards) or paths (/cards)',
    ],
    ['conformance:mock', ['--bogus'], 'unknown option --bogus'],
    ['trigger', ['--bogus'], 'unknown option --bogus'],
    ['trigger', ['--url', 'http://127.0.0.1:1/', '--secret', 'whsec_x'], 'missing the event type: give exactly one event type (or --all)'],
    ['mock', ['--prot', '4010'], 'unknown option --prot (did you mean --port?)'],
    ['mock', ['--port'], '--port needs a value'],
    ['start', ['--skip-bild'], 'unknown option --skip-bild (did you mean --skip-build?)'],
    ['docs', ['--ot', 'x'], 'unknown option --ot (did you mean --out?)'],
    ['lint', ['--fromat', 'stylish'], 'unknown option --fromat (did you mean --format?)'],
    ['bench:sandbox', ['--duraton', '1'], 'unknown option --duraton (did you mean --duration?)'],
    ['sandbox', ['--prot', '4020'], 'unknown option --prot (did you mean --port?)'],
    ['sandbox', ['--port', '70000'], '--port must be an integer from 0 to 65535, got "70000"'],
    [
      'sandbox',
      ['--public-url', 'http://127.0.0.1:4020'],
      '--public-url must be an https:// url (https://host[/path]), got "http://127.0.0.1:4020"',
    ],
    ['mcp', ['--prot', '0'], 'unknown option --prot (did you mean --port?)'],
    [
      'mcp',
      ['--server', 'http://127.0.0.1:1/v1', '--api-key', 'k'],
      '--api-key must be an API key, sk_test_ or sk_live_ followed by the key (visible characters, no spaces), got "k"',
    ],
    [
      'mcp',
      ['--simulation-url', 'http://127.0.0.1:1/sandbox'],
      '--simulation-url goes with --server (without --server, the tools use a sandbox of their own)',
    ],
    [
      'mcp',
      ['--server', 'http://127.0.0.1:1/v1', '--api-key', 'sk_test_x', '--db', 'x.db'],
      '--db is for the in-process sandbox: drop it, or drop --server',
    ],
  ])('%s %j', { timeout: 60_000 }, async (tool, args, line) => {
    expectUsageError(await run(tool, ...args), PREFIX[tool] ?? tool, line);
  });
});

describe.concurrent('a busy port: one line naming it and the fix, in every command that listens', () => {
  it.each([
    ['sandbox', (port: number) => ['--port', String(port)], 'pass --port <port> to use another one (--port 0 picks a free one)', 1],
    ['mcp', (port: number) => ['--port', String(port)], 'pass --port <port> to use another one (--port 0 picks a free one)', 1],
    ['mock', (port: number) => ['--port', String(port)], 'set MOCK_PORT=<port> or pass --port <port> to use another one', 1],
    [
      'start',
      (port: number, free: number[]) => [
        '--skip-build',
        '--mock-port',
        String(free[0]),
        '--docs-port',
        String(free[1]),
        '--sandbox-port',
        String(port),
      ],
      'set SANDBOX_PORT=<port> or pass --sandbox-port <port> to use another one',
      1,
    ],
  ] as const)('%s', { timeout: 60_000 }, async (tool, args, hint, code) => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as net.AddressInfo;
    try {
      const r = await run(tool, ...args(port, [await closedPort(), await closedPort()]));
      expect(r.code).toBe(code);
      expect(r.stderr.trimEnd()).toBe(`${PREFIX[tool] ?? tool}: port ${port} on 127.0.0.1 is already in use; ${hint}`);
    } finally {
      busy.close();
    }
  });
});

describe.concurrent('an unreachable server or receiver: one line, exit 2', () => {
  it('conformance names the URL it could not reach and runs nothing', { timeout: 60_000 }, async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const r = await run('conformance', '--server', url, '--api-key', 'sk_test_x');
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd()).toBe(`conformance: cannot reach ${url} (ECONNREFUSED): is the server running?`);
    expect(r.stdout).toBe('');
  });

  it('trigger --all says it once, not once per event', { timeout: 60_000 }, async () => {
    const url = `http://127.0.0.1:${await closedPort()}/webhooks`;
    const r = await run('trigger', '--all', '--url', url, '--secret', 'whsec_x');
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd()).toBe(`${TRIGGER_BIN}: cannot reach ${url} (ECONNREFUSED): is the receiver running?`);
    expect(r.stdout).not.toMatch(/FAILED/);
  });

  it('trigger --help lists --timeout, --spec and WEBHOOK_SECRET', { timeout: 60_000 }, async () => {
    const r = await run('trigger', '--help');
    expect(r.code).toBe(0);
    for (const word of ['--timeout', '--spec', 'WEBHOOK_SECRET', '--all', '--list']) expect(r.stdout).toContain(word);
  });
});

describe('parseCli', () => {
  const spec = { usage: 'Usage: x', options: { only: { type: 'string' as const, multiple: true }, check: { type: 'boolean' as const } } };
  it('reads repeated options, and rejects a value on a flag and a stray argument', () => {
    expect(parseCli(['--only', 'a', '--only', 'b,c'], spec)?.values.only).toEqual(['a', 'b,c']);
    expect(() => parseCli(['--check=yes'], spec)).toThrow(new UsageError('--check takes no value'));
    expect(() => parseCli(['extra'], spec)).toThrow(new UsageError('unexpected argument extra'));
  });
  it('suggests the closest names', () => {
    expect(closest('chek', ['check', 'spec', 'only'])).toEqual(['check']);
    expect(closest('zzzz', ['check'])).toEqual([]);
  });
});

describe('conformance --only', () => {
  const bundle = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', 'openapi.json'), 'utf8')) as OpenApiBundle;
  it('keeps the operations named by operationId or path, and nothing else', () => {
    const { bundle: picked, selected } = selectOperations(bundle, listValues(['listCards', '/cards/{code}/freeze']));
    expect(selected).toEqual(['GET /cards', 'POST /cards/{code}/freeze']);
    expect(Object.keys(picked.paths as object).sort()).toEqual(['/cards', '/cards/{code}/freeze']);
    expect(Object.keys((picked.paths as Record<string, object>)['/cards']!)).not.toContain('post');
    expect(picked.components).toBe(bundle.components);
  });
  it('names every unknown value', () => {
    expect(() => selectOperations(bundle, ['listCards', '/nope', 'frezeCard'])).toThrow(
      /unknown operation or path \/nope, frezeCard \(did you mean freezeCard\?\)/,
    );
  });
});
