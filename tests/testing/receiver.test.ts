// The test kit's webhook receiver on its own, fed by hand-signed deliveries: what it keeps, what it refuses,
// and what a test is told when a wait gives up.
import { afterEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing/index.js';
import { signWebhook } from '../../src/webhooks/index.js';
import { BODY, CARD_FROZEN, OTHER_SECRET, SECRET } from '../webhooks/support.ts';

let receiver: WebhookReceiver;
afterEach(() => receiver?.close());

async function deliver(body: string, secret: string, idempotencyKey?: string): Promise<number> {
  const headers = await signWebhook(body, secret, idempotencyKey === undefined ? {} : { idempotencyKey });
  const response = await fetch(receiver.url, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body });
  return response.status;
}

describe('the webhook receiver of the test kit', () => {
  it('keeps a verified event once, and every delivery of it in arrival order', async () => {
    receiver = await startWebhookReceiver({ secret: SECRET });
    expect(await deliver(BODY, SECRET, 'idem_a')).toBe(204);
    expect(await deliver(BODY, SECRET, 'idem_a')).toBe(204);
    expect(receiver.events).toEqual([CARD_FROZEN]);
    expect(receiver.deliveries.map((d) => [d.idempotencyKey, d.copy])).toEqual([
      ['idem_a', 1],
      ['idem_a', 2],
    ]);
    expect(receiver.duplicates()).toBe(1);
    expect(receiver.counts()).toEqual({ [CARD_FROZEN.type as string]: 1 });
  });

  it('answers 400 to a wrong signature and to a body that is not JSON, and keeps neither as an event', async () => {
    receiver = await startWebhookReceiver({ secret: SECRET });
    expect(await deliver(BODY, OTHER_SECRET)).toBe(400);
    expect(await deliver('not json', SECRET)).toBe(400);
    expect(receiver.events).toEqual([]);
    expect(receiver.rejected.map((r) => r.type)).toEqual([CARD_FROZEN.type, undefined]);
    expect(receiver.rejected[0]!.code).toBe('signature_mismatch');
  });

  it('acknowledges deliveries before it has a secret, without keeping them', async () => {
    receiver = await startWebhookReceiver();
    expect(await deliver(BODY, SECRET)).toBe(204);
    expect(receiver.unverified).toBe(1);
    expect(receiver.events).toEqual([]);
  });

  it('answers 404 to another path or method', async () => {
    receiver = await startWebhookReceiver({ secret: SECRET });
    expect((await fetch(receiver.url, { method: 'GET' })).status).toBe(404);
    expect((await fetch(new URL('/elsewhere', receiver.url), { method: 'POST', body: BODY })).status).toBe(404);
  });

  it('resolves a wait with an event that arrives after it began', async () => {
    receiver = await startWebhookReceiver({ secret: SECRET });
    const waiting = receiver.waitForEvent(CARD_FROZEN.type as 'card.frozen', { card_code: (CARD_FROZEN.data as any).card_code });
    await deliver(BODY, SECRET);
    expect(await waiting).toEqual(CARD_FROZEN);
  });

  it('says, when a wait gives up, what did arrive, the first rejection, and that no secret is set', async () => {
    receiver = await startWebhookReceiver({ secret: SECRET });
    await deliver(BODY, SECRET);
    await deliver(BODY, OTHER_SECRET);
    await expect(receiver.waitForEvent('card.activated', undefined, { timeout: 50 })).rejects.toThrow(
      new RegExp(`no card.activated event arrived within 50 ms; received ${CARD_FROZEN.type} ×1; 1 delivery\\(ies\\) rejected`),
    );
    await expect(receiver.waitForDeliveries(3, { timeout: 50 })).rejects.toThrow(
      'waitForDeliveries: 1 of 3 deliveries arrived within 50 ms.',
    );
    receiver.secret = undefined;
    await expect(receiver.waitForEvent('card.activated', undefined, { timeout: 50 })).rejects.toThrow(
      'call register() or set receiver.secret',
    );
  });
});
