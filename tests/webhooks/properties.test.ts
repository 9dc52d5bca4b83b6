import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeSignature, signWebhook, verifyWebhook } from '../../src/webhooks/index.js';
import { onEachCryptoPath } from './support.js';

// Property-based tests: for arbitrary events, secrets and timestamps, a signed delivery verifies, and any
// one-byte change to the body, the timestamp or the signature is rejected.

const secretArb = fc.string({ minLength: 1, maxLength: 64 }).map((s) => `whsec_${s}`);
const timestampArb = fc.integer({ min: 0, max: 4_102_444_800 }); // up to 2100-01-01
const eventArb = fc.record({
  id: fc.uuid().map((u) => `evt_${u}`),
  type: fc.constantFrom('card.frozen', 'kyc.approved', 'balance.debited', 'wallet.deposit_received'),
  created_at: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  mode: fc.constantFrom('live', 'test'),
  data: fc.dictionary(fc.string(), fc.jsonValue()),
});
const hex = '0123456789abcdef';

/** Headers from signWebhook, as a plain record. */
async function sign(body: string | Uint8Array, secret: string, timestamp: number) {
  return signWebhook(body, secret, { timestamp, idempotencyKey: 'idem_prop' });
}

onEachCryptoPath(() => {
  describe('webhook signature properties', () => {
    it('every event produced by the signer verifies, within the tolerance window', async () => {
      await fc.assert(
        fc.asyncProperty(eventArb, secretArb, timestampArb, fc.integer({ min: -300, max: 300 }), async (event, secret, t, skew) => {
          const body = JSON.stringify(event);
          const headers = await sign(body, secret, t);
          const verified = await verifyWebhook(body, headers, secret, { now: () => t + skew });
          expect(verified).toEqual(JSON.parse(body));
        }),
        { numRuns: 200 },
      );
    });

    it('any change to one byte of the body is rejected', async () => {
      await fc.assert(
        fc.asyncProperty(
          eventArb,
          secretArb,
          timestampArb,
          fc.nat(),
          fc.integer({ min: 1, max: 255 }),
          async (event, secret, t, position, flip) => {
            const body = new TextEncoder().encode(JSON.stringify(event));
            const headers = await sign(body, secret, t);
            const tampered = body.slice();
            const i = position % tampered.length;
            tampered[i] = (tampered[i] ?? 0) ^ flip;
            await expect(verifyWebhook(tampered, headers, secret, { now: () => t })).rejects.toMatchObject({
              code: 'signature_mismatch',
            });
          },
        ),
        { numRuns: 200 },
      );
    });

    it('any other timestamp is rejected, in t= alone or in both headers', async () => {
      await fc.assert(
        fc.asyncProperty(eventArb, secretArb, timestampArb, timestampArb, async (event, secret, t, other) => {
          fc.pre(other !== t);
          const body = JSON.stringify(event);
          const headers = await sign(body, secret, t);
          const v1 = headers['X-Service-Signature'].split('v1=')[1];
          const both = { ...headers, 'X-Service-Signature': `t=${other},v1=${v1}`, 'X-Service-Timestamp': String(other) };
          // The receiver's clock agrees with the forged timestamp: only the signature can catch it.
          await expect(verifyWebhook(body, both, secret, { now: () => other })).rejects.toMatchObject({ code: 'signature_mismatch' });
          const tOnly = { ...headers, 'X-Service-Signature': `t=${other},v1=${v1}` };
          await expect(verifyWebhook(body, tOnly, secret, { now: () => other })).rejects.toMatchObject({
            code: 'timestamp_header_mismatch',
          });
        }),
        { numRuns: 200 },
      );
    });

    it('any change to one character of the signature is rejected', async () => {
      await fc.assert(
        fc.asyncProperty(
          eventArb,
          secretArb,
          timestampArb,
          fc.integer({ min: 0, max: 63 }),
          fc.integer({ min: 1, max: 15 }),
          async (event, secret, t, position, delta) => {
            const body = JSON.stringify(event);
            const headers = await sign(body, secret, t);
            const v1 = headers['X-Service-Signature'].split('v1=')[1] ?? '';
            const changed = hex[(hex.indexOf(v1.charAt(position)) + delta) % 16] ?? '';
            const forged = v1.slice(0, position) + changed + v1.slice(position + 1);
            expect(forged).not.toBe(v1);
            const tampered = { ...headers, 'X-Service-Signature': `t=${t},v1=${forged}` };
            await expect(verifyWebhook(body, tampered, secret, { now: () => t })).rejects.toMatchObject({
              code: 'signature_mismatch',
            });
          },
        ),
        { numRuns: 200 },
      );
    });

    it('a signature under another secret is rejected', async () => {
      await fc.assert(
        fc.asyncProperty(eventArb, secretArb, secretArb, timestampArb, async (event, secret, other, t) => {
          fc.pre(other !== secret);
          const body = JSON.stringify(event);
          const headers = await sign(body, other, t);
          await expect(verifyWebhook(body, headers, secret, { now: () => t })).rejects.toMatchObject({ code: 'signature_mismatch' });
        }),
        { numRuns: 100 },
      );
    });

    it('several secrets: accepted exactly when the signing secret is among them, at any position', async () => {
      await fc.assert(
        fc.asyncProperty(
          eventArb,
          fc.uniqueArray(secretArb, { minLength: 2, maxLength: 5 }),
          fc.nat(),
          fc.boolean(),
          timestampArb,
          async (event, secrets, pick, include, t) => {
            const signer = secrets[pick % secrets.length] ?? '';
            const candidates = include ? secrets : secrets.filter((s) => s !== signer);
            const body = JSON.stringify(event);
            const headers = await sign(body, signer, t);
            const result = verifyWebhook(body, headers, candidates, { now: () => t });
            if (include) await expect(result).resolves.toEqual(JSON.parse(body));
            else await expect(result).rejects.toMatchObject({ code: 'signature_mismatch' });
          },
        ),
        { numRuns: 100 },
      );
    });

    it('several v1= values: accepted exactly when the right one is among them, at any position', async () => {
      const v1Arb = fc.string({ unit: fc.constantFrom(...hex), minLength: 64, maxLength: 64 });
      await fc.assert(
        fc.asyncProperty(
          eventArb,
          secretArb,
          timestampArb,
          fc.array(v1Arb, { minLength: 1, maxLength: 5 }),
          fc.nat(),
          fc.boolean(),
          async (event, secret, t, decoys, position, include) => {
            const body = JSON.stringify(event);
            const good = await computeSignature(secret, t, body);
            fc.pre(!decoys.includes(good));
            const values = [...decoys];
            if (include) values.splice(position % (values.length + 1), 0, good);
            const header = `t=${t},${values.map((v) => `v1=${v}`).join(',')}`;
            const result = verifyWebhook(body, { 'x-service-signature': header }, secret, { now: () => t });
            if (include) await expect(result).resolves.toEqual(JSON.parse(body));
            else await expect(result).rejects.toMatchObject({ code: 'signature_mismatch' });
          },
        ),
        { numRuns: 100 },
      );
    });
  });
});
