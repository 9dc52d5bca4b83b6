// The events page (site/asyncapi.html) generated from the AsyncAPI bundle: every event with its anchor, its
// navigation entry, its payload rows, its example and its signed headers; markdown rendered; text escaped.
import { describe, expect, it } from 'vitest';
import { eventsPage, fieldRows, readEvents, renderMarkdown } from '../../scripts/docs/events-page.ts';
import { deref, isObject, type Json, type JsonObject } from '../../scripts/lib/pointer.ts';
import { built } from '../contract/helpers.ts';

type Message = { name: string; tag: string; message: JsonObject };

/** The messages of the bundle's `send` operations, with the name of each operation's tag. */
function messages(doc: JsonObject): Message[] {
  return Object.values(doc.operations as JsonObject).flatMap((raw) => {
    const op = deref(doc, raw) as JsonObject;
    const tag = deref(doc, (op.tags as Json[])[0]) as JsonObject;
    return (op.messages as Json[]).map((ref) => {
      const message = deref(doc, ref) as JsonObject;
      return { name: String(message.name), tag: String(tag.name), message };
    });
  });
}

/** The HTML of one event's section. */
function section(html: string, name: string): string {
  const start = html.indexOf(`<section class="event" id="${name}">`);
  expect(start, `section of ${name}`).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf('</section>', start));
}

/** Dotted paths of every key of a JSON value (`data.transaction.amount`; array items as `[]`). */
function paths(value: Json | undefined, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => paths(item, `${prefix}[].`));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, v]) => [`${prefix}${key}`, ...paths(v, `${prefix}${key}.`)]);
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

describe('the events page', () => {
  const asyncapi = built().asyncapi;
  const html = eventsPage(asyncapi);
  const all = messages(asyncapi);

  it('has a section with its own anchor and a navigation entry for each of the 33 events', () => {
    expect(all).toHaveLength(33);
    const nav = html.slice(html.indexOf('<nav class="sidebar"'), html.indexOf('</nav>'));
    const navTargets = [...nav.matchAll(/<a href="#([^"]+)"/g)].map((m) => m[1]);
    const sections = [...html.matchAll(/<section class="event" id="([^"]+)">/g)].map((m) => m[1]);
    expect(sections).toEqual(all.map((m) => m.name));
    for (const { name } of all) {
      expect(navTargets, `nav entry of ${name}`).toContain(name);
      expect(section(html, name)).toContain(`<a class="anchor" href="#${name}">`);
    }
  });

  it('groups the navigation by the tag of each operation, in the order of the operations', () => {
    const groups = readEvents(asyncapi);
    expect(groups.map((g) => g.name)).toEqual([...new Set(all.map((m) => m.tag))]);
    expect(groups.map((g) => g.name)).toEqual(['KYC events', 'POA events', 'Card events', 'Wallet events',
      'Virtual account events', 'Gift card events', 'Balance events']);
    for (const group of groups) {
      expect(group.events.map((e) => e.name)).toEqual(all.filter((m) => m.tag === group.name).map((m) => m.name));
      expect(html).toContain(`<h2>${group.name}</h2>`);
    }
  });

  it('lists a payload row for every field of the example, with its type and whether it is required', () => {
    for (const event of readEvents(asyncapi).flatMap((g) => g.events)) {
      const rows = new Map(event.fields.map((f) => [f.name, f]));
      const example = paths(event.example?.payload);
      expect(example.length, `example of ${event.name}`).toBeGreaterThan(5);
      expect(example.filter((p) => !rows.has(p)), `fields of the ${event.name} example without a row`).toEqual([]);
      for (const envelope of ['id', 'type', 'created_at', 'data', 'mode']) expect(rows.get(envelope)?.required).toBe(true);
      expect(rows.get('type')?.values).toEqual([JSON.stringify(event.name)]);
      const part = section(html, event.name);
      for (const row of event.fields) expect(part).toContain(`<code>${escapeText(row.name).replace(/\./g, '.<wbr>')}</code>`);
    }
    const transaction = readEvents(asyncapi).flatMap((g) => g.events).find((e) => e.name === 'card.transaction')!;
    const row = (name: string) => transaction.fields.find((f) => f.name === name)!;
    expect(row('data.transaction.merchant_city')).toMatchObject({ type: 'string or null', required: true });
    expect(row('data.card_code').type).toBe('string (uuid)');
    expect(row('data.reference')).toMatchObject({ required: false, provisional: true });
    expect(row('data.balance').description).toMatch(/after the operation/); // the event's own, not the base's
    expect(row('data.transaction.type').values).toEqual(['settle', 'auth', 'decline', 'refund', 'fee', 'auth_fee', 'fx_fee'].map((v) => JSON.stringify(v)));
  });

  it('shows the example payload and the signed headers, with the example values, for every event', () => {
    for (const { name, message } of all) {
      const part = section(html, name);
      const example = (message.examples as JsonObject[])[0]!;
      expect(part).toContain(escapeText(JSON.stringify(example.payload, null, 2)));
      const headers = deref(asyncapi, message.headers) as JsonObject;
      const names = Object.keys(headers.properties as JsonObject);
      expect(names).toEqual(['X-Service-Signature', 'X-Service-Timestamp', 'X-Service-Idempotency-Key']);
      const table = part.slice(part.indexOf('<h4>Signed headers</h4>'), part.indexOf('<div class="example">'));
      for (const header of names) {
        expect(table).toContain(`<code>${header}</code>`);
        expect(part).toContain(escapeText(`${header}: ${String((example.headers as JsonObject)[header])}`));
      }
      expect(part).toContain('POST /webhooks/partner-api HTTP/1.1\nHost: partner.example.com');
      expect(part).toMatch(/operation <code>send\w+<\/code> \(send\)/);
    }
  });

  it('renders markdown: no literal backtick anywhere on the page', () => {
    expect(html).not.toContain('`');
    expect(section(html, 'card.transaction')).toContain('<code>balance</code> is the card balance after the operation');
    expect(html).toContain('<h2 id="verification-rules">Verification rules</h2>');
    expect(renderMarkdown('Use `POST /webhooks` and **2xx**.')).toBe('<p>Use <code>POST /webhooks</code> and <strong>2xx</strong>.</p>\n');
  });

  it('badges the events whose payload is provisional, and no other', () => {
    const provisional = readEvents(asyncapi).flatMap((g) => g.events).filter((e) => e.provisional).map((e) => e.name);
    expect(provisional).toEqual(['card.withdrawal.completed', 'card.withdrawal.failed', 'card.termination_pending',
      'wallet.withdrawal_failed', 'virtual_account.deposit_received', 'virtual_account.transfer_completed',
      'virtual_account.transfer_failed', 'gift_card.delivered', 'gift_card.failed', 'gift_card.refunded', 'balance.low_balance']);
    expect(section(html, 'card.withdrawal.completed')).toMatch(/<\/a> <span class="badge">Provisional<\/span><\/h3>/);
    expect(section(html, 'card.frozen')).not.toMatch(/<\/a> <span class="badge">/);
  });
});

