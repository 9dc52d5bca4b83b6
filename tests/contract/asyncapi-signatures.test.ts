// The AsyncAPI message examples carry real delivery headers, signed by the build (scripts/build/spec-events.ts)
// with the example secret written in the document's info over the compact JSON of each payload. The
// toolkit's own verifier checks them, so the build signs as the service and the toolkit say (the clock is
// pinned to `t=`, since the examples are older than the 300 s tolerance).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvents } from '../../scripts/build/spec-events.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import { verifyWebhook } from '../../src/webhooks/index.ts';
import { built } from './helpers.ts';

const workspace = process.env['CONTRACT_WORKSPACE'] ?? ROOT;

const EXAMPLE_SECRET = /`(whsec_example_[0-9a-f]+)`/;

interface MessageExample {
  name?: string;
  headers: Record<string, string>;
  payload: Record<string, unknown>;
}

function messageExamples(): { secret: string; examples: [string, MessageExample][] } {
  const { asyncapi } = built();
  const info = asyncapi.info as unknown as { description: string };
  const secret = EXAMPLE_SECRET.exec(info.description)?.[1];
  if (!secret) throw new Error('the AsyncAPI info no longer names the example secret (whsec_example_...)');
  const messages = (asyncapi.components as unknown as { messages: Record<string, { examples?: MessageExample[] }> }).messages;
  const examples = Object.entries(messages).flatMap(([name, message]) =>
    (message.examples ?? []).map((example): [string, MessageExample] => [name, example]),
  );
  return { secret, examples };
}

const timestampOf = (example: MessageExample) => Number(example.headers['X-Service-Timestamp']);

describe('AsyncAPI message examples', () => {
  const { secret, examples } = messageExamples();

  it('has one signed example per message, one message per event of spec/events/index.yaml', () => {
    expect(examples).toHaveLength(readEvents(path.join(workspace, 'spec')).length);
  });

  it.each(examples)('%s: its headers verify over its payload with the example secret', async (_name, example) => {
    const body = JSON.stringify(example.payload);
    const event = await verifyWebhook(body, example.headers, secret, { now: () => timestampOf(example) });
    expect(event).toEqual(example.payload);
  });

  it('a payload edited without re-signing is rejected', async () => {
    const [, example] = examples[0]!;
    const edited = JSON.stringify({ ...example.payload, mode: example.payload['mode'] === 'live' ? 'test' : 'live' });
    await expect(verifyWebhook(edited, example.headers, secret, { now: () => timestampOf(example) })).rejects.toMatchObject({
      code: 'signature_mismatch',
    });
  });
});
