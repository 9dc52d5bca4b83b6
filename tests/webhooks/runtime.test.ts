import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createDeduplicator,
  getHeader,
  isWebhookVerificationError,
  signEvent,
  verifyWebhook,
  verifyWebhookSync,
  type WebhookEvent,
} from '../../src/webhooks/index.js';
import { CARD_FROZEN, SECRET, onEachCryptoPath } from './support.js';

describe('runtime portability', () => {
  const dir = new URL('../../src/webhooks/', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

  it('src/webhooks imports nothing from node: or node built-ins (Web Crypto and TextEncoder only)', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      const source = readFileSync(new URL(file, dir), 'utf8');
      const specifiers = [...source.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/g)].map((m) => m[1] ?? m[2]);
      for (const specifier of specifiers) {
        expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.{1,2}\//);
      }
      expect(source, file).not.toMatch(/\brequire\(/);
      expect(source, file).not.toMatch(/\bBuffer\./);
    }
  });
});

onEachCryptoPath(() => {
  // Which HMAC runs: node:crypto where it exists (synchronously, no Web Crypto call), Web Crypto elsewhere.
  onEachCryptoPath((path) => {
    describe('the crypto path in use', () => {
      afterEach(() => vi.restoreAllMocks());

      it(path === 'node:crypto' ? 'never calls crypto.subtle' : 'signs with crypto.subtle', async () => {
        const subtleSign = vi.spyOn(globalThis.crypto.subtle, 'sign');
        const { body, headers } = await signEvent(CARD_FROZEN, SECRET);
        await expect(verifyWebhook(body, headers, SECRET)).resolves.toEqual(CARD_FROZEN);
        expect(subtleSign).toHaveBeenCalledTimes(path === 'node:crypto' ? 0 : 2); // sign + verify
      });

      it(path === 'node:crypto' ? 'verifyWebhookSync returns the event' : 'verifyWebhookSync says to await verifyWebhook', async () => {
        const { body, headers } = await signEvent(CARD_FROZEN, SECRET);
        if (path === 'node:crypto') {
          expect(verifyWebhookSync(body, headers, SECRET)).toEqual(CARD_FROZEN);
          expect(() => verifyWebhookSync(body, headers, 'whsec_other')).toThrow(expect.objectContaining({ code: 'signature_mismatch' }));
        } else {
          expect(() => verifyWebhookSync(body, headers, SECRET)).toThrow(/needs node:crypto.*await verifyWebhook/);
        }
      });

      it('rejects (never throws synchronously) from verifyWebhook', () => {
        const result = verifyWebhook('{}', {}, SECRET);
        expect(result).toBeInstanceOf(Promise);
        return expect(result).rejects.toMatchObject({ code: 'missing_signature' });
      });
    });
  });

  // The Node http receiver of docs/webhooks.md, end to end: raw body, verification, dedup, 2xx/4xx answers.
  describe('a Node http receiver', () => {
    let server: Server;
    let url: string;
    const handled: string[] = [];
    const dedup = createDeduplicator();

    const readBody = (req: IncomingMessage) =>
      new Promise<Buffer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => resolve(Buffer.concat(chunks)));
        req.on('error', reject);
      });

    beforeAll(async () => {
      server = createServer(async (req, res) => {
        const body = await readBody(req);
        try {
          const event = await verifyWebhook<WebhookEvent>(body, req.headers, SECRET);
          const key = getHeader(req.headers, 'X-Service-Idempotency-Key') ?? event.id;
          const result = await dedup.run(key, () => handled.push(`${event.type} ${event.id}`));
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ duplicate: result.duplicate }));
        } catch (error) {
          if (isWebhookVerificationError(error)) {
            res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ code: error.code }));
          } else {
            res.writeHead(500).end();
          }
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
    });

    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('acknowledges a genuine delivery once and a retry as a duplicate', async () => {
      const event = { ...CARD_FROZEN, id: 'evt_11111111-2222-4333-8444-555555555555' };
      const { body, headers } = await signEvent(event, SECRET, { idempotencyKey: 'idem_e2e' });
      const first = await fetch(url, { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } });
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ duplicate: false });
      const retry = await fetch(url, { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } });
      expect(retry.status).toBe(200);
      expect(await retry.json()).toEqual({ duplicate: true });
      expect(handled).toEqual([`card.frozen ${event.id}`]);
    });

    it('answers 400 with the reason for a tampered delivery', async () => {
      const { body, headers } = await signEvent(CARD_FROZEN, SECRET);
      const res = await fetch(url, { method: 'POST', body: body.replace('75', '7500'), headers });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code: 'signature_mismatch' });
    });

    it('answers 400 for an unsigned request', async () => {
      const res = await fetch(url, { method: 'POST', body: JSON.stringify(CARD_FROZEN) });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code: 'missing_signature' });
    });
  });
});
