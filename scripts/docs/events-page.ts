// The events pages of the docs site, generated at build time from the AsyncAPI bundle
// (generated/asyncapi.json) as markdown pages of the site (starlight.ts): an overview (delivery, signature,
// verification) and one page per group of events (KYC events, Card events ...), with the same search, look,
// dark mode and copy buttons as the guides.
//
// Each event is a section anchored by its name (`/events/card-events/#card.frozen`) with its summary and
// description, the delivery (method, address, operation), the payload as a table of fields (nested objects
// flattened with dotted names: `data.transaction.amount`), the signed delivery headers, and the example
// delivery exactly as sent: the request line, the headers and the body as the bytes that were signed (the
// compact JSON of the example), so that it verifies as shown, byte for byte.
import { Marked, type Tokens } from 'marked';
import { contractModel } from '../../src/contract/model.ts';
import { isObject, type Json, type JsonObject } from '../lib/pointer.ts';

/** One row of a payload or headers table. */
export interface FieldRow {
  /** Dotted path: `data.transaction.amount`; `[]` marks the items of an array: `data.items[].code`. */
  name: string;
  /** `string (uuid)`, `number`, `string or null`, `object` ... */
  type: string;
  required: boolean;
  /** Markdown, as written in the contract. */
  description: string;
  /** The closed set of values (`const` or `enum`, through `oneOf`), as JSON text. */
  values: string[];
  provisional: boolean;
}

export interface EventDoc {
  /** The event name (`card.frozen`), also the anchor of its section. */
  name: string;
  /** The tag of its operation: `Card events`. */
  group: string;
  operationId: string;
  action: string;
  channel: string;
  method: string;
  /** The channel's address: `https://{endpoint_host}{endpoint_path}`. */
  address: string;
  /** The address with the server variables' defaults: `https://partner.example.com/webhooks/partner-api`. */
  exampleAddress: string;
  contentType: string;
  summary: string;
  /** Markdown: the message's description, else its payload schema's. */
  description: string;
  /**
   * The event is provisional as a whole (`x-provisional` on its file, the payload schema) or some of its payload
   * is (a layer of `data` marked `x-provisional`).
   */
  provisional: boolean;
  fields: FieldRow[];
  headers: FieldRow[];
  example: { headers: Record<string, string>; payload: Json | undefined } | undefined;
}

export interface EventGroup {
  name: string;
  description: string;
  events: EventDoc[];
}

type Layer = { node: JsonObject; own: boolean };

/** A node of the document after its `$ref`s, as the contract model follows them (AsyncAPI's as OpenAPI's). */
const resolved = (doc: JsonObject, node: Json | undefined): Json | undefined => contractModel(doc).resolve(node).node;

/**
 * The layers of a schema, least specific first: the members of its `allOf` (recursively, through `$ref`),
 * then the schema itself. A keyword read from the last layer that has it gives the most specific value.
 */
function layers(doc: JsonObject, schema: Json | undefined, own = true, depth = 0): Layer[] {
  const node = resolved(doc, schema);
  if (!isObject(node) || depth > 20) return [];
  const parts = Array.isArray(node.allOf) ? node.allOf.flatMap((s) => layers(doc, s, false, depth + 1)) : [];
  return [...parts, { node, own }];
}

function last(list: Layer[], key: string): Json | undefined {
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.node[key] !== undefined) return list[i]!.node[key];
  return undefined;
}

/** `const`, `enum` or the values of a `oneOf` of them, from the most specific layer that has any. */
function valuesOf(doc: JsonObject, list: Layer[]): Json[] {
  for (let i = list.length - 1; i >= 0; i--) {
    const node = list[i]!.node;
    if (node.const !== undefined) return [node.const];
    if (Array.isArray(node.enum)) return node.enum;
    if (Array.isArray(node.oneOf)) {
      const branches = node.oneOf.map((s) => valuesOf(doc, layers(doc, s)));
      if (branches.every((b) => b.length > 0)) return branches.flat();
    }
  }
  return [];
}

