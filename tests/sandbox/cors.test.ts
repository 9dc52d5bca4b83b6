// CORS (src/sandbox/http/cors.ts): a browser page on loopback (the docs site's "Try it" console) or of an origin
// named with `corsOrigins` may call the partner API and the simulation API and read the headers the contract
// declares; any other page gets no CORS header, and its preflight the envelope's answer as before.
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli-parser.ts';
import { parseCli } from '../../src/sandbox/sandbox-flags.ts';
import { sandboxDocument, simulationDocument } from '../../src/sandbox/core/contract.ts';
import { declaredResponseHeaders, normaliseOrigin } from '../../src/sandbox/http/cors.ts';
import { KEY, startTestSandbox, type TestSandbox } from './support.ts';

const DOCS = 'http://127.0.0.1:8080';
const NAMED = 'https://docs.example.test';
let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: true, corsOrigins: [NAMED] });
});
afterAll(() => sandbox.close());
afterEach(() => {
  expect(sandbox.problems).toEqual([]);
});

/** A preflight as a browser sends it before a cross-origin POST with a key and an Idempotency-Key. */
function preflight(path: string, origin: string, method = 'POST') {
  return fetch(`${sandbox.url}${path}`, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'authorization, content-type, idempotency-key',
    },
  });
}

describe('a page on loopback', () => {
  it('reads the answer and the headers the contract declares (rate limit, Idempotent-Replayed)', async () => {
    for (const origin of [DOCS, 'http://localhost:4321', 'http://[::1]:8080']) {
      const r = await sandbox.request('GET', '/v1/balance', { headers: { Origin: origin } });
      expect(r.status).toBe(200);
      expect(r.headers.get('access-control-allow-origin')).toBe(origin);
      expect(r.headers.get('vary')).toMatch(/\bOrigin\b/);
      const exposed = r.headers.get('access-control-expose-headers')!.split(', ');
      expect(exposed).toEqual(expect.arrayContaining(['Idempotent-Replayed', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'Retry-After']));
      expect(r.headers.get('x-ratelimit-limit')).not.toBeNull();
    }
  });

  it('reads a failure too: a call without a key is 401 in the envelope, with the CORS headers', async () => {
    const r = await sandbox.request('GET', '/v1/balance', { key: null, headers: { Origin: DOCS } });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('AUTHENTICATION_REQUIRED');
    expect(r.headers.get('access-control-allow-origin')).toBe(DOCS);
  });

  it('its preflight is answered 204 before authentication, with the methods and the headers it asked for', async () => {
    for (const path of ['/v1/customers', '/api/v1/gift-cards/orders', '/sandbox/clock/advance']) {
      const r = await preflight(path, DOCS);
      expect(r.status).toBe(204);
      expect(r.headers.get('access-control-allow-origin')).toBe(DOCS);
      expect(r.headers.get('access-control-allow-methods')).toContain('POST');
      expect(r.headers.get('access-control-allow-headers')).toBe('authorization, content-type, idempotency-key');
      expect(Number(r.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      expect(await r.text()).toBe('');
    }
  });

  it('the simulation API answers it too', async () => {
    const r = await fetch(`${sandbox.simulationUrl}/clock`, { headers: { Authorization: `Bearer ${KEY}`, Origin: DOCS } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe(DOCS);
  });
});

describe('an origin named with corsOrigins', () => {
  it('is allowed like a loopback one, and may reach the sandbox on loopback (Private Network Access)', async () => {
    const r = await sandbox.request('GET', '/v1/balance', { headers: { Origin: NAMED } });
    expect(r.headers.get('access-control-allow-origin')).toBe(NAMED);
    const pre = await fetch(`${sandbox.url}/v1/balance`, {
      method: 'OPTIONS',
      headers: { Origin: NAMED, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Private-Network': 'true' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-private-network')).toBe('true');
  });
});

describe('any other page', () => {
  it('gets no CORS header: the browser keeps the answer from it', async () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1.evil.example:8080', 'null', 'https://127.0.0.1:8080']) {
      const r = await sandbox.request('GET', '/v1/balance', { headers: { Origin: origin } });
      expect(r.status).toBe(200);
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
      expect(r.headers.get('access-control-expose-headers')).toBeNull();
    }
  });

  it('its preflight gets the answer an OPTIONS request had before: 405 in the envelope, without CORS headers', async () => {
    const r = await preflight('/v1/customers', 'https://evil.example');
    expect(r.status).toBe(405);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    const body: any = await r.json();
    expect(body.success).toBe(false);
    expect(body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('an OPTIONS request that is not a preflight is not answered as one, even from loopback', async () => {
    const r = await fetch(`${sandbox.url}/v1/customers`, { method: 'OPTIONS', headers: { Origin: DOCS } });
    expect(r.status).toBe(405);
    expect(((await r.json()) as any).success).toBe(false);
  });
});

describe('configuration', () => {
  it('the exposed headers are the response headers of both documents', () => {
    const names = declaredResponseHeaders([sandboxDocument(), simulationDocument()]);
    expect(names).toEqual(expect.arrayContaining(['Idempotent-Replayed', 'X-RateLimit-Reset', 'Retry-After']));
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
  });

  it('--cors-origin takes origins only, repeated', () => {
    expect(parseCli(['--cors-origin', NAMED, '--cors-origin', 'http://192.168.1.5:8080'])?.['cors-origin']).toEqual([
      NAMED,
      'http://192.168.1.5:8080',
    ]);
    for (const bad of ['docs.example.test', 'https://docs.example.test/guides/', 'ftp://docs.example.test']) {
      expect(() => parseCli(['--cors-origin', bad])).toThrow(UsageError);
    }
    expect(normaliseOrigin('https://docs.example.test/')).toBe(NAMED);
  });

  it('the commands the guides print with --cors-origin are valid command lines', () => {
    const commands = ['docs/sandbox.md', 'docs/getting-started.md'].flatMap(
      (file) =>
        [...fs.readFileSync(file, 'utf8').matchAll(/npx partner-api-sandbox ([^`\n]*--cors-origin [^`\n]*)/g)]
          .map((m) => m[1]!.replace(/\s+#.*$/, '').trim())
          .filter((command) => !command.includes('[')), // the synopsis, not a command
    );
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const command of commands) {
      const args = parseCli(command.split(/\s+/));
      expect(args?.['cors-origin']?.length, command).toBe(1);
    }
  });
});
