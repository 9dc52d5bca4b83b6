// The events pages (scripts/docs/events-page.ts) generated from the AsyncAPI bundle: an overview and one page
// per group, every event with its section, its payload rows, its signed headers, and an example delivery that
// verifies byte for byte as shown; markdown rendered; text escaped; the former address sent on.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvents as readEventsIndex } from '../../scripts/build/spec-events.ts';
import {
  eventsPages,
  exampleRequest,
  exampleSecret,
  fieldRows,
  legacyEventsRedirect,
  readEvents,
  renderMarkdown,
} from '../../scripts/docs/events-page.ts';
import { isObject, type Json, type JsonObject } from '../../scripts/lib/pointer.ts';
import { contractModel } from '../../src/contract/model.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import { verifyWebhook } from '../../src/webhooks/index.ts';
import { built } from '../contract/helpers.ts';

type Message = { name: string; tag: string; message: JsonObject };

/** The messages of the bundle's `send` operations, with the name of each operation's tag. */
function messages(doc: JsonObject): Message[] {
  return Object.values(doc.operations as JsonObject).flatMap((raw) => {
    const model = contractModel(doc);
    const op = model.resolve(raw).node as JsonObject;
    const tag = model.resolve((op.tags as Json[])[0]).node as JsonObject;
    return (op.messages as Json[]).map((ref) => {
      const message = model.resolve(ref).node as JsonObject;
      return { name: String(message.name), tag: String(tag.name), message };
    });
  });
}

/** The markdown of one event's section on its page. */
function section(body: string, name: string): string {
  const start = body.indexOf(`## \`${name}\``);
  expect(start, `section of ${name}`).toBeGreaterThanOrEqual(0);
  const next = body.indexOf('\n## ', start + 1);
  return body.slice(start, next < 0 ? undefined : next);
}

/** Dotted paths of every key of a JSON value (`data.transaction.amount`; array items as `[]`). */
function paths(value: Json | undefined, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => paths(item, `${prefix}[].`));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, v]) => [`${prefix}${key}`, ...paths(v, `${prefix}${key}.`)]);
}

/** The example delivery of a section as a reader copies it: the text of its ```http block. */
function copiedDelivery(part: string): string {
  const match = /```+ http[^\n]*\n([\s\S]*?)\n```+/.exec(part);
  expect(match, 'an http block').not.toBeNull();
  return match![1]!;
}

