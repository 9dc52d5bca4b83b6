// The run's webhook receiver (scripts/conformance/receiver.ts): it records every delivery and answers as the
// workflows need; its check passes an event that arrived signed with a known secret, in time, with one idempotency
// key and a payload valid against the contract's event schema, and names each way a delivery can fail that.
import { contractModel } from '../../src/contract/model.ts';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventChecker,
  pingTypeOf,
  RECEIVER_PATHS,
  startReceiver,
  type ReceivedDelivery,
  type Receiver,
} from '../../scripts/conformance/receiver.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';
import { signWebhook } from '../../src/webhooks/index.ts';

const bundle = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', 'openapi.json'), 'utf8')) as JsonObject;
/** The contract's own example of card.frozen: a payload valid against its schema. */
const EXAMPLE = (contractModel(bundle).schema('card.frozen')!.node['examples'] as Record<string, unknown>[])[0]!;
const SECRET = 'whsec_test_receiver_secret';
const checker = new EventChecker(bundle);
/** The ping's type, as the contract's `x-ping` schema gives it. */
const PING = pingTypeOf(bundle);

async function delivery(
  event: Record<string, unknown>,
  options: { secret?: string; key?: string | null; at?: number; path?: string } = {},
): Promise<ReceivedDelivery> {
  const body = JSON.stringify(event);
  const headers = await signWebhook(body, options.secret ?? SECRET, options.key ? { idempotencyKey: options.key } : {});
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  if (options.key === null) delete lower['x-service-idempotency-key'];
  return { path: options.path ?? '/hooks/workflows', headers: lower, body, receivedAt: options.at ?? Date.now() };
}

const check = (deliveries: ReceivedDelivery[], secrets = [SECRET]) =>
  checker.check([{ id: String(EXAMPLE.id), type: 'card.frozen' }], deliveries, secrets, '/hooks/workflows');

describe('the receiver', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver(0, PING);
  });
  afterAll(() => receiver.close());

  const post = (p: string, body: unknown) =>
    fetch(`${receiver.url}${p}`, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.status);

  it('acknowledges deliveries, refuses everything on the refusing path, and only the ping on the failing path', async () => {
    expect(await post('/hooks/workflows', EXAMPLE)).toBe(204);
    expect(await post(`/hooks/workflows${RECEIVER_PATHS.refuse}`, { type: PING })).toBe(500);
    expect(await post(`/hooks/workflows${RECEIVER_PATHS.flaky}`, { type: PING })).toBe(204);
    expect(await post(`/hooks/workflows${RECEIVER_PATHS.flaky}`, EXAMPLE)).toBe(500);
    expect(receiver.deliveries.map((d) => d.path)).toEqual([
      '/hooks/workflows',
      '/hooks/workflows/refuse',
      '/hooks/workflows/flaky',
      '/hooks/workflows/flaky',
    ]);
    expect(JSON.parse(receiver.deliveries[0]!.body)).toEqual(EXAMPLE);
  });
});

describe('the event check', () => {
  it('passes an event delivered signed, in time, with its idempotency key, valid against its schema (and its retry)', async () => {
    const first = await delivery(EXAMPLE, { key: 'idem_1' });
    const retry = await delivery(EXAMPLE, { key: 'idem_1' });
    expect(await check([first, retry])).toEqual([{ id: EXAMPLE.id, type: 'card.frozen', outcome: 'passed', problems: [] }]);
  });

  it("fails an event that never arrived, or arrived only outside the run's endpoints", async () => {
    const [result] = await check([await delivery(EXAMPLE, { path: '/somewhere/else' })]);
    expect(result!.problems).toEqual([`card.frozen ${EXAMPLE.id}: never arrived at the receiver`]);
  });

  it('fails a delivery signed with another secret', async () => {
    const [result] = await check([await delivery(EXAMPLE, { secret: 'whsec_other' })]);
    expect(result!.problems.join('\n')).toMatch(/not verified: .*signature/i);
  });

  it('fails a delivery verified too late (a timestamp older than 300 seconds when it arrived)', async () => {
    const [result] = await check([await delivery(EXAMPLE, { at: Date.now() + 301_000 })]);
    expect(result!.problems.join('\n')).toMatch(/not verified: .*(old|tolerance|300)/i);
  });

  it('fails deliveries of one event with different idempotency keys, or without one', async () => {
    const [changed] = await check([await delivery(EXAMPLE, { key: 'idem_1' }), await delivery(EXAMPLE, { key: 'idem_2' })]);
    expect(changed!.problems).toEqual([`card.frozen ${EXAMPLE.id}: deliveries with different idempotency keys (idem_1, idem_2)`]);
    const [missing] = await check([await delivery(EXAMPLE, { key: null })]);
    expect(missing!.problems).toContain(`card.frozen ${EXAMPLE.id}: a delivery without X-Service-Idempotency-Key`);
  });

  it('fails an idempotency key that another event also uses', async () => {
    const other = { ...EXAMPLE, id: 'evt_00000000-0000-4000-8000-000000000000' };
    const [result] = await check([await delivery(EXAMPLE, { key: 'idem_1' }), await delivery(other, { key: 'idem_1' })]);
    expect(result!.problems).toEqual([`card.frozen ${EXAMPLE.id}: idempotency key idem_1 also used by ${other.id}`]);
  });

  it('fails a payload that its event schema refuses', async () => {
    const { card_code: _dropped, ...data } = EXAMPLE.data as Record<string, unknown>;
    const [result] = await check([await delivery({ ...EXAMPLE, data })]);
    expect(result!.problems.join('\n')).toMatch(/payload invalid: .*card_code/);
  });
});
