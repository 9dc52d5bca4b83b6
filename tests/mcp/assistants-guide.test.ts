// docs/assistants.md says what the MCP server is, as it is: every configuration it prints starts the package's
// bin and parses as JSON; every option it names is one the bin takes, and every option the bin takes is in its
// table; its table of tools is the server's tools; the command line's one-line errors (src/mcp/mcp-flags.ts).
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { fencedBlocks } from '../docs/guide-runner.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import { UsageError } from '../../src/cli-parser.ts';
import { DEFAULT_SANDBOX_KEY, parseCli, TOOL, USAGE } from '../../src/mcp/mcp-flags.ts';
import { createMcpServer } from '../../src/mcp/server.ts';

const GUIDE = fs.readFileSync(path.join(ROOT, 'docs', 'assistants.md'), 'utf8');
const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; bin: Record<string, string> };

/** The rows of the markdown table under `heading`: the first cell of each, without its backticks. */
function tableKeys(heading: string): string[] {
  const start = GUIDE.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  const lines = GUIDE.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows = lines.slice(first + 2);
  return rows
    .slice(
      0,
      rows.findIndex((l) => !l.startsWith('|')),
    )
    .map((l) => /^\| `([^`]+)`/.exec(l)![1]!.split(' ')[0]!);
}

describe('docs/assistants.md', () => {
  it("starts the package's bin in every configuration, each valid JSON", () => {
    expect(PACKAGE.bin[TOOL]).toBe('./dist/mcp/cli.js');
    const configs = fencedBlocks(GUIDE).filter((b) => b.info.startsWith('json'));
    expect(configs.length).toBeGreaterThanOrEqual(4);
    for (const block of configs) {
      const servers = (
        JSON.parse(block.code) as { mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }> }
      ).mcpServers;
      const server = servers['partner-api']!;
      expect(server.command, block.info).toBe('npx');
      expect(server.args.slice(0, 4), block.info).toEqual(['-y', '-p', PACKAGE.name, TOOL]);
      // The arguments after the bin are a command line it takes.
      expect(() => parseCli(server.args.slice(4), { PARTNER_API_KEY: server.env?.PARTNER_API_KEY })).not.toThrow();
    }
    for (const block of fencedBlocks(GUIDE).filter((b) => b.info.startsWith('sh'))) {
      for (const line of block.code.split('\n').filter((l) => l.startsWith('claude mcp add'))) {
        expect(line).toMatch(new RegExp(`^claude mcp add (--scope project )?partner-api -- npx -y -p ${PACKAGE.name} ${TOOL}$`));
      }
    }
  });

  it('has every option of the bin in its table, and only those', () => {
    const usage = [...USAGE.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!).filter((o) => !['--help', '--version'].includes(o));
    expect(tableKeys('### Options')).toEqual(usage);
    for (const option of new Set([...GUIDE.matchAll(/`(--[a-z][\w-]*)/g)].map((m) => m[1]!))) {
      expect([...usage, '--scope', '--help'], `${option}, named in the guide`).toContain(option);
    }
  });

  it("lists the server's tools", async () => {
    const target = { apiKey: 'sk_test_x', baseUrl: 'http://127.0.0.1:1/v1', description: 'nothing', close: async () => undefined };
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'guide', version: '1' });
    await Promise.all([createMcpServer({ target }).connect(serverSide), client.connect(clientSide)]);
    const { tools } = await client.listTools();
    expect(tableKeys('## The MCP server')).toEqual(tools.map((t) => t.name));
    await client.close();
  });
});

describe('the command line', () => {
  it('starts a sandbox in-process by default, with the default key or PARTNER_API_KEY', () => {
    expect(parseCli([], {})).toEqual({
      version: false,
      apiKey: DEFAULT_SANDBOX_KEY,
      docs: undefined,
      target: { kind: 'in-process', port: 0, db: undefined, manual: false, rateLimit: true },
    });
    expect(parseCli(['--port', '4100', '--db', 's.db', '--manual'], { PARTNER_API_KEY: 'sk_test_env' })).toMatchObject({
      apiKey: 'sk_test_env',
      target: { port: 4100, db: 's.db', manual: true },
    });
    expect(parseCli(['-v'], {})).toEqual({ version: true });
  });

  it('calls a server elsewhere with --server, deriving the gift card address', () => {
    expect(
      parseCli(
        ['--server', 'http://127.0.0.1:4020/v1/', '--simulation-url', 'http://127.0.0.1:4020/sandbox', '--api-key', 'sk_test_a'],
        {},
      ),
    ).toEqual({
      version: false,
      apiKey: 'sk_test_a',
      docs: undefined,
      target: {
        kind: 'remote',
        baseUrl: 'http://127.0.0.1:4020/v1',
        giftCardBaseUrl: 'http://127.0.0.1:4020/api/v1',
        simulationUrl: 'http://127.0.0.1:4020/sandbox',
      },
    });
    expect(parseCli(['--server', 'https://api.example.test/base', '--api-key', 'sk_test_a'], {})).toMatchObject({
      target: { giftCardBaseUrl: undefined, simulationUrl: undefined },
    });
  });

  it.each([
    [['--server', 'http://x/v1'], '--server needs --api-key <key> (or PARTNER_API_KEY): the key of the account to act on'],
    [['--server', 'ftp://x/v1', '--api-key', 'sk_test_a'], '--server must be an http:// or https:// url, got "ftp://x/v1"'],
    [['--gift-card-url', 'http://x/api/v1'], '--gift-card-url goes with --server (without --server, the tools use a sandbox of their own)'],
    [
      ['--server', 'http://x/v1', '--api-key', 'sk_test_a', '--port', '1'],
      '--port is for the in-process sandbox: drop it, or drop --server',
    ],
    [
      ['--server', 'http://x/v1', '--api-key', 'sk_test_a', '--manual'],
      '--manual is for the in-process sandbox: drop it, or drop --server (PATCH /sandbox/account sets manual on another sandbox)',
    ],
    [['--port', 'x'], '--port must be an integer from 0 to 65535, got "x"'],
    [
      ['--api-key', 'Bearer sk_test_a'],
      '--api-key must be an API key, sk_test_ or sk_live_ followed by the key (visible characters, no spaces), got "Bearer sk_test_a"',
    ],
  ])('%j: %s', (argv, line) => {
    expect(() => parseCli(argv, {})).toThrow(new UsageError(line));
  });
});
