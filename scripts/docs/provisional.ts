// The list of provisional parts of the contract, generated from the `x-provisional: true` marks of the
// bundled OpenAPI document (generated/openapi.json) at docs build time. Nothing here is hand-written.
import { contractModel } from '../../src/contract/model.ts';
import { escapeToken, HTTP_METHODS, isObject, type Json, type JsonObject } from '../lib/pointer.ts';

export interface ProvisionalPart {
  /** JSON pointer of the marked node in the bundle, e.g. `#/paths/~1cards/post`. */
  pointer: string;
  /** Operations, Webhook events, Parameters, Schemas, Responses, Servers or Other. */
  group: string;
  /** Where it is, for a reader: "POST /cards — Create a card", "Card.expiry". */
  where: string;
  /** What is provisional, for a partner: the "Provisional:" sentence of the marked node's description. */
  why: string;
}

const METHOD_KEYS = new Set<string>(HTTP_METHODS);
const decode = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** Every node marked `x-provisional: true`, in document order. */
export function findProvisional(doc: JsonObject): ProvisionalPart[] {
  const parts: ProvisionalPart[] = [];
  const walk = (node: Json, tokens: string[]) => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, [...tokens, String(i)]);
      return;
    }
    if (!isObject(node)) return;
    if (node['x-provisional'] === true) parts.push(describe(doc, node, tokens));
    for (const [key, value] of Object.entries(node)) if (key !== 'x-provisional') walk(value, [...tokens, key]);
  };
  walk(doc, []);
  return parts;
}

function oneLine(text: Json | undefined): string {
  return typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : '';
}

/**
 * What a description says is provisional: its first sentence starting "Provisional:" (DECISIONS-1.1 section 8),
 * without the label, on one line, cut near 400 characters; else its first paragraph.
 */
export function provisionalText(text: Json | undefined): string {
  if (typeof text !== 'string') return '';
  const flat = oneLine(text);
  const start = /(?:^|[.!?]\s|[-*]\s)Provisional: /.exec(flat);
  if (!start) return oneLine(text.split(/\n\s*\n/)[0]);
  const rest = flat.slice(start.index + start[0].length);
  const end = /[.!?](?=\s+(?:[A-Z*`-]|$))|[.!?]$/.exec(rest);
  const sentence = end ? rest.slice(0, end.index + 1) : rest;
  const capital = sentence.charAt(0).toUpperCase() + sentence.slice(1);
  return capital.length <= 400 ? capital : `${capital.slice(0, 400)} ...`;
}

/** A readable rest-of-path: responses/200 -> "response 200", examples/x -> "example `x`". */
function tail(tokens: string[]): string {
  const words: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] ?? '';
    const next = tokens[i + 1];
    if (next !== undefined && (t === 'responses' || t === 'examples' || t === 'properties' || t === 'parameters')) {
      words.push(
        `${t === 'responses' ? 'response' : t === 'examples' ? 'example' : t === 'properties' ? 'property' : 'parameter'} \`${next}\``,
      );
      i++;
    } else if (t === 'requestBody') words.push('request body');
    else if (t === 'content' || t === 'schema' || t === 'application/json' || t === 'allOf' || t === 'oneOf' || /^\d+$/.test(t)) continue;
    else words.push(`\`${t}\``);
  }
  return words.join(', ');
}

