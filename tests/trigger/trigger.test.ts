// npm run trigger against a local receiver (node:http on 127.0.0.1, free port) that verifies every delivery
// with the toolkit's verifier, for one event and for --all, and the CLI's answers to bad input.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exampleEvents, type JsonObject } from '../../scripts/lib/openapi-examples.ts';
import { verifyWebhook, WEBHOOK_HEADERS } from '../../src/webhooks/index.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
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
        res.writeHead(answerStatus).end();
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
});

async function trigger(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [TSX, 'scripts/trigger/cli.ts', ...args], {
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
