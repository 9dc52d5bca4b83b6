// The trigger (src/trigger/cli.ts: `npm run trigger`, the package's `partner-api-trigger` bin) against a local
// receiver (node:http on 127.0.0.1, free port) that verifies every delivery with the toolkit's verifier, for one
// event and for --all; the CLI's answers to bad input; every failure it prints is one line; its help and version;
// and the document it reads by default is one the package ships.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exampleEvents, type JsonObject } from '../../scripts/lib/openapi-examples.ts';
import { DEFAULT_SPEC, TOOL } from '../../src/trigger/trigger-flags.ts';
import { verifyWebhook, WEBHOOK_HEADERS } from '../../src/webhooks/index.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  homepage: string;
  files: string[];
  bin: Record<string, string>;
};
const TSX = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const SPEC = path.join(ROOT, 'generated', 'openapi.json');
const SECRET = 'whsec_trigger_suite_5f2b7c';
const events = exampleEvents(JSON.parse(fs.readFileSync(SPEC, 'utf8')) as JsonObject);

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  verified?: { type: string };
  error?: string;
}

let server: http.Server;
let base: string;
let received: Received[] = [];
/** What the receiver answers after a valid delivery (a test may make it fail). */
let answerStatus = 200;
let answerBody = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      const entry: Received = { headers: req.headers, raw };
      received.push(entry);
      try {
        entry.verified = await verifyWebhook<{ type: string }>(raw, req.headers, SECRET);
        res.writeHead(answerStatus).end(answerBody);
      } catch (error) {
        entry.error = (error as Error).message;
        res.writeHead(400).end(entry.error);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  received = [];
  answerStatus = 200;
  answerBody = '';
});