function typeOf(doc: JsonObject, list: Layer[]): string {
  let type = last(list, 'type');
  if (type === undefined) {
    const oneOf = last(list, 'oneOf');
    const types = Array.isArray(oneOf) ? [...new Set(oneOf.map((s) => typeOf(doc, layers(doc, s))))] : [];
    if (types.length > 0) return types.join(' or ');
    const value = valuesOf(doc, list)[0];
    type = value === undefined ? 'any' : value === null ? 'null' : typeof value;
  }
  const names = (Array.isArray(type) ? type : [type]).map(String);
  const format = last(list, 'format');
  const main = names.filter((t) => t !== 'null').map((t) => (typeof format === 'string' && t === 'string' ? `string (${format})` : t));
  if (names.includes('array')) {
    const items = layers(doc, last(list, 'items'));
    if (items.length > 0) return `array of ${typeOf(doc, items)}`;
  }
  return [...main, ...(names.includes('null') ? ['null'] : [])].join(' or ');
}

/** The type of a schema as the field tables show it: `string (uuid)`, `array of object`, `string or null`. */
export function schemaType(doc: JsonObject, schema: Json | undefined): string {
  return typeOf(doc, layers(doc, schema));
}

/** The closed set of values of a schema (`const`, `enum`, or a `oneOf` of them), as JSON text. */
export function schemaValues(doc: JsonObject, schema: Json | undefined): string[] {
  return valuesOf(doc, layers(doc, schema)).map((v) => JSON.stringify(v));
}

/**
 * The fields of an object schema, flattened: a row per property, then the rows of its properties when it
 * is an object (or an array of objects), with dotted names. `allOf` members are merged: a property is
 * required when any layer requires it, its description is the most specific one written on the property
 * itself (else on a schema it `allOf`s), and it is provisional when the property itself, or every object
 * layer that defines it, is marked `x-provisional`.
 */
export function fieldRows(doc: JsonObject, schema: Json | undefined, prefix = '', depth = 0): FieldRow[] {
  const objectLayers = layers(doc, schema);
  const required = new Set(objectLayers.flatMap(({ node }) => (Array.isArray(node.required) ? node.required.map(String) : [])));
  const defined = new Map<string, { schemas: Json[]; definedBy: JsonObject[] }>();
  for (const { node } of objectLayers) {
    if (!isObject(node.properties)) continue;
    for (const [name, property] of Object.entries(node.properties)) {
      const entry = defined.get(name) ?? { schemas: [], definedBy: [] };
      entry.schemas.push(property);
      entry.definedBy.push(node);
      defined.set(name, entry);
    }
  }
  const rows: FieldRow[] = [];
  for (const [name, { schemas, definedBy }] of defined) {
    const list = schemas.flatMap((s) => layers(doc, s));
    const description =
      [...list].reverse().find((l) => l.own && typeof l.node.description === 'string')?.node.description ?? last(list, 'description');
    const path = `${prefix}${name}`;
    const provisional = list.some((l) => l.own && l.node['x-provisional'] === true) || definedBy.every((n) => n['x-provisional'] === true);
    rows.push({
      name: path,
      type: typeOf(doc, list),
      required: required.has(name),
      description: typeof description === 'string' ? description : '',
      values: valuesOf(doc, list).map((v) => JSON.stringify(v)),
      provisional,
    });
    if (depth >= 6) continue;
    if (list.some((l) => isObject(l.node.properties))) rows.push(...fieldRows(doc, { allOf: schemas } as Json, `${path}.`, depth + 1));
    const items = last(list, 'items');
    if (items !== undefined && layers(doc, items).some((l) => isObject(l.node.properties))) {
      rows.push(...fieldRows(doc, items, `${path}[].`, depth + 1));
    }
  }
  return rows;
}

const text = (value: Json | undefined): string => (typeof value === 'string' ? value : '');

/**
 * The address the channel's first server gives (`https://{endpoint_host}{endpoint_path}`), and the same
 * with each variable replaced by its default, for the example delivery.
 */
function channelAddress(doc: JsonObject, channel: JsonObject): { address: string; example: string } {
  const server = resolved(doc, Array.isArray(channel.servers) ? channel.servers[0] : undefined);
  const address = isObject(server)
    ? `${text(server.protocol) || 'https'}://${text(server.host)}${text(server.pathname)}${text(channel.address)}`
    : text(channel.address);
  const variables = isObject(server) && isObject(server.variables) ? server.variables : {};
  const example = address.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isObject(variable) && variable.default !== undefined ? String(variable.default) : whole;
  });
  return { address, example };
}

