// The events page of the docs site (site/asyncapi.html), generated at build time from the AsyncAPI bundle
// (generated/asyncapi.json) into static HTML: no script, small inline CSS, works offline.
//
// A sticky sidebar lists the overview's sections and every event, grouped by the tag of its operation
// (KYC events, Card events ...). Each event has its own anchor (`#card.frozen`) with its summary and
// description (markdown, rendered with `marked`), the delivery (method, address, operation, channel), the
// payload as a table of fields (nested objects flattened with dotted names: `data.transaction.amount`),
// the signed delivery headers (the message's `headers` schema), and the message's example: its headers and
// its payload.
import { Marked, type Tokens } from 'marked';
import { deref, isObject, type Json, type JsonObject } from '../lib/pointer.ts';

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
  /** Some of its payload is provisional as a whole (a payload layer marked `x-provisional`). */
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

/**
 * The layers of a schema, least specific first: the members of its `allOf` (recursively, through `$ref`),
 * then the schema itself. A keyword read from the last layer that has it gives the most specific value.
 */
function layers(doc: JsonObject, schema: Json | undefined, own = true, depth = 0): Layer[] {
  const node = deref(doc, schema);
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
    const description = [...list].reverse().find((l) => l.own && typeof l.node.description === 'string')?.node.description
      ?? last(list, 'description');
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
  const server = deref(doc, Array.isArray(channel.servers) ? channel.servers[0] : undefined);
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
  const sources = [operation, ...(Array.isArray(operation.traits) ? operation.traits.map((t) => deref(doc, t)) : [])];
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
    const operation = deref(doc, raw);
    if (!isObject(operation)) continue;
    const channelRef = isObject(operation.channel) ? text(operation.channel.$ref) : '';
    const channel = deref(doc, operation.channel);
    const endpoint = isObject(channel) ? channelAddress(doc, channel) : { address: '', example: '' };
    const tag = deref(doc, Array.isArray(operation.tags) ? operation.tags[0] : undefined);
    const groupName = isObject(tag) ? text(tag.name) : 'Events';
    const group = groups.get(groupName) ?? { name: groupName, description: isObject(tag) ? text(tag.description) : '', events: [] };
    groups.set(groupName, group);
    for (const ref of Array.isArray(operation.messages) ? operation.messages : []) {
      const message = deref(doc, ref);
      if (!isObject(message)) continue;
      const payload = deref(doc, message.payload);
      const data = layers(doc, payload).flatMap(({ node }) => (isObject(node.properties) && node.properties.data !== undefined ? layers(doc, node.properties.data) : []));
      const example = Array.isArray(message.examples) && isObject(message.examples[0]) ? message.examples[0] : undefined;
      const exampleHeaders = example && isObject(example.headers) ? example.headers : {};
      group.events.push({
        name: text(message.name) || text(message.title),
        group: groupName,
        operationId,
        action: text(operation.action),
        channel: channelRef.replace(/^#\/channels\//, '') || 'channel',
        method: httpMethod(doc, operation),
        address: endpoint.address,
        exampleAddress: endpoint.example,
        contentType: text(message.contentType) || text(doc.defaultContentType) || 'application/json',
        summary: text(message.summary) || text(operation.summary),
        description: text(message.description) || (isObject(payload) ? text(payload.description) : ''),
        provisional: data.some((l) => l.node['x-provisional'] === true),
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
  return value.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
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

const badge = '<span class="badge">Provisional</span>';

/** A field name that may wrap after its dots (never inside a word). */
const fieldName = (name: string) => escapeHtml(name).replace(/\./g, '.<wbr>');

function fieldTable(rows: FieldRow[], caption: string): string {
  const body = rows.map((row) => {
    const depth = row.name.split('.').length - 1;
    const values = row.values.length > 0
      ? `<p class="values">${row.values.length === 1 ? 'Value' : 'One of'}: ${row.values.map((v) => `<code>${escapeHtml(v)}</code>`).join(', ')}</p>`
      : '';
    return `<tr${depth > 0 ? ` class="nested"` : ''}><td class="field"><code>${fieldName(row.name)}</code>` +
      `<span class="meta">${escapeHtml(row.type)} · ${row.required ? '<strong>required</strong>' : 'optional'}</span></td>` +
      `<td class="desc">${row.provisional ? badge : ''}${renderMarkdown(row.description)}${values}</td></tr>`;
  }).join('\n');
  return `<table class="fields"><caption>${escapeHtml(caption)}</caption>
<thead><tr><th>Field</th><th>Description</th></tr></thead>
<tbody>
${body}
</tbody></table>`;
}

function eventSection(event: EventDoc): string {
  const example = event.example;
  const headerLines = example ? Object.entries(example.headers).map(([k, v]) => `${k}: ${v}`).join('\n') : '';
  const target = URL.canParse(event.exampleAddress) ? new URL(event.exampleAddress) : undefined;
  const requestLine = target
    ? `${event.method} ${target.pathname}${target.search} HTTP/1.1\nHost: ${target.host}`
    : `${event.method} ${event.exampleAddress}`;
  return `<section class="event" id="${escapeHtml(event.name)}">
<h3><a class="anchor" href="#${escapeHtml(event.name)}"><code>${escapeHtml(event.name)}</code></a>${event.provisional ? ` ${badge}` : ''}</h3>
<p class="summary">${renderInline(event.summary)}</p>
<p class="delivery"><span class="method">${escapeHtml(event.method)}</span> <code>${escapeHtml(event.address)}</code>
· <code>${escapeHtml(event.contentType)}</code> · operation <code>${escapeHtml(event.operationId)}</code> (${escapeHtml(event.action)})
on channel <code>${escapeHtml(event.channel)}</code></p>
<div class="cols">
<div class="main">
<div class="md">${renderMarkdown(event.description)}</div>
<h4>Payload</h4>
${fieldTable(event.fields, `Payload of ${event.name}`)}
<h4>Signed headers</h4>
${fieldTable(event.headers, `Headers of a ${event.name} delivery`)}
</div>
<div class="example">
<h4>Example delivery</h4>
${example ? `<pre class="headers"><code>${escapeHtml(`${requestLine}\nContent-Type: ${event.contentType}\n${headerLines}`)}</code></pre>
<pre class="payload"><code>${escapeHtml(JSON.stringify(example.payload, null, 2))}</code></pre>` : '<p>No example.</p>'}
</div>
</div>
</section>`;
}

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.55 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2937;background:#fff}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.86em}
:not(pre)>code{background:#f3f4f6;border-radius:3px;padding:0 .25em;overflow-wrap:anywhere}
a{color:#1d4ed8}
.topbar{position:sticky;top:0;z-index:2;display:flex;flex-wrap:wrap;gap:4px 16px;align-items:center;min-height:44px;padding:0 16px;background:#1f2937;color:#fff;font-size:14px}
.topbar>*{white-space:nowrap}
.topbar a{color:#93c5fd}
.layout{display:grid;grid-template-columns:300px minmax(0,1fr)}
nav.sidebar{position:sticky;top:44px;height:calc(100vh - 44px);overflow-y:auto;border-right:1px solid #e5e7eb;background:#f9fafb;padding:12px 0 24px;font-size:14px}
nav.sidebar h2{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:#6b7280;margin:16px 16px 4px}
nav.sidebar ul{list-style:none;margin:0;padding:0}
nav.sidebar a{display:block;padding:2px 16px;color:#1f2937;text-decoration:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
nav.sidebar a:hover{background:#e5e7eb}
nav.sidebar code{background:none;padding:0;font-size:12.5px}
main{padding:8px 32px 64px;min-width:0}
h1{font-size:28px;margin:16px 0 8px}
.overview{max-width:900px}
.overview h2{font-size:21px;margin:28px 0 8px;border-bottom:1px solid #e5e7eb;padding-bottom:4px}
h2.group{font-size:22px;margin:48px 0 4px;padding-top:8px;border-top:3px solid #1f2937}
.group-desc{color:#4b5563;margin:0 0 8px}
section.event{border-top:1px solid #e5e7eb;padding:12px 0 20px;scroll-margin-top:52px}
section.event h3{font-size:19px;margin:8px 0 2px}
section.event h3 a{color:inherit;text-decoration:none}
section.event h3 code{background:none;padding:0;font-size:1em}
.summary{margin:0 0 4px;font-weight:600}
.delivery{margin:0 0 8px;color:#4b5563;font-size:13px}
.method{display:inline-block;background:#1d4ed8;color:#fff;font-weight:600;font-size:11px;border-radius:3px;padding:0 5px}
.cols{display:grid;grid-template-columns:minmax(0,1fr);gap:16px}
@media (min-width:1200px){.cols{grid-template-columns:minmax(0,1fr) minmax(0,400px)}}
.md p{margin:4px 0 8px}
h4{font-size:14px;margin:12px 0 4px;text-transform:uppercase;letter-spacing:.03em;color:#374151}
table{border-collapse:collapse;width:100%;table-layout:fixed;font-size:13.5px}
th,td{border-bottom:1px solid #e5e7eb;padding:5px 8px;text-align:left;vertical-align:top}
th{background:#f3f4f6;font-weight:600}
th:first-child{width:36%}
caption{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
td p{margin:0 0 2px}
td.field code{background:none;padding:0;font-weight:600;overflow-wrap:normal}
td.field .meta{display:block;color:#4b5563;font-size:12px}
tr.nested td.field{padding-left:20px}
.values{color:#4b5563;font-size:12.5px}
.badge{display:inline-block;background:#b45309;color:#fff;font-size:11px;font-weight:600;border-radius:3px;padding:0 5px;margin-right:6px;vertical-align:1px}
.example pre{background:#111827;color:#e5e7eb;border-radius:6px;padding:10px 12px;margin:0 0 10px;overflow-x:auto;line-height:1.45;font-size:12px}
.example pre.headers{white-space:pre-wrap;overflow-wrap:anywhere}
.example h4{margin-top:12px}
@media (max-width:860px){
  .topbar{position:static;padding:8px 16px}
  section.event{scroll-margin-top:0}
  .layout{grid-template-columns:minmax(0,1fr)}
  nav.sidebar{position:static;height:auto;max-height:45vh;border-right:0;border-bottom:1px solid #e5e7eb}
  main{padding:8px 16px 48px}
}
@media (max-width:600px){
  table.fields,table.fields tbody,table.fields tr,table.fields td{display:block;width:auto}
  table.fields thead{display:none}
  table.fields td.field{border-bottom:0;padding-bottom:0}
  tr.nested td.desc{padding-left:20px}
}
`;

/** The whole page, from the AsyncAPI bundle. */
export function eventsPage(bundle: Record<string, unknown>): string {
  const doc = bundle as JsonObject;
  const info = isObject(doc.info) ? doc.info : {};
  const title = `${text(info.title) || 'Webhook events'} ${text(info.version)}`.trim();
  const groups = readEvents(doc);
  const description = text(info.description);
  const overview = [...description.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());
  const count = groups.reduce((n, g) => n + g.events.length, 0);
  const nav = `<nav class="sidebar" aria-label="Events">
<h2>Overview</h2>
<ul>${overview.map((h) => `<li><a href="#${escapeHtml(slug(h))}">${escapeHtml(h)}</a></li>`).join('')}</ul>
${groups.map((g) => `<h2>${escapeHtml(g.name)}</h2>
<ul>${g.events.map((e) => `<li><a href="#${escapeHtml(e.name)}" title="${escapeHtml(e.summary.replace(/`/g, ''))}"><code>${escapeHtml(e.name)}</code></a></li>`).join('')}</ul>`).join('\n')}
</nav>`;
  const body = groups.map((g) => `<h2 class="group" id="${escapeHtml(slug(g.name))}">${escapeHtml(g.name)}</h2>
<p class="group-desc">${renderInline(g.description)}</p>
${g.events.map(eventSection).join('\n')}`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} (events)</title>
<style>${CSS.trim()}</style>
</head>
<body>
<header class="topbar"><a href="index.html">API reference and guides</a><span>Webhook events (${count})</span><a href="asyncapi.json">asyncapi.json</a><a href="asyncapi.yaml">asyncapi.yaml</a></header>
<div class="layout">
${nav}
<main>
<h1>${escapeHtml(title)}</h1>
<div class="overview md">${renderMarkdown(description)}</div>
${body}
</main>
</div>
</body>
</html>
`;
}
