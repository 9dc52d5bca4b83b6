import { describe, expect, it } from 'vitest';
import {
  WebhookVerificationError,
  isWebhookVerificationError,
  parseSignatureHeader,
  signEvent,
  signWebhook,
  verifyWebhook,
  verifyWebhookRequest,
  type WebhookVerificationErrorCode,
} from '../../src/webhooks/index.js';
import { BODY, CARD_FROZEN, OTHER_SECRET, SECRET, T, at, onEachCryptoPath } from './support.js';

/** Runs `promise`, expects a WebhookVerificationError with `code`, and returns it for message checks. */
async function rejection(promise: Promise<unknown>, code: WebhookVerificationErrorCode): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => {
      throw new Error(`expected a rejection with code ${code}, but verification succeeded`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  expect(isWebhookVerificationError(error)).toBe(true);
  const err = error as WebhookVerificationError;
  expect(err.code).toBe(code);
  expect(err.name).toBe('WebhookVerificationError');
  expect(err.message.length).toBeGreaterThan(30);
  return err;
}

const headersAt = (t = T, body: string = BODY, secret = SECRET) => signWebhook(body, secret, { timestamp: t, idempotencyKey: 'idem_1' });

onEachCryptoPath(() => {
  describe('verifyWebhook accepts a genuine delivery', () => {
    it('returns the parsed event', async () => {
      const event = await verifyWebhook(BODY, await headersAt(), SECRET, { now: at() });
      expect(event).toEqual(CARD_FROZEN);
    });

    it('reads headers case-insensitively from a record, a Headers object and string[] values', async () => {
      const h = await headersAt();
      const lower = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
      const upper = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toUpperCase(), v]));
      const arrays = Object.fromEntries(Object.entries(lower).map(([k, v]) => [k, [v]]));
      for (const headers of [h, lower, upper, arrays, new Headers(h)]) {
        await expect(verifyWebhook(BODY, headers, SECRET, { now: at() })).resolves.toEqual(CARD_FROZEN);
      }
    });

    it('does not require X-Service-Timestamp (t= is the signed value)', async () => {
      const { 'X-Service-Timestamp': _ignored, ...rest } = await headersAt();
      await expect(verifyWebhook(BODY, rest, SECRET, { now: at() })).resolves.toEqual(CARD_FROZEN);
    });

    it('verifies a Fetch Request (Web-standard runtimes)', async () => {
      const request = new Request('https://partner.example/webhooks', { method: 'POST', body: BODY, headers: await headersAt() });
      await expect(verifyWebhookRequest(request, SECRET, { now: at() })).resolves.toEqual(CARD_FROZEN);
    });

    it('accepts spaces around the header parts and ignores unknown schemes', async () => {
      const h = await headersAt();
      const v1 = parseSignatureHeader(h['X-Service-Signature']).signatures[0];
      const headers = { ...h, 'X-Service-Signature': ` t=${T} , v0=deadbeef, v1=${v1} ,` };
      await expect(verifyWebhook(BODY, headers, SECRET, { now: at() })).resolves.toEqual(CARD_FROZEN);
    });
  });

  describe('several secrets and several v1= values', () => {
    it('accepts when any of several secrets matches (rotation)', async () => {
      const h = await headersAt();
      await expect(verifyWebhook(BODY, h, [OTHER_SECRET, SECRET], { now: at() })).resolves.toEqual(CARD_FROZEN);
      await expect(verifyWebhook(BODY, h, [SECRET, OTHER_SECRET], { now: at() })).resolves.toEqual(CARD_FROZEN);
    });

    it('rejects when none of several secrets matches', async () => {
      const h = await headersAt();
      await rejection(verifyWebhook(BODY, h, [OTHER_SECRET, `${SECRET}0`], { now: at() }), 'signature_mismatch');
    });

    it('accepts when any of several v1= values matches', async () => {
      const h = await headersAt();
      const good = parseSignatureHeader(h['X-Service-Signature']).signatures[0];
      const bad = '0'.repeat(64);
      for (const header of [`t=${T},v1=${bad},v1=${good}`, `t=${T},v1=${good},v1=${bad}`]) {
        await expect(verifyWebhook(BODY, { ...h, 'X-Service-Signature': header }, SECRET, { now: at() })).resolves.toEqual(CARD_FROZEN);
      }
      await rejection(
        verifyWebhook(BODY, { ...h, 'X-Service-Signature': `t=${T},v1=${bad},v1=${'1'.repeat(64)}` }, SECRET, { now: at() }),
        'signature_mismatch',
      );
    });
  });

  describe('timestamp tolerance (default 300 s, inclusive)', () => {
    // The document: "reject when the timestamp is older than 300 seconds". Exactly 300 s is not older than 300 s,
    // so it is accepted; 301 s is rejected. The same bound applies to timestamps in the future.
    it.each([0, 1, 299, 300, -1, -299, -300])('accepts a receiver clock %i s after t=', async (offset) => {
      await expect(verifyWebhook(BODY, await headersAt(), SECRET, { now: at(offset) })).resolves.toEqual(CARD_FROZEN);
    });

    it.each([301, 302, 3600, 10 ** 9])('rejects a delivery %i s old as timestamp_too_old', async (offset) => {
      const err = await rejection(verifyWebhook(BODY, await headersAt(), SECRET, { now: at(offset) }), 'timestamp_too_old');
      expect(err.message).toContain(`${offset} s old`);
      expect(err.message).toContain('300 s tolerance');
    });

    it.each([-301, -302, -3600])('rejects a delivery stamped %i s ahead as timestamp_too_new', async (offset) => {
      const err = await rejection(verifyWebhook(BODY, await headersAt(), SECRET, { now: at(offset) }), 'timestamp_too_new');
      expect(err.message).toContain(`${-offset} s in the future`);
    });

    it('honours a custom tolerance', async () => {
      const h = await headersAt();
      await expect(verifyWebhook(BODY, h, SECRET, { now: at(60), tolerance: 60 })).resolves.toEqual(CARD_FROZEN);
      await rejection(verifyWebhook(BODY, h, SECRET, { now: at(61), tolerance: 60 }), 'timestamp_too_old');
      await rejection(verifyWebhook(BODY, h, SECRET, { now: at(-61), tolerance: 60 }), 'timestamp_too_new');
      await rejection(verifyWebhook(BODY, h, SECRET, { now: at(1), tolerance: 0 }), 'timestamp_too_old');
    });

    it('uses the system clock by default', async () => {
      const now = Math.floor(Date.now() / 1000);
      await expect(verifyWebhook(BODY, await headersAt(now), SECRET)).resolves.toEqual(CARD_FROZEN);
      await rejection(verifyWebhook(BODY, await headersAt(now - 3600), SECRET), 'timestamp_too_old');
    });

    it('refuses a negative or NaN tolerance', async () => {
      const h = await headersAt();
      await expect(verifyWebhook(BODY, h, SECRET, { tolerance: -1 })).rejects.toThrow(RangeError);
      await expect(verifyWebhook(BODY, h, SECRET, { tolerance: Number.NaN })).rejects.toThrow(RangeError);
    });
  });

  describe('each rejection reason', () => {
    it('missing_signature: no X-Service-Signature header', async () => {
      const { 'X-Service-Signature': _s, ...rest } = await headersAt();
      const err = await rejection(verifyWebhook(BODY, rest, SECRET, { now: at() }), 'missing_signature');
      expect(err.message).toContain('X-Service-Signature header is missing');
      await rejection(verifyWebhook(BODY, { ...rest, 'X-Service-Signature': '  ' }, SECRET, { now: at() }), 'missing_signature');
      await rejection(verifyWebhook(BODY, new Headers(), SECRET, { now: at() }), 'missing_signature');
    });

    it.each([
      ['no t= part', `v1=${'a'.repeat(64)}`, 'no t=<timestamp>'],
      ['a part without =', `t=${T},garbage`, 'not a key=value pair'],
      ['a non-numeric t=', `t=yesterday,v1=${'a'.repeat(64)}`, 'not a timestamp in whole seconds'],
      ['a fractional t=', `t=${T}.5,v1=${'a'.repeat(64)}`, 'not a timestamp in whole seconds'],
      ['two t= parts', `t=${T},t=${T},v1=${'a'.repeat(64)}`, 'more than one t='],
      ['a bare hex value', 'a'.repeat(64), 'not a key=value pair'],
    ])('malformed_signature: %s', async (_name, header, phrase) => {
      const h = await headersAt();
      const err = await rejection(
        verifyWebhook(BODY, { ...h, 'X-Service-Signature': header }, SECRET, { now: at() }),
        'malformed_signature',
      );
      expect(err.message).toContain(phrase);
      expect(err.message).toContain('X-Service-Signature');
    });

    it.each([
      ['only t=', `t=${T}`, ''],
      ['an empty v1=', `t=${T},v1=`, ''],
      ['another scheme only', `t=${T},v0=${'a'.repeat(64)}`, 'found only: v0='],
    ])('no_v1_signature: %s', async (_name, header, phrase) => {
      const h = await headersAt();
      const err = await rejection(verifyWebhook(BODY, { ...h, 'X-Service-Signature': header }, SECRET, { now: at() }), 'no_v1_signature');
      expect(err.message).toContain('has no v1= signature');
      expect(err.message).toContain(phrase);
    });

    it('signature_mismatch: wrong secret, and the message names the likely mistakes', async () => {
      const err = await rejection(verifyWebhook(BODY, await headersAt(), OTHER_SECRET, { now: at() }), 'signature_mismatch');
      expect(err.message).toMatch(/wrong endpoint secret/);
      expect(err.message).toMatch(/re-serialised/);
      expect(err.message).toMatch(/whitespace/);
    });

    it('signature_mismatch: body re-serialised (pretty-printed JSON of the same event)', async () => {
      const h = await headersAt();
      await rejection(verifyWebhook(JSON.stringify(CARD_FROZEN, null, 2), h, SECRET, { now: at() }), 'signature_mismatch');
      await rejection(verifyWebhook(`${BODY}\n`, h, SECRET, { now: at() }), 'signature_mismatch');
    });

    it('signature_mismatch: whitespace around the secret is pointed out first', async () => {
      const err = await rejection(verifyWebhook(BODY, await headersAt(), `${SECRET}\n`, { now: at() }), 'signature_mismatch');
      expect(err.message).toMatch(/Likely causes: whitespace around the secret/);
    });

    it('signature_mismatch: an API key instead of a whsec_ secret is pointed out', async () => {
      const err = await rejection(verifyWebhook(BODY, await headersAt(), 'sk_test_abc', { now: at() }), 'signature_mismatch');
      expect(err.message).toMatch(/starts with whsec_/);
    });

    it('signature_mismatch: uppercase hex is not the documented lowercase form', async () => {
      const h = await headersAt();
      await rejection(
        verifyWebhook(
          BODY,
          { ...h, 'X-Service-Signature': h['X-Service-Signature'].toUpperCase().replace('T=', 't=').replace('V1=', 'v1=') },
          SECRET,
          {
            now: at(),
          },
        ),
        'signature_mismatch',
      );
    });

    it('signature_mismatch is reported before the timestamp check (a forged old delivery is a mismatch)', async () => {
      await rejection(verifyWebhook(BODY, await headersAt(), OTHER_SECRET, { now: at(10_000) }), 'signature_mismatch');
    });

    it('timestamp_header_mismatch: X-Service-Timestamp differs from t=', async () => {
      const h = await headersAt();
      const err = await rejection(
        verifyWebhook(BODY, { ...h, 'X-Service-Timestamp': String(T + 1) }, SECRET, { now: at() }),
        'timestamp_header_mismatch',
      );
      expect(err.message).toContain(`differs from t=${T}`);
      await rejection(verifyWebhook(BODY, { ...h, 'X-Service-Timestamp': '' }, SECRET, { now: at() }), 'timestamp_header_mismatch');
    });

    it.each([
      ['a parsed object (express.json ran first)', CARD_FROZEN, 'got an object'],
      ['a parsed array', [CARD_FROZEN], 'got an array'],
      ['undefined (no body read)', undefined, 'got undefined'],
      ['null', null, 'got null'],
      ['a number', 42, 'got number'],
    ])('body_not_raw: %s', async (_name, body, phrase) => {
      const err = await rejection(verifyWebhook(body as never, await headersAt(), SECRET, { now: at() }), 'body_not_raw');
      expect(err.message).toContain(phrase);
      expect(err.message).toContain('raw request body');
      expect(err.message).toContain('express.raw');
    });

    it('body_not_raw names the JSON body parser pitfall for a parsed object', async () => {
      const err = await rejection(verifyWebhook(CARD_FROZEN as never, await headersAt(), SECRET, { now: at() }), 'body_not_raw');
      expect(err.message).toMatch(/express\.json\(\)/);
      expect(err.message).toMatch(/JSON\.parse/);
    });

    it.each([
      ['not JSON', 'not json', 'not UTF-8 JSON'],
      ['JSON but not an object', '[1,2]', 'JSON array, not an event object'],
      ['JSON null', 'null', 'JSON null'],
    ])('invalid_json: a correctly signed body that is %s', async (_name, body, phrase) => {
      const err = await rejection(verifyWebhook(body, await headersAt(T, body), SECRET, { now: at() }), 'invalid_json');
      expect(err.message).toContain('signature is valid');
      expect(err.message).toContain(phrase);
    });

    it('invalid_json: a correctly signed body that is not UTF-8', async () => {
      const bytes = new Uint8Array([0x7b, 0xff, 0x7d]);
      const headers = await signWebhook(bytes, SECRET, { timestamp: T });
      const err = await rejection(verifyWebhook(bytes, headers, SECRET, { now: at() }), 'invalid_json');
      expect(err.message).toContain('not UTF-8 JSON');
    });

    it.each([
      ['an empty string', ''],
      ['an empty list', []],
      ['undefined (unset env variable)', undefined],
      ['a list with an empty string', [SECRET, '']],
    ])('invalid_secret: %s', async (_name, secret) => {
      const err = await rejection(verifyWebhook(BODY, await headersAt(), secret as never, { now: at() }), 'invalid_secret');
      expect(err.message).toContain('No endpoint secret');
    });
  });

  describe('signWebhook', () => {
    it('produces the three delivery headers with the documented formats', async () => {
      const h = await signWebhook(BODY, SECRET, { timestamp: T });
      expect(Object.keys(h).sort()).toEqual(['X-Service-Idempotency-Key', 'X-Service-Signature', 'X-Service-Timestamp']);
      expect(h['X-Service-Signature']).toMatch(new RegExp(`^t=${T},v1=[0-9a-f]{64}$`));
      expect(h['X-Service-Timestamp']).toBe(String(T));
      expect(h['X-Service-Idempotency-Key']).toMatch(/^idem_[0-9a-f]{32}$/);
    });

    it('defaults to the current time and a fresh idempotency key per call', async () => {
      const before = Math.floor(Date.now() / 1000);
      const a = await signWebhook(BODY, SECRET);
      const b = await signWebhook(BODY, SECRET);
      expect(Number(a['X-Service-Timestamp'])).toBeGreaterThanOrEqual(before);
      expect(Number(a['X-Service-Timestamp'])).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
      expect(a['X-Service-Idempotency-Key']).not.toBe(b['X-Service-Idempotency-Key']);
    });

    it('signEvent serialises the event and signs exactly that string', async () => {
      const { body, headers } = await signEvent(CARD_FROZEN, SECRET, { timestamp: T, idempotencyKey: 'idem_x' });
      expect(body).toBe(BODY);
      expect(headers).toEqual(await signWebhook(BODY, SECRET, { timestamp: T, idempotencyKey: 'idem_x' }));
      await expect(verifyWebhook(body, headers, SECRET, { now: at() })).resolves.toEqual(CARD_FROZEN);
    });

    it('refuses a fractional timestamp and an empty secret', async () => {
      await expect(signWebhook(BODY, SECRET, { timestamp: 1.5 })).rejects.toThrow(RangeError);
      await expect(signWebhook(BODY, '')).rejects.toThrow(TypeError);
    });
  });
});