describe('the events page from a hand-made document', () => {
  const doc = {
    asyncapi: '3.0.0',
    info: { title: 'T <b>', version: '1', description: 'Intro with <img src=x onerror=alert(1)> and `code`.\n\n## Part one\n\nText.' },
    servers: { s: { host: 'h.example', pathname: '/p', protocol: 'https' } },
    channels: { c: { servers: [{ $ref: '#/servers/s' }], messages: { m: { $ref: '#/components/messages/m' } } } },
    operations: {
      sendM: { action: 'send', channel: { $ref: '#/channels/c' }, tags: [{ name: 'Group "A"' }], messages: [{ $ref: '#/channels/c/messages/m' }] },
    },
    components: {
      messages: {
        m: {
          name: 'thing.<done>',
          summary: 'Done <script>alert(1)</script> by `thing`',
          headers: { type: 'object', required: ['X-Sig'], properties: { 'X-Sig': { type: 'string', description: 'The `sig`.' } } },
          payload: { $ref: '#/components/schemas/Payload' },
          examples: [{ headers: { 'X-Sig': 'a"b<c' }, payload: { data: { note: '</code></pre><script>x</script>' } } }],
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
                { type: 'object', properties: { code: { description: 'Own code.' }, items: { type: 'array', items: { type: 'object', required: ['x'], properties: { x: { type: ['integer', 'null'] } } } } } },
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

  it('escapes every text it writes, and shows raw HTML of markdown as text', () => {
    const html = eventsPage(doc);
    expect(html).not.toMatch(/<script|<img|<i>|<b>/);
    expect(html).toContain('<p class="summary">Done &lt;script&gt;alert(1)&lt;/script&gt; by <code>thing</code></p>');
    expect(html).toContain('title="Done &lt;script&gt;alert(1)&lt;/script&gt; by thing"'); // the nav entry's tooltip
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<section class="event" id="thing.&lt;done&gt;">');
    expect(html).toContain('<h2>Group &quot;A&quot;</h2>');
    expect(html).toContain('X-Sig: a&quot;b&lt;c');
    expect(html).toContain('&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;x&lt;/script&gt;');
    expect(html).toContain('<p>The <code>sig</code>.</p>');
    expect(html).toContain('POST /p HTTP/1.1\nHost: h.example');
    expect(html).toContain('<a href="#part-one">Part one</a>');
  });
});
