import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeSignature, signWebhook, verifyWebhook } from '../../src/webhooks/index.js';
import { onEachCryptoPath } from './support.js';

// Produced once by tests/webhooks/make-vectors.ts with node:crypto createHmac, an implementation independent of
// src/webhooks (Web Crypto). Regenerate or audit with `npx node tests/webhooks/make-vectors.ts [--check]`.
interface Vector {
  name: string;
  secret: string;
  timestamp: number;
  body: string;
  signed_string: string;
  signature: string;
  headers: { 'X-Service-Signature': string; 'X-Service-Timestamp': string };
}
const { vectors } = JSON.parse(readFileSync(new URL('../fixtures/webhook-vectors.json', import.meta.url), 'utf8')) as { vectors: Vector[] };

onEachCryptoPath(() => {
  describe('published webhook test vectors', () => {
    it('has vectors to check', () => {
      expect(vectors.length).toBeGreaterThanOrEqual(5);
    });

    describe.each(vectors)('$name', (v) => {
      it('is self-consistent (signed string and header follow the rule)', () => {
        expect(v.signed_string).toBe(`${v.timestamp}.${v.body}`);
        expect(v.signature).toMatch(/^[0-9a-f]{64}$/);
        expect(v.headers['X-Service-Signature']).toBe(`t=${v.timestamp},v1=${v.signature}`);
      });

      it('computeSignature and signWebhook reproduce the published signature and headers', async () => {
        expect(await computeSignature(v.secret, v.timestamp, v.body)).toBe(v.signature);
        const headers = await signWebhook(v.body, v.secret, { timestamp: v.timestamp, idempotencyKey: 'idem_vector' });
        expect(headers).toEqual({ ...v.headers, 'X-Service-Idempotency-Key': 'idem_vector' });
      });

      it('verifyWebhook accepts the vector as a string, as bytes and as an ArrayBuffer', async () => {
        const expected = JSON.parse(v.body);
        const now = () => v.timestamp;
        const bytes = new TextEncoder().encode(v.body);
        expect(await verifyWebhook(v.body, v.headers, v.secret, { now })).toEqual(expected);
        expect(await verifyWebhook(bytes, v.headers, v.secret, { now })).toEqual(expected);
        expect(await verifyWebhook(Buffer.from(v.body, 'utf8'), v.headers, v.secret, { now })).toEqual(expected);
        expect(await verifyWebhook(bytes.slice().buffer, v.headers, v.secret, { now })).toEqual(expected);
      });

      it('verifyWebhook rejects the vector under another secret', async () => {
        await expect(verifyWebhook(v.body, v.headers, `${v.secret}x`, { now: () => v.timestamp })).rejects.toMatchObject({
          code: 'signature_mismatch',
        });
      });
    });
  });
});