function describe(doc: JsonObject, node: JsonObject, pointerTokens: string[]): ProvisionalPart {
  const tokens = pointerTokens.map(decode);
  const pointer = `#/${pointerTokens.map((t) => escapeToken(t)).join('/')}`;
  const why = provisionalText(node.description) || oneLine(node.summary) || '(no description)';
  const server = describeServer(doc, tokens);
  if (server) return { pointer, group: 'Servers', where: server, why };
  const [top, name = '', third] = tokens;
  if ((top === 'paths' || top === 'webhooks') && third !== undefined && METHOD_KEYS.has(third)) {
    const pathItem = isObject(doc[top]) ? (doc[top] as JsonObject)[name] : undefined;
    const operation = isObject(pathItem) ? pathItem[third] : undefined;
    const summary = isObject(operation) ? oneLine(operation.summary) : '';
    const head = top === 'paths' ? `\`${third.toUpperCase()} ${name}\`${summary ? ` (${summary})` : ''}` : `\`${name}\``;
    const rest = tail(tokens.slice(3));
    return { pointer, group: top === 'paths' ? 'Operations' : 'Webhook events', where: rest ? `${head}: ${rest}` : head, why };
  }
  if (top === 'components' && third !== undefined) {
    const kind = name;
    const rest = tokens.slice(3);
    if (kind === 'parameters') {
      const param = contractModel(doc).component('parameters', third)?.node;
      const label = isObject(param) && typeof param.name === 'string' ? `\`${String(param.name)}\` (${String(param.in)})` : `\`${third}\``;
      return { pointer, group: 'Parameters', where: rest.length ? `${label}: ${tail(rest)}` : label, why };
    }
    const group = kind === 'schemas' ? 'Schemas' : kind === 'responses' ? 'Responses' : 'Other';
    const props = rest.filter((_, i) => rest[i - 1] === 'properties');
    const dotted =
      props.length > 0 && rest.every((t, i) => t === 'properties' || rest[i - 1] === 'properties' || t === 'allOf' || /^\d+$/.test(t));
    const where = rest.length === 0 ? `\`${third}\`` : dotted ? `\`${[third, ...props].join('.')}\`` : `\`${third}\`: ${tail(rest)}`;
    return { pointer, group, where, why };
  }
  return { pointer, group: 'Other', where: `\`${pointer}\``, why };
}

/** A server or server variable, by its url: "`{base_url}`", "`{alt_base_url}` of `/gift-cards/orders`: variable `alt_base_url`". */
function describeServer(doc: JsonObject, tokens: string[]): string | undefined {
  const at = tokens.indexOf('servers');
  const index = tokens[at + 1];
  if (at < 0 || index === undefined || !/^\d+$/.test(index)) return undefined;
  let node: Json | undefined = doc;
  for (const token of tokens.slice(0, at + 2)) node = Array.isArray(node) ? node[Number(token)] : isObject(node) ? node[token] : undefined;
  const url = isObject(node) && typeof node.url === 'string' ? node.url : `#${index}`;
  const owner = tokens
    .slice(0, at)
    .filter((t) => t !== 'paths')
    .map((t) => (METHOD_KEYS.has(t) ? t.toUpperCase() : t))
    .join(' ');
  const rest = tokens.slice(at + 2);
  const variable = rest[0] === 'variables' && rest[1] !== undefined ? `: variable \`${rest[1]}\`` : rest.length ? `: ${tail(rest)}` : '';
  return `\`${url}\`${owner ? ` of \`${owner}\`` : ''}${variable}`;
}

const GROUP_ORDER = ['Operations', 'Parameters', 'Schemas', 'Responses', 'Webhook events', 'Servers', 'Other'];

/** A markdown section listing `parts` by group, for the docs site. */
export function provisionalMarkdown(parts: ProvisionalPart[], heading = '# Provisional parts'): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const lines = [
    heading,
    '',
    "Some parts of the contract are designed ahead of the service's confirmation and marked `x-provisional: true`;",
    'their description says what is provisional in a sentence starting "Provisional:", and each such operation',
    'carries a "Provisional" badge. This list is generated from those marks when the docs are built: ' +
      `${parts.length} provisional parts. Treat each as subject to change until the service confirms it. ` +
      'The AsyncAPI document shares the event schemas, and so their marks.',
  ];
  for (const group of GROUP_ORDER) {
    const inGroup = parts.filter((p) => p.group === group);
    if (inGroup.length === 0) continue;
    lines.push('', `## Provisional ${group.toLowerCase()}`, '', '| Part | What is provisional |', '|---|---|');
    for (const part of inGroup) lines.push(`| ${cell(part.where)} | ${cell(part.why)} |`);
  }
  return `${lines.join('\n')}\n`;
}
