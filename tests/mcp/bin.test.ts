// The MCP server's bin as an assistant starts it: a process spoken to over stdio by the SDK's own client
// (StdioClientTransport), from source through tsx as the installed bin runs its compiled copy. It answers the
// handshake with its tools, calls its own sandbox, searches the docs it was given, writes nothing but the protocol
// on stdout, and exits, its sandbox with it, when the client closes. The whole flow of tools:
// tests/mcp/server.test.ts; its command line's one-line errors: tests/cli/errors.test.ts.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageDocs } from '../../scripts/package/llms.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import { TOOL } from '../../src/mcp/mcp-flags.ts';

let dir: string;
let transport: StdioClientTransport;
let client: Client;
let stderr = '';
const protocolErrors: string[] = [];

const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { text: string }[]).map((c) => c.text).join('\n');

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bin-'));
  const docs = path.join(dir, 'llms-full.txt');
  fs.writeFileSync(docs, packageDocs());
  transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/mcp/cli.ts', '--api-key', 'sk_test_mcp_bin', '--docs', docs],
    cwd: ROOT,
    stderr: 'pipe',
  });
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A line on stdout that is not a JSON-RPC message comes here.
  transport.onerror = (error) => protocolErrors.push(error.message);
  client = new Client({ name: 'bin-test', version: '1.0.0' });
  await client.connect(transport);
}, 120_000);

afterAll(async () => {
  await client?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe(`${TOOL} over stdio`, () => {
  it('answers the handshake with its name, version and tools', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: '@partner-api/contract' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'call_partner_api',
      'describe_operation',
      'list_events',
      'list_operations',
      'search_docs',
      'simulate',
    ]);
  });

  it('calls its in-process sandbox with the key it was given, and searches the docs', async () => {
    const balances = JSON.parse(text(await client.callTool({ name: 'call_partner_api', arguments: { operation_id: 'listBalances' } })));
    expect(balances.status).toBe(200);
    expect(balances.request).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/v1\/balance$/);
    expect(balances.body.data.length).toBe(5);
    const listing = text(await client.callTool({ name: 'list_operations', arguments: { filter: 'freeze' } }));
    expect(listing).toContain('with the key sk_test_mcp_bin');
    const found = text(await client.callTool({ name: 'search_docs', arguments: { query: 'webhook signature verification', limit: 1 } }));
    expect(found).toContain('Page: /guides/webhooks/');
  });

  it('writes only the protocol on stdout, and its one line on stderr', () => {
    expect(protocolErrors).toEqual([]);
    expect(stderr).toMatch(
      new RegExp(`^${TOOL}: MCP server on stdio; a sandbox started for this session, in memory, at http://127\\.0\\.0\\.1:\\d+/v1`),
    );
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits when the client closes, and stops its sandbox', async () => {
    const sandbox = /at (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(stderr)![1]!;
    await client.close();
    await expect(fetch(`${sandbox}/balance`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  }, 30_000);

  it('exits by itself, status 0, when its stdin ends (an assistant that quits without a signal)', async () => {
    // Spawned by hand: the SDK's client sends SIGTERM to a server still running 2 seconds after closing its stdin.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/mcp/cli.ts', '--docs', path.join(dir, 'llms-full.txt')], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const ready = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } })}\n`,
    );
    await ready;
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    expect(await exited, err).toEqual({ code: 0, signal: null });
    clearTimeout(timer);
  }, 60_000);
});
