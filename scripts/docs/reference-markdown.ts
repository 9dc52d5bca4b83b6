// An API reference page as markdown (`/reference.md`, `/reference/simulation.md`, and their parts of llms-full.txt):
// what the Redoc page shows, for a reader that takes text, a coding assistant first. Redoc renders the bundle in
// the browser, so there is no markdown of it to reuse; this writes one from the same document, through the readers
// the other docs scripts use (operations and their examples: scripts/lib/openapi-examples.ts; error codes: the
// bundle reader; fields of a schema: the events pages' fieldRows), and the page's docs copy of the bundle
// (reference.ts, simulation-reference.ts) for the servers, the description and the code samples the page shows.
//
// Its outline is the page's: the description's sections, then a section per tag (in the order of
// `x-tagGroups`, else of `tags`) with an `###` section per operation (its summary, as Redoc titles it) or webhook
// (its event name); then one `## Schemas` section that the page does not have, where every schema a response's
// `data` names is written once instead of under each operation that answers it.
import path from 'node:path';
import { fieldList, fieldRows, schemaType, schemaValues } from './events-page.ts';
import { exampleOperations, type ExampleOperation } from '../lib/openapi-examples.ts';
import { contractModel, type Media, type Operation } from '../../src/contract/model.ts';
import { get, isObject, type Json, type JsonObject } from '../lib/pointer.ts';
import { propertyPointers } from '../lib/schema.ts';

export interface ReferenceOperation {
  operationId: string;
  /** `POST` */
  method: string;
  /** The path template: `/cards/{code}/withdraw`. */
  path: string;
  /** Its heading, the summary: Redoc's title of it. */
  heading: string;
  tag: string;
}

/** Which Redoc page of the site a document is written as. */
export interface ReferenceSource {
  /** The twin's title, the page's label in the sidebar: `API reference`. */
  title: string;
  /** The page's address: `/reference/`. */
  url: string;
  /** The document the page renders, as the site serves it: `/openapi.json`. */
  document: string;
  /**
   * The copy of the document the page renders (its servers, description and code samples): reference.ts's
   * docsDocument, simulation-reference.ts's simulationDocsDocument.
   */
  docsDocument: (openapi: JsonObject) => JsonObject;
}

export interface ReferencePage {
  title: string;
  description: string;
  /** The markdown after the title. */
  body: string;
  operations: ReferenceOperation[];
  /** The webhooks, by event name. */
  webhooks: string[];
}

const text = (value: Json | undefined): string => (typeof value === 'string' ? value : '');