function httpMethod(doc: JsonObject, operation: JsonObject): string {
  const sources = [operation, ...(Array.isArray(operation.traits) ? operation.traits.map((t) => resolved(doc, t)) : [])];
  for (const source of sources) {
    const http = isObject(source) && isObject(source.bindings) ? source.bindings.http : undefined;
    if (isObject(http) && typeof http.method === 'string') return http.method;
  }
  return 'POST';
}

/** Every event of the document (one per message of a `send` operation), grouped by its operation's tag. */
export function readEvents(doc: JsonObject): EventGroup[] {
  const groups = new Map<string, EventGroup>();
  for (const [operationId, raw] of Object.entries(isObject(doc.operations) ? doc.operations : {})) {
    const operation = resolved(doc, raw);
    if (!isObject(operation)) continue;
    const { node: channel, pointer: channelAt } = contractModel(doc).resolve(operation.channel);
    const endpoint = isObject(channel) ? channelAddress(doc, channel) : { address: '', example: '' };
    const tag = resolved(doc, Array.isArray(operation.tags) ? operation.tags[0] : undefined);
    const groupName = isObject(tag) ? text(tag.name) : 'Events';
    const group = groups.get(groupName) ?? { name: groupName, description: isObject(tag) ? text(tag.description) : '', events: [] };
    groups.set(groupName, group);
    for (const ref of Array.isArray(operation.messages) ? operation.messages : []) {
      const message = resolved(doc, ref);
      if (!isObject(message)) continue;
      const payload = resolved(doc, message.payload);
      const data = layers(doc, payload).flatMap(({ node }) =>
        isObject(node.properties) && node.properties.data !== undefined ? layers(doc, node.properties.data) : [],
      );
      const example = Array.isArray(message.examples) && isObject(message.examples[0]) ? message.examples[0] : undefined;
      const exampleHeaders = example && isObject(example.headers) ? example.headers : {};
      group.events.push({
        name: text(message.name) || text(message.title),
        group: groupName,
        operationId,
        action: text(operation.action),
        channel: channelAt.replace(/^\/channels\//, '') || 'channel',
        method: httpMethod(doc, operation),
        address: endpoint.address,
        exampleAddress: endpoint.example,
        contentType: text(message.contentType) || text(doc.defaultContentType) || 'application/json',
        summary: text(message.summary) || text(operation.summary),
        description: text(message.description) || (isObject(payload) ? text(payload.description) : ''),
        provisional: (isObject(payload) && payload['x-provisional'] === true) || data.some((l) => l.node['x-provisional'] === true),
        fields: fieldRows(doc, message.payload),
        headers: fieldRows(doc, message.headers),
        example: example
          ? { headers: Object.fromEntries(Object.entries(exampleHeaders).map(([k, v]) => [k, String(v)])), payload: example.payload }
          : undefined,
      });
    }
  }
  return [...groups.values()].filter((g) => g.events.length > 0);
}

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export function slug(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Markdown to HTML with GitHub's dialect. Raw HTML in the source is shown as text, not interpreted, and
 * headings get an id (their slug) so the sidebar can link them.
 */
const markdown = new Marked({
  gfm: true,
  renderer: {
    html: ({ text: raw }: Tokens.HTML | Tokens.Tag) => escapeHtml(raw),
    heading({ tokens, depth, text: raw }: Tokens.Heading) {
      return `<h${depth} id="${escapeHtml(slug(raw))}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
  },
});

export function renderMarkdown(source: string): string {
  return markdown.parse(source, { async: false });
}

export function renderInline(source: string): string {
  return markdown.parseInline(source, { async: false });
}

const badge = '<span class="badge-provisional">Provisional</span>';

/** A field name that may wrap after its dots (never inside a word). */
const fieldName = (name: string) => escapeHtml(name).replace(/\./g, '.<wbr>');

/**
 * The fields as an HTML table (descriptions are markdown with lists and paragraphs, which a markdown table
 * cannot hold), on lines without a blank one, so that markdown reads it as one HTML block.
 */
export function fieldTable(rows: FieldRow[], caption: string): string {
  const body = rows
    .map((row) => {
      const depth = row.name.split('.').length - 1;
      const values =
        row.values.length > 0
          ? `<p class="values">${row.values.length === 1 ? 'Value' : 'One of'}: ${row.values.map((v) => `<code>${escapeHtml(v)}</code>`).join(', ')}</p>`
          : '';
      return (
        `<tr${depth > 0 ? ' class="nested"' : ''}><td class="field"><code>${fieldName(row.name)}</code>` +
        `<span class="meta">${escapeHtml(row.type)} · ${row.required ? '<strong>required</strong>' : 'optional'}</span></td>` +
        `<td class="desc">${row.provisional ? badge : ''}${renderMarkdown(row.description)}${values}</td></tr>`
      );
    })
    .join('\n');
  const html = `<table class="fields"><caption class="sr-only">${escapeHtml(caption)}</caption>
<thead><tr><th>Field</th><th>Description</th></tr></thead>
<tbody>
${body}
</tbody></table>`;
  return html.replace(/\n\s*\n/g, '\n');
}

/**
 * The fields as a markdown list, for the pages' markdown twins (scripts/docs/llms.ts): one item per field,
 * `name` (type, required or optional, provisional), its description indented under it (lists and
 * paragraphs included), then its values.
 */
export function fieldList(rows: FieldRow[]): string {
  if (rows.length === 0) return 'None.';
  return rows
    .map((row) => {
      const meta = [row.type, row.required ? 'required' : 'optional', ...(row.provisional ? ['provisional'] : [])].join(', ');
      const values =
        row.values.length > 0 ? `${row.values.length === 1 ? 'Value' : 'One of'}: ${row.values.map((v) => `\`${v}\``).join(', ')}.` : '';
      const text = [row.description.trim(), values].filter(Boolean).join('\n\n');
      const [first = '', ...rest] = text.split('\n');
      const more = rest.map((line) => (line.trim() === '' ? '' : `  ${line}`)).join('\n');
      return `- \`${row.name}\` (${meta})${first ? `: ${first}` : ''}${more ? `\n${more}` : ''}`;
    })
    .join('\n');
}

/** The body of an example delivery, as the service sends it and signs it: the compact JSON of the payload. */
export function signedBody(payload: Json | undefined): string {
  return JSON.stringify(payload);
}

/** The example delivery as an HTTP request: request line, Host, Content-Type, the signed headers, the body. */
export function exampleRequest(event: EventDoc): string | undefined {
  const example = event.example;
  if (!example) return undefined;
  const target = URL.canParse(event.exampleAddress) ? new URL(event.exampleAddress) : undefined;
  const requestLine = target
    ? [`${event.method} ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`]
    : [`${event.method} ${event.exampleAddress} HTTP/1.1`];
  const headers = Object.entries(example.headers).map(([k, v]) => `${k}: ${v}`);
  return [...requestLine, `Content-Type: ${event.contentType}`, ...headers, '', signedBody(example.payload)].join('\n');
}

/** A fenced code block whose fence is longer than any run of backticks in the code. */
function fence(code: string, info: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${info}\n${code}\n${ticks}`;
}

function eventSection(event: EventDoc, secret: string | undefined): string {
  const request = exampleRequest(event);
  const example = request
    ? [
        `**Example delivery.** The body is the bytes that were signed (the compact JSON of the example)` +
          (secret ? `, with the example secret \`${secret}\`` : '') +
          ': it verifies exactly as shown, apart from the 300-second tolerance (the example is older).',
        '',
        fence(request, ` http wrap title="Example delivery of ${event.name}"`),
        '',
        '<details><summary>The same payload, formatted for reading (not the signed bytes)</summary>',
        '',
        fence(JSON.stringify(event.example!.payload, null, 2), ' json'),
        '',
        '</details>',
      ]
    : ['No example.'];
  return [
    `## \`${event.name}\``,
    '',
    `${event.provisional ? `${badge} ` : ''}**${renderInline(event.summary).replace(/<\/?p>/g, '')}**`,
    '',
    `<p class="delivery">${escapeHtml(event.method)} <code>${escapeHtml(event.address)}</code> · <code>${escapeHtml(event.contentType)}</code> · ` +
      `operation <code>${escapeHtml(event.operationId)}</code> (${escapeHtml(event.action)})</p>`,
    '',
    `<div class="event-description">${renderMarkdown(event.description)
      .trim()
      .replace(/\n\s*\n/g, '\n')}</div>`,
    '',
    '**Payload**',
    '',
    fieldTable(event.fields, `Payload of ${event.name}`),
    '',
    '**Signed headers**',
    '',
    fieldTable(event.headers, `Headers of a ${event.name} delivery`),
    '',
    ...example,
  ].join('\n');
}

/** An event's section in plain markdown (field lists instead of HTML tables), for its page's markdown twin. */
function eventMarkdown(event: EventDoc, secret: string | undefined): string {
  const request = exampleRequest(event);
  return [
    `## \`${event.name}\``,
    '',
    `**${event.summary.trim()}**${event.provisional ? ' (Provisional.)' : ''}`,
    '',
    `Delivery: ${event.method} \`${event.address}\`, \`${event.contentType}\`, operation \`${event.operationId}\` (${event.action}).`,
    '',
    event.description.trim(),
    '',
    '**Payload**',
    '',
    fieldList(event.fields),
    '',
    '**Signed headers**',
    '',
    fieldList(event.headers),
    '',
    ...(request
      ? [
          `**Example delivery**: the body is the bytes that were signed${secret ? `, with the example secret \`${secret}\`` : ''}.`,
          '',
          fence(request, ' http'),
        ]
      : ['No example.']),
  ].join('\n');
}

export interface EventsPage {
  /** Page id under the site's content: `events/index`, `events/card-events`. */
  id: string;
  title: string;
  description: string;
  /** The markdown body (without front matter). */
  body: string;
  /** The same page in plain markdown, without HTML (field lists instead of tables): its markdown twin's body. */
  markdown: string;
  /** The events on the page, by name. */
  events: string[];
}

/** The example secret the AsyncAPI document names in its description (`whsec_example_...`). */
export function exampleSecret(doc: JsonObject): string | undefined {
  const info = isObject(doc.info) ? doc.info : {};
  return /`(whsec_example_[0-9a-f]+)`/.exec(text(info.description))?.[1];
}

/** The sections of the document's description that speak to a receiver (`## Delivery` onwards). */
function overviewSections(description: string): string {
  const start = description.search(/^## /m);
  return start < 0 ? description : description.slice(start);
}

/** The events pages: the overview, then one page per group, in the document's order. */
export function eventsPages(bundle: Record<string, unknown>): EventsPage[] {
  const doc = bundle as JsonObject;
  const info = isObject(doc.info) ? doc.info : {};
  const groups = readEvents(doc);
  const secret = exampleSecret(doc);
  const count = groups.reduce((n, g) => n + g.events.length, 0);
  const list = groups.map(
    (g) =>
      `- [${g.name}](/events/${slug(g.name)}/): ${g.events.map((e) => `[\`${e.name}\`](/events/${slug(g.name)}/#${e.name})`).join(', ')}`,
  );
  // The overview has no HTML: its twin is the page itself.
  const overviewBody = [
    `The API sends ${count} kinds of signed events to your webhook endpoints. Each is described here from the ` +
      `AsyncAPI document ([asyncapi.json](/asyncapi.json), [asyncapi.yaml](/asyncapi.yaml)), with its payload, ` +
      'its signed headers and an example delivery you can verify. The [webhooks guide](/guides/webhooks/) shows how ' +
      'to receive and verify them.',
    '',
    ...list,
    '',
    overviewSections(text(info.description)),
  ].join('\n');
  const overview: EventsPage = {
    id: 'events/index',
    title: 'Webhook events',
    description: `The ${count} signed events the API sends to your webhook endpoints.`,
    body: overviewBody,
    markdown: overviewBody,
    events: [],
  };
  return [
    overview,
    ...groups.map((g) => ({
      id: `events/${slug(g.name)}`,
      title: g.name,
      description: g.description.replace(/\s+/g, ' ').trim(),
      body: [g.description.trim(), '', ...g.events.map((e) => eventSection(e, secret))].join('\n\n'),
      markdown: [g.description.trim(), ...g.events.map((e) => eventMarkdown(e, secret))].join('\n\n'),
      events: g.events.map((e) => e.name),
    })),
  ];
}

/**
 * `asyncapi.html`, the address of the former events page: it sends a reader on to the page of the event
 * named in its anchor (`asyncapi.html#card.frozen`), else to the overview.
 */
export function legacyEventsRedirect(pages: EventsPage[]): string {
  const map = Object.fromEntries(pages.flatMap((p) => p.events.map((e) => [e, `/${p.id.replace(/\/index$/, '')}/#${e}`])));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Webhook events</title>
<script>var m=${JSON.stringify(map).replace(/</g, '\\u003c')};location.replace(m[decodeURIComponent(location.hash.slice(1))]||'/events/');</script>
</head><body><p>The events are at <a href="/events/">/events/</a>.</p></body></html>
`;
}