/** An HTTP request as text: its headers (by name) and its body, the bytes after the blank line. */
function parseRequest(text: string): { headers: Record<string, string>; body: string } {
  const blank = text.indexOf('\n\n');
  const headers = Object.fromEntries(
    text
      .slice(0, blank)
      .split('\n')
      .slice(1)
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { headers, body: text.slice(blank + 2) };
}

const escapeText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

describe('the events pages', () => {
  const asyncapi = built().asyncapi;
  const pages = eventsPages(asyncapi);
  const all = messages(asyncapi);
  const pageOf = (name: string) => pages.find((p) => p.events.includes(name))!;

  it('has an overview and a page per group, in the order of the operations, with a section for each event of spec/events/index.yaml', () => {
    expect(all.map((m) => m.name)).toEqual(readEventsIndex(path.join(ROOT, 'spec')).map((e) => e.name));
    expect(pages.map((p) => p.title)).toEqual([
      'Webhook events',
      'KYC events',
      'POA events',
      'Card events',
      'Wallet events',
      'Virtual account events',
      'Gift card events',
      'Balance events',
    ]);
    expect(pages.flatMap((p) => p.events)).toEqual(all.map((m) => m.name));
    for (const { name, tag } of all) {
      expect(pageOf(name).title).toBe(tag);
      section(pageOf(name).body, name);
      // The overview links each event at its anchor, the event's name.
      expect(pages[0]!.body).toContain(`](/${pageOf(name).id}/#${name})`);
    }
  });

  it('lists a payload row for every field of the example, with its type and whether it is required', () => {
    for (const event of readEvents(asyncapi).flatMap((g) => g.events)) {
      const rows = new Map(event.fields.map((f) => [f.name, f]));
      const example = paths(event.example?.payload);
      expect(example.length, `example of ${event.name}`).toBeGreaterThan(5);
      expect(
        example.filter((p) => !rows.has(p)),
        `fields of the ${event.name} example without a row`,
      ).toEqual([]);
      for (const envelope of ['id', 'type', 'created_at', 'data', 'mode']) expect(rows.get(envelope)?.required).toBe(true);
      expect(rows.get('type')?.values).toEqual([JSON.stringify(event.name)]);
      const part = section(pageOf(event.name).body, event.name);
      for (const row of event.fields) expect(part).toContain(`<code>${escapeText(row.name).replace(/\./g, '.<wbr>')}</code>`);
      // The tables are HTML blocks: no blank line inside, or markdown would end them there.
      for (const table of part.match(/<table[\s\S]*?<\/table>/g) ?? []) expect(table).not.toMatch(/\n\s*\n/);
    }
    const transaction = readEvents(asyncapi)
      .flatMap((g) => g.events)
      .find((e) => e.name === 'card.transaction')!;
    const row = (name: string) => transaction.fields.find((f) => f.name === name)!;
    expect(row('data.transaction.merchant_city')).toMatchObject({ type: 'string or null', required: true });
    expect(row('data.card_code').type).toBe('string (uuid)');
    expect(row('data.reference')).toMatchObject({ required: false, provisional: true });
    expect(row('data.balance').description).toMatch(/after the operation/); // the event's own, not the base's
    expect(row('data.transaction.type').values).toEqual(
      ['settle', 'auth', 'decline', 'refund', 'fee', 'auth_fee', 'fx_fee'].map((v) => JSON.stringify(v)),
    );
  });

  it('shows each example delivery as sent: it verifies byte for byte, as copied, with the example secret', async () => {
    const secret = exampleSecret(asyncapi);
    expect(secret).toMatch(/^whsec_example_/);
    for (const { name, message } of all) {
      const part = section(pageOf(name).body, name);
      expect(part).toContain(`\`${secret}\``);
      const example = (message.examples as JsonObject[])[0]!;
      const { headers, body } = parseRequest(copiedDelivery(part));
      expect(copiedDelivery(part).split('\n').slice(0, 2)).toEqual(['POST /webhooks/partner-api HTTP/1.1', 'Host: partner.example.com']);
      for (const [header, value] of Object.entries(example.headers as JsonObject))
        expect(headers[header], `${name} ${header}`).toBe(String(value));
      const now = () => Number(headers['X-Service-Timestamp']);
      await expect(verifyWebhook(body, headers, secret!, { now }), name).resolves.toEqual(example.payload);
      // The formatted copy shown for reading is not what was signed: it would not verify (the former page's defect).
      await expect(verifyWebhook(JSON.stringify(example.payload, null, 2), headers, secret!, { now })).rejects.toMatchObject({
        code: 'signature_mismatch',
      });
    }
  });

  it('renders markdown of the contract, and names the headers of every delivery', () => {
    const card = pageOf('card.transaction').body;
    expect(section(card, 'card.transaction')).toContain('<code>balance</code> is the card balance after the operation');
    expect(pages[0]!.body).toContain('## Verification rules');
    for (const { name } of all) {
      for (const header of ['X-Service-Signature', 'X-Service-Timestamp', 'X-Service-Idempotency-Key']) {
        expect(section(pageOf(name).body, name)).toContain(`<code>${header}</code>`);
      }
      expect(section(pageOf(name).body, name)).toMatch(/operation <code>send\w+<\/code> \(send\)/);
    }
    expect(renderMarkdown('Use `POST /webhooks` and **2xx**.')).toBe('<p>Use <code>POST /webhooks</code> and <strong>2xx</strong>.</p>\n');
  });

  it('badges the events whose payload is provisional, and no other', () => {
    const provisional = readEvents(asyncapi)
      .flatMap((g) => g.events)
      .filter((e) => e.provisional)
      .map((e) => e.name);
    expect(provisional).toEqual([
      'card.withdrawal.completed',
      'card.withdrawal.failed',
      'card.termination_pending',
      'wallet.withdrawal_failed',
      'virtual_account.deposit_received',
      'virtual_account.transfer_completed',
      'virtual_account.transfer_failed',
      'gift_card.delivered',
      'gift_card.failed',
      'gift_card.refunded',
      'balance.low_balance',
    ]);
    const badged = (name: string) => section(pageOf(name).body, name).split('\n')[2]!.startsWith('<span class="badge-provisional">');
    expect(badged('card.withdrawal.completed')).toBe(true);
    expect(badged('card.frozen')).toBe(false);
  });

  it('sends the former address asyncapi.html#<event> to the event on its page', () => {
    const html = legacyEventsRedirect(pages);
    const map = JSON.parse(/var m=(\{.*?\});/.exec(html)![1]!) as Record<string, string>;
    expect(Object.keys(map)).toEqual(all.map((m) => m.name));
    expect(map['card.frozen']).toBe('/events/card-events/#card.frozen');
  });
});

describe('the events pages from a hand-made document', () => {
  const doc = {
    asyncapi: '3.0.0',
    info: { title: 'T <b>', version: '1', description: 'Intro.\n\n## Part one\n\nText.' },
    servers: { s: { host: 'h.example', pathname: '/p', protocol: 'https' } },
    channels: { c: { servers: [{ $ref: '#/servers/s' }], messages: { m: { $ref: '#/components/messages/m' } } } },
    operations: {
      sendM: {
        action: 'send',
        channel: { $ref: '#/channels/c' },
        tags: [{ name: 'Group "A"' }],
        messages: [{ $ref: '#/channels/c/messages/m' }],
      },
    },
    components: {
      messages: {
        m: {
          name: 'thing.done',
          summary: 'Done <script>alert(1)</script> by `thing`',
          description: 'Raw <img src=x onerror=alert(1)> and `code`.',
          headers: { type: 'object', required: ['X-Sig'], properties: { 'X-Sig': { type: 'string', description: 'The `sig`.' } } },
          payload: { $ref: '#/components/schemas/Payload' },
          examples: [{ headers: { 'X-Sig': 'a"b<c' }, payload: { data: { note: '```</code></pre><script>x</script>' } } }],
        },
      },
      schemas: {
        Base: { type: 'object', required: ['code'], properties: { code: { type: 'string', format: 'uuid', description: 'Base code.' } } },
        Payload: {
          type: 'object',
          description: 'Payload <i>raw</i>.',
          required: ['data'],
          properties: {
            data: {
              allOf: [
                { $ref: '#/components/schemas/Base' },
                {
                  type: 'object',
                  properties: {
                    code: { description: 'Own code.' },
                    items: { type: 'array', items: { type: 'object', required: ['x'], properties: { x: { type: ['integer', 'null'] } } } },
                  },
                },
                { type: 'object', 'x-provisional': true, properties: { extra: { type: 'string', enum: ['a', 'b'] } } },
              ],
            },
          },
        },
      },
    },
  } as unknown as JsonObject;

  it('merges allOf layers into dotted rows: most specific description, required from any layer, arrays, nullable, provisional layers', () => {
    const rows = fieldRows(doc, { $ref: '#/components/schemas/Payload' });
    expect(rows.map((r) => r.name)).toEqual(['data', 'data.code', 'data.items', 'data.items[].x', 'data.extra']);
    const by = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(by['data.code']).toMatchObject({ type: 'string (uuid)', required: true, description: 'Own code.', provisional: false });
    expect(by['data.items']).toMatchObject({ type: 'array of object', required: false });
    expect(by['data.items[].x']).toMatchObject({ type: 'integer or null', required: true });
    expect(by['data.extra']).toMatchObject({ values: ['"a"', '"b"'], provisional: true });
    expect(by['data']!.provisional).toBe(false); // only a part of it is
    expect(rows.filter((r) => r.provisional).map((r) => r.name)).toEqual(['data.extra']);
  });

  it('escapes the text it writes as HTML, shows raw HTML of markdown as text, and fences code that holds backticks', () => {
    const [overview, page] = eventsPages(doc);
    expect(overview!.body).toContain('## Part one');
    const body = page!.body;
    // Outside its code blocks (which show their text as it is), nothing of the contract is read as HTML.
    expect(body.replace(/(`{3,})[^\n]*\n[\s\S]*?\n\1/g, '')).not.toMatch(/<script|<img|<i>/);
    expect(body).toContain('**Done &lt;script&gt;alert(1)&lt;/script&gt; by <code>thing</code>**');
    expect(body).toContain('Raw &lt;img src=x onerror=alert(1)&gt; and <code>code</code>.');
    expect(body).toContain('<p>The <code>sig</code>.</p>');
    const event = readEvents(doc)[0]!.events[0]!;
    expect(exampleRequest(event)).toBe(
      'POST /p HTTP/1.1\nHost: h.example\nContent-Type: application/json\nX-Sig: a"b<c\n\n{"data":{"note":"```</code></pre><script>x</script>"}}',
    );
    // The example holds three backticks: its block's fence is longer, so the block is not cut short.
    expect(body).toContain('````');
  });

  it('badges an event marked provisional as a whole (on its file), and not one with nothing provisional', () => {
    /** A document of one event whose payload (the event's file) is `payload`. */
    const oneEvent = (payload: JsonObject): JsonObject =>
      ({
        asyncapi: '3.0.0',
        info: { title: 'T', version: '1' },
        servers: { s: { host: 'h.example', pathname: '/p', protocol: 'https' } },
        channels: { c: { servers: [{ $ref: '#/servers/s' }], messages: { m: { $ref: '#/components/messages/m' } } } },
        operations: {
          sendM: {
            action: 'send',
            channel: { $ref: '#/channels/c' },
            tags: [{ name: 'G' }],
            messages: [{ $ref: '#/channels/c/messages/m' }],
          },
        },
        components: { messages: { m: { name: 'thing.done', summary: 'Done', payload } } },
      }) as unknown as JsonObject;
    const payload = { type: 'object', properties: { data: { type: 'object', properties: { note: { type: 'string' } } } } };
    expect(readEvents(oneEvent(payload))[0]!.events[0]!.provisional).toBe(false);
    const whole = oneEvent({ ...payload, 'x-provisional': true, description: 'Provisional: the whole event.' });
    expect(readEvents(whole)[0]!.events[0]!.provisional).toBe(true);
    expect(eventsPages(whole)[1]!.body).toContain('<span class="badge-provisional">Provisional</span> **');
  });
});