/** A fenced code block whose fence is longer than any run of backticks in the code. */
function fence(code: string, info: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${info}\n${code}\n${ticks}`;
}

const json = (value: Json | undefined) => fence(JSON.stringify(value, null, 2), 'json');

/** A node of the document after its `$ref`s. */
const resolved = (doc: JsonObject, node: Json | undefined): Json | undefined => contractModel(doc).resolve(node).node;

/** The name of a component schema a node refers to (`#/components/schemas/Card` -> `Card`). */
function schemaName(doc: JsonObject, node: Json | undefined): string | undefined {
  return /^\/components\/schemas\/([^/]+)$/.exec(contractModel(doc).resolve(node).pointer)?.[1];
}

/** A line of text of a (possibly multi-line) description, for a list item. */
const indented = (markdown: string) =>
  markdown
    .trim()
    .split('\n')
    .map((line, i) => (i === 0 || line.trim() === '' ? line : `  ${line}`))
    .join('\n');

/**
 * The fields of a schema as a list; a schema that is one of several shapes (a `oneOf` of objects: a virtual or a
 * physical card) lists each shape's fields under its name.
 */
export function schemaMarkdown(doc: JsonObject, schema: Json | undefined): string {
  const node = resolved(doc, schema);
  if (isObject(node) && Array.isArray(node.oneOf) && !isObject(node.properties)) {
    const shapes = node.oneOf.filter((branch) => fieldRows(doc, branch).length > 0);
    if (shapes.length > 0) {
      return [
        `One of ${shapes.length} shapes:`,
        ...shapes.map((branch, i) => {
          const shape = resolved(doc, branch);
          const name = schemaName(doc, branch) ?? (isObject(shape) ? text(shape.title) : '') ?? '';
          const about = isObject(shape) ? text(shape.description).trim() : '';
          return [`*Shape ${i + 1}${name ? `: \`${name}\`` : ''}.*${about ? ` ${about}` : ''}`, '', fieldList(fieldRows(doc, branch))].join(
            '\n',
          );
        }),
      ].join('\n\n');
    }
  }
  return fieldList(fieldRows(doc, schema));
}

/** The server URL template of an operation: its own `servers` (`{alt_base_url}`), else the document's (`{base_url}`). */
function serverTemplate(openapi: JsonObject, path: string, method: string): string {
  const operation = contractModel(openapi).byPath(method, path);
  const [op, item] = [operation?.node, operation?.item.node];
  const own = Array.isArray(op?.servers) ? op.servers : Array.isArray(item?.servers) ? item.servers : undefined;
  const server = (own ?? (Array.isArray(openapi.servers) ? openapi.servers : []))[0];
  return isObject(server) ? text(server.url) : '';
}

/** What a response's `data` is: a named schema (or an array of one), or the schema itself. */
function dataOf(doc: JsonObject, schemaPointer: string): { name?: string; array: boolean; schema?: Json } {
  const pointers = propertyPointers(doc, schemaPointer, 'data');
  // The operation's own narrowing of the envelope is the last definition, and the most specific.
  for (const ptr of [...pointers].reverse()) {
    const node = get(doc, ptr);
    const name = schemaName(doc, node);
    if (name) return { name, array: false };
    const items = isObject(node) ? node.items : undefined;
    const itemName = schemaName(doc, items);
    if (itemName) return { name: itemName, array: true };
    if (isObject(node) && (node.properties || node.allOf || node.items)) return { array: false, schema: node };
  }
  return { array: false };
}

/** An error example, in one line: its code, message and reason. */
function errorExampleLine(name: string, value: Json): string {
  const error = isObject(value) && isObject(value.error) ? value.error : {};
  const details = isObject(error.details) ? error.details : {};
  const reason = typeof details.reason === 'string' ? `, \`details.reason\` \`${details.reason}\`` : '';
  return `\`${name}\`: \`${text(error.code)}\` "${text(error.message)}"${reason}`;
}

function parametersMarkdown(doc: JsonObject, op: ExampleOperation, operation: Operation): string {
  const described = new Map(operation.parameters.map((p) => [`${p.in}:${p.name}`, p.node]));
  return op.parameters
    .map((p) => {
      const node = described.get(`${p.in}:${p.name}`) ?? {};
      const values = schemaValues(doc, p.schema);
      const meta = [
        p.in,
        schemaType(doc, p.schema),
        p.required ? 'required' : 'optional',
        ...(node['x-provisional'] === true ? ['provisional'] : []),
      ].join(', ');
      const extra = [
        values.length > 0 ? `One of: ${values.map((v) => `\`${v}\``).join(', ')}.` : '',
        p.schema.default !== undefined ? `Default: \`${JSON.stringify(p.schema.default)}\`.` : '',
        `Example: \`${typeof p.example === 'string' ? p.example : JSON.stringify(p.example)}\`.`,
      ]
        .filter(Boolean)
        .join(' ');
      return `- \`${p.name}\` (${meta}): ${indented([text(node.description).trim(), extra].filter(Boolean).join('\n\n'))}`;
    })
    .join('\n');
}

interface OperationContext {
  openapi: JsonObject;
  docs: JsonObject;
  /** The schemas responses name, written once in `## Schemas`. */
  schemas: Set<string>;
}

function operationSection(ctx: OperationContext, op: ExampleOperation, operation: Operation): string {
  const raw = operation.node;
  const events = Array.isArray(raw['x-events']) ? raw['x-events'].map((e) => `\`${text(e)}\``) : [];
  const head = [
    `\`${op.method} ${serverTemplate(ctx.openapi, op.path, op.method.toLowerCase())}${op.path}\`, operationId \`${op.operationId}\`.`,
    raw['x-provisional'] === true ? 'Provisional.' : '',
    events.length > 0 ? `Emits ${events.join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const parts: string[] = [`### ${op.summary || op.operationId}`, '', head, '', text(raw.description).trim()];
  if (op.parameters.length > 0) parts.push('', '**Parameters**', '', parametersMarkdown(ctx.docs, op, operation));
  const media = operation.requestBody?.json;
  if (media) parts.push('', ...requestBodyLines(ctx.docs, op, media));
  parts.push(...responsesLines(ctx, operation));
  const examples = exampleLines(op, raw, media);
  if (examples.length > 0) parts.push('', '**Examples**', '', ...examples);
  return parts
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The lines of the operation's JSON request body (its media type object). */
function requestBodyLines(doc: JsonObject, op: ExampleOperation, media: Media): string[] {
  const schema = contractModel(doc).at(`${media.pointer}/schema`);
  const name = schemaName(doc, schema);
  const lines = [`**Request body** (\`application/json\`, ${op.bodyRequired ? 'required' : 'optional'}${name ? `, \`${name}\`` : ''})`, ''];
  const about = media.schema?.node;
  if (isObject(about) && Array.isArray(about.oneOf) && text(about.description)) lines.push(text(about.description).trim(), '');
  lines.push(schemaMarkdown(doc, schema));
  return lines;
}

/** Each success response with what its `data` is, then the errors: shared ones by name, the operation's own with examples. */
function responsesLines(ctx: OperationContext, operation: Operation): string[] {
  const { docs: doc } = ctx;
  const lines: string[] = [];
  const errors: string[] = [];
  for (const response of operation.responses) {
    const { status } = response;
    const description = text(response.node.description).trim();
    if (/^2/.test(status)) {
      const data = dataOf(doc, `${operation.pointer}/responses/${status}/content/application~1json/schema`);
      if (data.name) ctx.schemas.add(data.name);
      const what = data.name
        ? `\`data\` is ${data.array ? 'an array of ' : 'a '}[\`${data.name}\`](#${data.name.toLowerCase()}) (see Schemas).`
        : '';
      lines.push('', `**Response ${status}**: ${indented([description, what].filter(Boolean).join(' '))}`);
      if (!data.name && data.schema !== undefined) lines.push('', 'Fields of `data`:', '', schemaMarkdown(doc, data.schema));
      continue;
    }
    const codes = response.errorCodes.map((c) => `\`${c}\``);
    // A shared response (components/responses) is described once, at the top; an operation's own refusals here,
    // with their examples.
    const shared = /^\/components\/responses\/([^/]+)$/.exec(response.pointer)?.[1];
    if (shared) {
      errors.push(`- \`${status}\` ${codes.join(', ')} (the shared response \`${shared}\`).`);
      continue;
    }
    errors.push(
      `- \`${status}\` ${codes.join(', ')}: ${indented(description)}` +
        (response.json?.examples ?? []).map((e) => `\n  - ${errorExampleLine(e.name, e.value)}`).join(''),
    );
  }
  if (errors.length > 0) lines.push('', '**Errors**', '', ...errors);
  return lines;
}

/** The request and success examples, then the curl and TypeScript samples. */
function exampleLines(op: ExampleOperation, raw: JsonObject, media: Media | undefined): string[] {
  const examples: string[] = [];
  if (media) {
    for (const example of media.examples) examples.push(`Request \`${example.name}\`:`, '', json(example.value), '');
  }
  for (const response of op.responses.filter((r) => /^2/.test(r.status))) {
    for (const example of response.examples)
      examples.push(`Response \`${response.status}\` \`${example.name}\`:`, '', json(example.value), '');
  }
  const samples = Array.isArray(raw['x-codeSamples']) ? raw['x-codeSamples'].filter(isObject) : [];
  for (const sample of samples.filter((s) => ['curl', 'TypeScript'].includes(text(s.label)))) {
    const label = text(sample.label);
    examples.push(
      label === 'curl'
        ? 'curl, to the local sandbox (`npx partner-api-sandbox --seed examples`):'
        : "TypeScript, with the package's client:",
      '',
      fence(text(sample.source), label === 'curl' ? 'sh' : 'ts'),
      '',
    );
  }
  return examples;
}

/**
 * The paragraphs every webhook's description ends with (the build appends the same acknowledgement and
 * verification text to each event's own): written once, before the webhooks, rather than under each.
 */
export function sharedWebhookText(descriptions: string[]): string {
  const split = descriptions.map((d) => d.trim().split(/\n\s*\n/));
  let k = 0;
  while (split.length > 1 && split.every((p) => p.length > k + 1 && p[p.length - 1 - k] === split[0]![split[0]!.length - 1 - k])) k++;
  return k === 0 ? '' : split[0]!.slice(-k).join('\n\n');
}

/** A webhook of the document (an event the API sends), with where its payload is described. */
function webhookSection(name: string, op: JsonObject, shared: string, eventsPage: string | undefined): string {
  const description = text(op.description).trim();
  const own = shared && description.endsWith(shared) ? description.slice(0, -shared.length).trim() : description;
  return [
    `### ${text(op.summary) || name}`,
    '',
    `Sent to your webhook endpoints (\`POST\`), operation \`${text(op.operationId)}\`.${op['x-provisional'] === true ? ' Provisional.' : ''}` +
      (eventsPage ? ` Its fields, signed headers and an example delivery: [${name}](${eventsPage}#${name}).` : ''),
    '',
    own,
  ]
    .join('\n')
    .trim();
}

/** The sections of each tag, in the order of the tag groups: its operations, then its webhooks. */
function tagSections(
  ctx: OperationContext,
  shared: string,
  eventsPageOf: (event: string) => string | undefined,
): { sections: string[]; operations: ReferenceOperation[]; webhooks: string[] } {
  const { docs } = ctx;
  const examples = new Map(exampleOperations(docs).map((op) => [`${op.method} ${op.path}`, op]));
  const model = contractModel(docs);
  const tagDescriptions = new Map(
    (Array.isArray(docs.tags) ? docs.tags : []).filter(isObject).map((t) => [text(t.name), text(t.description)]),
  );
  const grouped = Array.isArray(docs['x-tagGroups'])
    ? docs['x-tagGroups'].filter(isObject).flatMap((g) => (Array.isArray(g.tags) ? g.tags.map(text) : []))
    : [...tagDescriptions.keys()];
  const operations: ReferenceOperation[] = [];
  const webhooks: string[] = [];
  const sections: string[] = [];
  for (const tag of grouped) {
    const own = model.operations.filter((o) => o.tag === tag);
    const hooks = webhookOperations(docs).filter(({ tag: hookTag }) => hookTag === tag);
    if (own.length === 0 && hooks.length === 0) continue;
    const parts = [`## ${tag}`, '', (tagDescriptions.get(tag) ?? '').trim()];
    for (const operation of own) {
      const { path } = operation;
      const op = examples.get(`${operation.method.toUpperCase()} ${path}`)!;
      operations.push({ operationId: op.operationId, method: op.method, path, heading: op.summary || op.operationId, tag });
      parts.push('', operationSection(ctx, op, operation));
    }
    for (const { name, op } of hooks) {
      webhooks.push(name);
      parts.push('', webhookSection(name, op, shared, eventsPageOf(name)));
    }
    sections.push(parts.join('\n').trim());
  }
  return { sections, operations, webhooks };
}

/** The document's webhooks with their `post` operation, by event name. */
function webhookOperations(docs: JsonObject): { name: string; op: JsonObject; tag: string }[] {
  return contractModel(docs)
    .webhooks.filter((o) => o.method === 'post')
    .map((o) => ({ name: o.path, op: o.node, tag: o.tag }));
}

/** Each schema the responses named, written once. */
function schemaSections(docs: JsonObject, names: Set<string>): string[] {
  return [...names].sort().map((name) => {
    const node = contractModel(docs).schema(name)?.node;
    const description = isObject(node) ? text(node.description).trim() : '';
    return [
      `### \`${name}\``,
      '',
      ...(description ? [description, ''] : []),
      schemaMarkdown(docs, { $ref: `#/components/schemas/${name}` }),
    ].join('\n');
  });
}

/** What the page says before the operations: the servers, authentication, webhooks, shared errors, the API's description. */
function preambleLines(docs: JsonObject, shared: string, source: ReferenceSource): string[] {
  const info = isObject(docs.info) ? docs.info : {};
  const sharedResponses = contractModel(docs).sharedResponses.flatMap((response) => {
    const codes = response.errorCodes.map((c) => `\`${c}\``).join(', ');
    return codes ? [`- \`${response.name}\` (${codes}): ${indented(text(response.node.description))}`] : [];
  });
  const servers = (Array.isArray(docs.servers) ? docs.servers : [])
    .filter(isObject)
    .map((s) => `- \`${text(s.url)}\`: ${text(s.description)}`);
  const security = contractModel(docs).resolvePointer('/components/securitySchemes/bearerAuth').node;
  const title = `${text(info.title) || 'API'} (${text(info.version)})`;
  const webhooks = webhookOperations(docs).length > 0 ? ' every webhook event it sends,' : '';
  return [
    `${title}: ${text(info.summary)} Every operation of the API with its parameters, request body, responses, errors ` +
      `and examples,${webhooks} and the schemas of its answers; the same as the [reference page](${source.url}), from ` +
      `the same document ([${path.posix.basename(source.document)}](${source.document})).`,
    '',
    '**Servers**',
    '',
    ...servers,
    '',
    '**Authentication**',
    '',
    isObject(security) ? text(security.description).trim() : '',
    '',
    ...(shared ? ['**Webhooks**: every event below is sent as a `POST` to your webhook endpoints.', '', shared, ''] : []),
    '**Error responses shared by operations** (each operation lists the ones it answers, by name)',
    '',
    ...sharedResponses,
    '',
    text(info.description).trim(),
  ];
}

/**
 * A reference page (`source`) of a document as one markdown page. `eventsPageOf` gives the address of the events
 * page that describes an event (its markdown twin), for the webhooks' links.
 */
export function referenceMarkdown(
  openapi: JsonObject,
  source: ReferenceSource,
  eventsPageOf: (event: string) => string | undefined = () => undefined,
): ReferencePage {
  const docs = source.docsDocument(openapi);
  const info = isObject(docs.info) ? docs.info : {};
  const ctx: OperationContext = { openapi, docs, schemas: new Set() };
  const shared = sharedWebhookText(webhookOperations(docs).map(({ op }) => text(op.description)));
  const { sections, operations, webhooks } = tagSections(ctx, shared, eventsPageOf);
  const body = [
    ...preambleLines(docs, shared, source),
    '',
    ...sections.flatMap((s) => [s, '']),
    '## Schemas',
    '',
    'The schemas the responses above name as their `data`, each written once.',
    '',
    ...schemaSections(docs, ctx.schemas).flatMap((s) => [s, '']),
  ]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return {
    title: source.title,
    description: `Every operation of ${text(info.title) || 'the API'} ${text(info.version)} as markdown.`,
    body: `${body}\n`,
    operations,
    webhooks,
  };
}