async function trigger(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [TSX, 'src/trigger/cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, WEBHOOK_SECRET: '' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run trigger', () => {
  it('sends one event, signed and verifiable, with the three delivery headers', async () => {
    const { type, event } = events.find((e) => e.type === 'card.frozen') ?? events[0]!;
    const result = await trigger(type, '--url', base, '--secret', SECRET);
    expect(result.code, result.stderr).toBe(0);
    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(delivery!.error).toBeUndefined();
    expect(delivery!.verified).toEqual(event);
    expect(JSON.parse(delivery!.raw.toString())).toEqual(event);
    for (const name of Object.values(WEBHOOK_HEADERS)) expect(delivery!.headers[name.toLowerCase()]).toBeTruthy();
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(result.stdout).toMatch(new RegExp(`${type.replace(/\./g, '\\.')}\\s+200 OK\\s+\\d+ ms`));
  });

  it('--all sends every event of the document once, each verified', async () => {
    const result = await trigger('--all', '--url', base, '--secret', SECRET);
    expect(result.code, result.stderr).toBe(0);
    expect(events.length).toBeGreaterThan(30);
    expect(received.map((r) => r.error).filter(Boolean)).toEqual([]);
    expect(received.map((r) => r.verified?.type)).toEqual(events.map((e) => e.type));
    const keys = received.map((r) => r.headers[WEBHOOK_HEADERS.idempotencyKey.toLowerCase()]);
    expect(new Set(keys).size).toBe(events.length);
    expect(result.stdout).toContain(`${events.length} acknowledged, 0 not acknowledged`);
  });

  it('reports a delivery the receiver does not acknowledge, and exits 1', async () => {
    answerStatus = 500;
    const result = await trigger('card.frozen', '--url', base, '--secret', SECRET);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/card\.frozen\s+500 Internal Server Error/);
    const wrongSecret = await trigger('card.frozen', '--url', base, '--secret', 'whsec_not_the_receivers');
    expect(wrongSecret.code).toBe(1);
    expect(wrongSecret.stdout).toMatch(/400 Bad Request/);
    expect(received.at(-1)?.error).toMatch(/signature/i);
  });

  it.each([
    [['card.frozn', '--url', 'http://127.0.0.1:1/', '--secret', SECRET], /unknown event type "card\.frozn".*card\.frozen/s],
    [['card.frozen', '--secret', SECRET], /--url <receiver> is required/],
    [['card.frozen', '--url', 'http://127.0.0.1:1/'], /--secret <whsec_\.\.\.> is required/],
    [['card.frozen', '--url', 'ftp://127.0.0.1/x', '--secret', SECRET], /http:\/\/ or https:\/\//],
    [['card.frozen', '--url', 'not a url', '--secret', SECRET], /is not a URL/],
    [['--url', 'http://127.0.0.1:1/', '--secret', SECRET], /exactly one event type/],
    [['card.frozen', '--all', '--url', 'http://127.0.0.1:1/', '--secret', SECRET], /not both/],
  ])('refuses bad input %j with a clear message and exit 2', async (args, message) => {
    const result = await trigger(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(received).toHaveLength(0);
  });
});

describe('every failure is one line', () => {
  const lines = (text: string) => text.split('\n').filter((line) => line !== '');

  it("a delivery not acknowledged: the receiver's answer on the delivery's line, folded", async () => {
    answerStatus = 503;
    answerBody = 'Service Unavailable\n  retry later\n\tgoodbye';
    const result = await trigger('card.frozen', '--url', base, '--secret', SECRET);
    expect(result.code).toBe(1);
    expect(lines(result.stdout)).toHaveLength(2);
    expect(lines(result.stdout)[1]).toMatch(
      /^card\.frozen\s+503 Service Unavailable\s+\d+ ms {2}\(not acknowledged: the service would retry\) answered: "Service Unavailable retry later goodbye"$/,
    );
    expect(result.stderr).toBe('');
  });

  it.each([
    ['missing', 'nope.json', undefined, /^--spec \S+nope\.json does not exist$/],
    [
      'not JSON',
      'bad.json',
      '{\n  "openapi": \n',
      /^--spec \S+bad\.json is not JSON \(.+\): give the OpenAPI bundle, generated\/openapi\.json$/,
    ],
    ['without webhooks', 'empty.json', '{"openapi": "3.1.0"}', /^--spec \S+empty\.json has no webhooks: /],
  ])('a --spec file %s: one line naming it, exit 2', async (_, name, text, message) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trigger-spec-'));
    try {
      if (text !== undefined) fs.writeFileSync(path.join(dir, name), text);
      const result = await trigger('--list', '--spec', path.join(dir, name));
      expect(result.code).toBe(2);
      expect(lines(result.stderr)).toHaveLength(1);
      expect(result.stderr.trimEnd()).toMatch(new RegExp(`^${TOOL}: ${message.source.slice(1)}`));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the bin', () => {
  it('--help and -h: the usage under the bin name, every option, the clone form and a published guide; --version and -v', async () => {
    for (const flag of ['--help', '-h']) {
      const help = await trigger(flag);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: ${TOOL} <event\\.type> `));
      for (const option of ['--all', '--list', '--url', '--secret', 'WEBHOOK_SECRET', '--timeout', '--spec', '--help', '--version'])
        expect(help.stdout).toContain(option);
      expect(help.stdout).toContain('npm run trigger -- ');
      expect(help.stdout).toContain(`Docs: ${PACKAGE.homepage}guides/webhooks/#signing-test-deliveries`);
    }
    for (const flag of ['--version', '-v']) expect((await trigger(flag)).stdout.trim()).toBe(PACKAGE.version);
  });

  it("is the package's partner-api-trigger, and reads the examples from a file the package ships", () => {
    expect(PACKAGE.bin[TOOL]).toBe('./dist/trigger/cli.js');
    expect(path.relative(ROOT, DEFAULT_SPEC)).toBe(path.join('generated', 'openapi.json'));
    expect(PACKAGE.files).toContain('generated/openapi.json');
  });
});
