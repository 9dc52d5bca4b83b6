// The OpenAPI webhooks: each acknowledges any 2XX, has a description, and carries signed delivery header
// examples that the toolkit's verifier accepts over the webhook's example body (the compact JSON of its event
// example), with the example secret named in the signature example (the clock is pinned to `t=`).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvents } from '../../scripts/build/spec-events.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import { exampleEvents } from '../../scripts/lib/openapi-examples.ts';
import { get, type JsonObject } from '../../scripts/lib/pointer.ts';
import { contractModel } from '../../src/contract/model.ts';
import { verifyWebhook } from '../../src/webhooks/index.ts';
import { built } from './helpers.ts';

const workspace = process.env['CONTRACT_WORKSPACE'] ?? ROOT;

const EXAMPLE_SECRET = /(whsec_example_[0-9a-f]+)/;

interface SignedWebhook {
  secret: string | undefined;
  headers: Record<string, string>;
  body: string;
}

function signedWebhooks(openapi: JsonObject): [string, SignedWebhook][] {
  const bodies = new Map(exampleEvents(openapi).map((e) => [e.type, JSON.stringify(e.event)]));
  return contractModel(openapi)
    .webhooks.filter((w) => w.method === 'post')
    .map((webhook) => {
      const headers: Record<string, string> = {};
      let secret: string | undefined;
      for (const param of webhook.parameters.filter((p) => p.in === 'header')) {
        const [example] = param.examples;
        if (typeof example?.value !== 'string') continue;
        headers[param.name] = example.value;
        secret ??= EXAMPLE_SECRET.exec(String(get(openapi, `${example.pointer}/summary`) ?? ''))?.[1];
      }
      return [webhook.path, { secret, headers, body: bodies.get(webhook.path) ?? '' }];
    });
}

describe('OpenAPI webhooks', () => {
  const { openapi } = built();
  const webhooks = signedWebhooks(openapi);
  const ops = contractModel(openapi)
    .webhooks.filter((w) => w.method === 'post')
    .map((w) => [w.path, w.node] as const);

  it('acknowledge with any 2XX and describe when they are sent', () => {
    expect(ops).toHaveLength(readEvents(path.join(workspace, 'spec')).length);
    for (const [name, op] of ops) {
      expect(Object.keys(op['responses'] as JsonObject), name).toEqual(['2XX']);
      expect(String(op['description'] ?? ''), name).toMatch(/^Sent (when|after|for) /);
    }
  });

  it.each(webhooks)('%s: its header examples verify over its example body', async (_name, webhook) => {
    expect(webhook.secret, 'the signature example names the example secret').toBeDefined();
    expect(Object.keys(webhook.headers).sort()).toEqual(['X-Service-Idempotency-Key', 'X-Service-Signature', 'X-Service-Timestamp']);
    const now = () => Number(webhook.headers['X-Service-Timestamp']);
    const event = await verifyWebhook(webhook.body, webhook.headers, webhook.secret!, { now });
    expect(JSON.stringify(event)).toBe(webhook.body);
  });

  it('a header example that does not match its body is rejected', async () => {
    const [[, first], [, second]] = webhooks as [[string, SignedWebhook], [string, SignedWebhook]];
    const now = () => Number(second.headers['X-Service-Timestamp']);
    await expect(verifyWebhook(first.body, second.headers, second.secret!, { now })).rejects.toMatchObject({ code: 'signature_mismatch' });
  });
});
