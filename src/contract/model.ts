// The contract as typed objects: a bundled OpenAPI document (generated/openapi.json, generated/sandbox.json)
// read once into its operations (each with its JSON Pointer, base address, parameters, request body and
// responses), its webhooks and the document-level extensions (x-plans, x-refusals, the ping of x-ping). Every
// part keeps the pointer of the node it was read from, so a reader can point Ajv or a report at it. No module
// outside src/contract/ resolves a `$ref` or walks a bundle's `paths`, `webhooks` or `components`: they ask this.
//
// The model is built lazily: the list of operations is a pass over `paths` without resolving anything, and each
// operation reads its parameters, body and responses at their first use, so a sandbox's start pays for none.
import {
  escapeToken,
  follow,
  get,
  HTTP_METHODS,
  type HttpMethod,
  isObject,
  type Json,
  type JsonObject,
  type Located,
  pointer,
} from './json.ts';

export type { HttpMethod, Json, JsonObject, Located } from './json.ts';

/** A named example (of a media type or a parameter), with the pointer of its Example Object or `example` value. */
export interface Example {
  name: string;
  value: Json;
  pointer: string;
}

/** A media type object of `application/json`: its schema (resolved) and named examples. */
export interface Media {
  readonly pointer: string;
  readonly schema: Located<JsonObject> | undefined;
  readonly examples: Example[];
}

export interface Parameter {
  name: string;
  in: string;
  required: boolean;
  /** The Parameter Object (resolved) and where it is. */
  pointer: string;
  node: JsonObject;
  schema: Located<JsonObject> | undefined;
  examples: Example[];
}

export interface RequestBody {
  pointer: string;
  node: JsonObject;
  required: boolean;
  json: Media | undefined;
}

export interface Header {
  name: string;
  pointer: string;
  node: JsonObject;
}

export interface Response {
  /** The key of `responses`: `200`, `422`, `default`. */
  readonly status: string;
  /** The Response Object (resolved) and where it is. */
  readonly pointer: string;
  readonly node: JsonObject;
  readonly json: Media | undefined;
  /** The error codes its schema carries: each `error.code` const, through `oneOf`, `allOf` and `$ref`. */
  readonly errorCodes: string[];
  readonly headers: Header[];
  /** The names of its headers, without resolving them. */
  readonly headerNames: string[];
}

/** A server address: `{base_url}` (its variable, default and base path `/v1`), `{alt_base_url}` ... */
export interface Server {
  url: string;
  pointer: string;
  /** The variable the url is made of, when it is one (`base_url`). */
  variable: string | undefined;
  /** The url with its variables' defaults: `https://api.partner-api.test/v1`. */
  address: string;
  /** The path of that address: `/v1`, `/api/v1`, `/sandbox` ('' at a host's root). */
  basePath: string;
}

/** The path template as a regular expression of a path without its base path (`/cards/{code}` -> `^/cards/[^/]+/?$`). */
export function templateRegExp(template: string): RegExp {
  const literal = template.split(/\{[^}]+\}/).map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${literal.join('[^/]+')}/?$`);
}

/** The named examples of a media type or parameter at `at`: `examples` (each maybe a `$ref`) or a lone `example`. */
export function examplesAt(doc: JsonObject, node: Json | undefined, at: string): Example[] {
  if (!isObject(node)) return [];
  if (isObject(node['examples'])) {
    return Object.entries(node['examples']).map(([name, ex]) => {
      const resolved = follow(doc, ex, `${at}/examples/${escapeToken(name)}`);
      const value = isObject(resolved.node) && 'value' in resolved.node ? (resolved.node['value'] ?? null) : null;
      return { name, value, pointer: resolved.pointer };
    });
  }
  return node['example'] !== undefined ? [{ name: 'default', value: node['example'], pointer: `${at}/example` }] : [];
}

/** The object at `at` after its `$ref`s, or undefined when it is not an object. */
export function objectAt(doc: JsonObject, node: Json | undefined, at: string): Located<JsonObject> | undefined {
  const resolved = follow(doc, node, at);
  return isObject(resolved.node) ? { pointer: resolved.pointer, node: resolved.node } : undefined;
}

function mediaOf(doc: JsonObject, owner: Located<JsonObject>): Media | undefined {
  const content = owner.node['content'];
  const node = isObject(content) ? content['application/json'] : undefined;
  if (!isObject(node)) return undefined;
  const at = `${owner.pointer}/content/application~1json`;
  // The examples are resolved at their first read: the sandbox reads a body's schema at its start, never its examples.
  let examples: Example[] | undefined;
  return {
    pointer: at,
    schema: objectAt(doc, node['schema'], `${at}/schema`),
    get examples() {
      examples ??= examplesAt(doc, node, at);
      return examples;
    },
  };
}

/** The error codes a schema carries: the `error.code` const of each branch (`oneOf`, `allOf`, `$ref`). */
function errorCodesOf(doc: JsonObject, node: Json | undefined, depth = 0): string[] {
  const schema = follow(doc, node, '').node;
  if (!isObject(schema) || depth > 10) return [];
  const code = get(schema, '/properties/error/properties/code/const');
  const branches = [...(Array.isArray(schema['oneOf']) ? schema['oneOf'] : []), ...(Array.isArray(schema['allOf']) ? schema['allOf'] : [])];
  return [...(typeof code === 'string' ? [code] : []), ...branches.flatMap((b) => errorCodesOf(doc, b, depth + 1))];
}

/** A Response Object: its media, error codes and headers read at their first use (a sandbox's start reads only headers). */
class ResponseModel implements Response {
  readonly status: string;
  readonly pointer: string;
  readonly node: JsonObject;
  readonly #doc: JsonObject;
  #json: Media | null | undefined;
  #errorCodes: string[] | undefined;
  #headers: Header[] | undefined;

  constructor(doc: JsonObject, status: string, located: Located<JsonObject>) {
    this.#doc = doc;
    this.status = status;
    this.pointer = located.pointer;
    this.node = located.node;
  }

  get json(): Media | undefined {
    if (this.#json === undefined) this.#json = mediaOf(this.#doc, this) ?? null;
    return this.#json ?? undefined;
  }

  get errorCodes(): string[] {
    this.#errorCodes ??= errorCodesOf(this.#doc, this.json?.schema?.node);
    return this.#errorCodes;
  }

  get headerNames(): string[] {
    return Object.keys(isObject(this.node['headers']) ? this.node['headers'] : {});
  }

  get headers(): Header[] {
    this.#headers ??= Object.entries(isObject(this.node['headers']) ? this.node['headers'] : {}).flatMap(([name, h]) => {
      const header = objectAt(this.#doc, h, `${this.pointer}/headers/${escapeToken(name)}`);
      return header ? [{ name, ...header }] : [];
    });
    return this.#headers;
  }
}

function responseOf(doc: JsonObject, status: string, node: Json | undefined, at: string): Response | undefined {
  const located = objectAt(doc, node, at);
  return located ? new ResponseModel(doc, status, located) : undefined;
}

function serverOf(node: Json | undefined, at: string): Server | undefined {
  if (!isObject(node) || typeof node['url'] !== 'string') return undefined;
  const url = node['url'];
  const variables = isObject(node['variables']) ? node['variables'] : {};
  const address = url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isObject(variable) && typeof variable['default'] === 'string' ? variable['default'] : whole;
  });
  const variable = /^\{([^}]+)\}$/.exec(url)?.[1];
  let basePath = '';
  try {
    basePath = new URL(address).pathname.replace(/\/$/, '');
  } catch {
    basePath = address.startsWith('/') ? address.replace(/\/$/, '') : '';
  }
  return { url, pointer: at, variable, address, basePath };
}

/** The first server of a `servers` list at `at`, or undefined. */
function firstServer(owner: JsonObject, at: string): Server | undefined {
  const list = owner['servers'];
  return Array.isArray(list) && list.length > 0 ? serverOf(list[0], `${at}/servers/0`) : undefined;
}

/** One operation of `paths` (or `webhooks`): what it is at once, what it holds at its first read. */
export class Operation {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The path template (`/cards/{code}/withdraw`), or the webhook's name under `webhooks`. */
  readonly path: string;
  /** `/paths/~1cards/post`: the Operation Object. */
  readonly pointer: string;
  readonly section: 'paths' | 'webhooks';
  /** The Operation Object itself. */
  readonly node: JsonObject;
  /** The Path Item (resolved) and where it is. */
  readonly item: Located<JsonObject>;
  /** The document it is of. */
  readonly doc: JsonObject;
  #parameters: Parameter[] | undefined;
  #requestBody: RequestBody | null | undefined;
  #responses: Response[] | undefined;

  constructor(doc: JsonObject, section: 'paths' | 'webhooks', path: string, item: Located<JsonObject>, method: HttpMethod) {
    this.doc = doc;
    this.section = section;
    this.path = path;
    this.item = item;
    this.method = method;
    this.pointer = `${item.pointer}/${method}`;
    this.node = item.node[method] as JsonObject;
    this.operationId = typeof this.node['operationId'] === 'string' ? this.node['operationId'] : '';
  }

  get summary(): string {
    return typeof this.node['summary'] === 'string' ? this.node['summary'] : '';
  }

  get tags(): string[] {
    return Array.isArray(this.node['tags']) ? this.node['tags'].map(String) : [];
  }

  /** The first tag (`Cards`), or ''. */
  get tag(): string {
    return this.tags[0] ?? '';
  }

  /** The server the operation is served at: its own `servers`, else its path item's, else the document's. */
  get server(): Server | undefined {
    return firstServer(this.node, this.pointer) ?? firstServer(this.item.node, this.item.pointer) ?? firstServer(this.doc, '');
  }

  /** The operation's `x-` extensions, keyed with their prefix (`x-events`, `x-provisional`, `x-ping` ...). */
  get extensions(): Record<string, Json> {
    return Object.fromEntries(Object.entries(this.node).filter(([key]) => key.startsWith('x-')));
  }

  extension(name: `x-${string}`): Json | undefined {
    return this.node[name];
  }

  /** The events it emits (`x-events`). */
  get events(): string[] {
    const events = this.node['x-events'];
    return Array.isArray(events) ? events.filter((e): e is string => typeof e === 'string') : [];
  }

  get provisional(): boolean {
    return this.node['x-provisional'] === true;
  }

  /** The parameters of the path item and the operation (the operation's win), resolved. */
  get parameters(): Parameter[] {
    this.#parameters ??= this.#readParameters();
    return this.#parameters;
  }

  parameter(where: string, name: string): Parameter | undefined {
    return this.parameters.find((p) => p.in === where && p.name === name);
  }

  get requestBody(): RequestBody | undefined {
    if (this.#requestBody === undefined) {
      const body = objectAt(this.doc, this.node['requestBody'], `${this.pointer}/requestBody`);
      this.#requestBody = body ? { ...body, required: body.node['required'] === true, json: mediaOf(this.doc, body) } : null;
    }
    return this.#requestBody ?? undefined;
  }

  /** The documented responses, in document order. */
  get responses(): Response[] {
    if (!this.#responses) {
      const nodes = isObject(this.node['responses']) ? this.node['responses'] : {};
      this.#responses = Object.entries(nodes).flatMap(([status, node]) => {
        const response = responseOf(this.doc, status, node, `${this.pointer}/responses/${escapeToken(status)}`);
        return response ? [response] : [];
      });
    }
    return this.#responses;
  }

  /** The documented statuses (`['200', '401', ...]`), without resolving the responses. */
  get statuses(): string[] {
    return Object.keys(isObject(this.node['responses']) ? this.node['responses'] : {});
  }

  response(status: string | number): Response | undefined {
    return this.responses.find((r) => r.status === String(status));
  }

  /** True when a path without its base path (`/cards/123`) is one of this operation's template. */
  matches(path: string): boolean {
    return templateRegExp(this.path).test(path);
  }

  #readParameters(): Parameter[] {
    const byKey = new Map<string, Parameter>();
    for (const owner of [this.item, { pointer: this.pointer, node: this.node }]) {
      const list = Array.isArray(owner.node['parameters']) ? owner.node['parameters'] : [];
      list.forEach((node, i) => {
        const p = objectAt(this.doc, node, `${owner.pointer}/parameters/${i}`);
        if (!p || typeof p.node['name'] !== 'string' || typeof p.node['in'] !== 'string') return;
        const [name, where] = [p.node['name'], p.node['in']];
        const schema = objectAt(this.doc, p.node['schema'], `${p.pointer}/schema`);
        const examples = examplesAt(this.doc, p.node, p.pointer);
        byKey.set(`${where}:${name}`, { name, in: where, required: p.node['required'] === true, ...p, schema, examples });
      });
    }
    return [...byKey.values()];
  }
}

/** Every operation of a section of a document, in document order. */
function operationsOf(doc: JsonObject, section: 'paths' | 'webhooks'): Operation[] {
  const operations: Operation[] = [];
  for (const [path, node] of Object.entries(isObject(doc[section]) ? doc[section] : {})) {
    const item = objectAt(doc, node, pointer(section, path));
    if (!item) continue;
    for (const method of HTTP_METHODS) if (isObject(item.node[method])) operations.push(new Operation(doc, section, path, item, method));
  }
  return operations;
}

/** The kinds of `components` a reader asks for. */
export type ComponentKind = 'schemas' | 'parameters' | 'responses' | 'headers' | 'examples' | 'requestBodies' | 'securitySchemes';

/** A path template of `paths` and its operations: what a request's path (without its base path) is matched to. */
export interface PathTemplate {
  template: string;
  /** `/paths/~1cards~1{code}`: the Path Item. */
  pointer: string;
  operations: Operation[];
  /** The methods, upper case, in document order: `['GET', 'POST']`. */
  methods: string[];
  re: RegExp;
}

/** A refusal the contract's `x-refusals` names: its status and code (and the `details.reason` it carries, if any). */
export interface RefusalAnswer {
  status: number;
  code: string;
  reason?: string;
}

/** The contract's refusals (`x-refusals` at the root): the checks in the order they are made, and the wrong-method answer. */
export interface Refusals {
  order: { check: string; answers: RefusalAnswer[] }[];
  wrongMethod: RefusalAnswer & { allowHeader: boolean; details: string[] };
}

/** The ping sent to a webhook endpoint's url (`x-ping` of `createWebhookEndpoint`): its schema and event `type`. */
export interface Ping {
  pointer: string;
  schema: JsonObject;
  type: string;
}

function refusalsIn(doc: JsonObject): Refusals {
  const root = doc['x-refusals'];
  if (!isObject(root) || !Array.isArray(root['order']) || !isObject(root['wrong_method']))
    throw new Error('the contract has no x-refusals with an order and a wrong_method');
  const wrong = root['wrong_method'];
  if (typeof wrong['status'] !== 'number' || typeof wrong['code'] !== 'string')
    throw new Error("the contract's x-refusals.wrong_method has no status and code");
  return {
    order: root['order'] as unknown as Refusals['order'],
    wrongMethod: {
      status: wrong['status'],
      code: wrong['code'],
      allowHeader: wrong['allow_header'] === true,
      details: Array.isArray(wrong['details']) ? (wrong['details'] as string[]) : [],
    },
  };
}

function pingIn(model: ContractModel): Ping {
  const where = model.operation('createWebhookEndpoint')?.extension('x-ping');
  if (typeof where !== 'string' || !where.startsWith('#/')) throw new Error('the contract names no x-ping on createWebhookEndpoint');
  const schema = model.at(where.slice(1));
  if (!isObject(schema)) throw new Error(`the contract's x-ping ${where} names no schema`);
  const branches = (Array.isArray(schema['allOf']) ? schema['allOf'] : []).map((b) => model.resolve(b).node);
  const type = branches.map((b) => get(b, '/properties/type/const')).find((c): c is string => typeof c === 'string');
  if (type === undefined) throw new Error(`the contract's ping schema ${where} gives no type const`);
  return { pointer: where.slice(1), schema, type };
}

function errorStatusesOf(operations: Operation[]): Map<string, number> {
  const statuses = new Map<string, number>();
  for (const operation of operations) {
    for (const response of operation.responses) {
      if (!/^[45][0-9]{2}$/.test(response.status)) continue;
      for (const code of response.errorCodes) {
        const known = statuses.get(code);
        if (known !== undefined && known !== Number(response.status))
          throw new Error(
            `the contract answers ${code} with ${known} and ${response.status} (${operation.method.toUpperCase()} ${operation.path})`,
          );
        statuses.set(code, Number(response.status));
      }
    }
  }
  return statuses;
}

function templatesOf(operations: Operation[]): PathTemplate[] {
  const byTemplate = new Map<string, PathTemplate>();
  for (const operation of operations) {
    let entry = byTemplate.get(operation.path);
    if (!entry) {
      entry = {
        template: operation.path,
        pointer: operation.item.pointer,
        operations: [],
        methods: [],
        re: templateRegExp(operation.path),
      };
      byTemplate.set(operation.path, entry);
    }
    entry.operations.push(operation);
    entry.methods.push(operation.method.toUpperCase());
  }
  // A literal segment wins over a parameter: `/payouts/beneficiaries` is not `/payouts/{code}`.
  const params = (template: string) => template.split('{').length;
  return [...byTemplate.values()].sort((a, b) => params(a.template) - params(b.template));
}

/** A webhook's event type and example event (the body's first named example, else the event schema's `examples[0]`). */
export interface ExampleEvent {
  type: string;
  event: Json;
}

function exampleEventOf(webhook: Operation): ExampleEvent {
  const media = webhook.requestBody?.json;
  const schemaExamples = media?.schema?.node['examples'];
  const event = media?.examples[0]?.value ?? (Array.isArray(schemaExamples) ? schemaExamples[0] : undefined);
  return { type: webhook.path, event: event ?? null };
}

/** One bundled document as typed objects (see the top of this file). Build it with `contractModel(doc)`. */
export class ContractModel {
  readonly doc: JsonObject;
  #operations: Operation[] | undefined;
  #webhooks: Operation[] | undefined;
  #byId: Map<string, Operation> | undefined;
  #templates: PathTemplate[] | undefined;
  #errorStatuses: Map<string, number> | undefined;
  #refusals: Refusals | undefined;
  #ping: Ping | undefined;

  constructor(doc: JsonObject) {
    this.doc = doc;
  }

  /** The operations of `paths`, in document order. */
  get operations(): Operation[] {
    this.#operations ??= operationsOf(this.doc, 'paths');
    return this.#operations;
  }

  /** The operations of `webhooks` (one per event, its `path` the event's name), in document order. */
  get webhooks(): Operation[] {
    this.#webhooks ??= operationsOf(this.doc, 'webhooks');
    return this.#webhooks;
  }

  /** The operation of `paths` or `webhooks` with this operationId. */
  operation(operationId: string): Operation | undefined {
    this.#byId ??= new Map([...this.operations, ...this.webhooks].map((o) => [o.operationId, o]));
    return this.#byId.get(operationId);
  }

  /** The operation of a method (any case) and path template (`/cards/{code}`). */
  byPath(method: string, template: string): Operation | undefined {
    const lower = method.toLowerCase();
    return this.operations.find((o) => o.method === lower && o.path === template);
  }

  /** The path templates, those with fewer parameters first. */
  get templates(): PathTemplate[] {
    this.#templates ??= templatesOf(this.operations);
    return this.#templates;
  }

  /** The template a path without its base path (`/cards/123`) is one of, a literal segment winning over a parameter. */
  match(path: string): PathTemplate | undefined {
    return this.templates.find((t) => t.re.test(path));
  }

  /** The document's servers. */
  get servers(): Server[] {
    const list = Array.isArray(this.doc['servers']) ? this.doc['servers'] : [];
    return list.flatMap((node, i) => serverOf(node, `/servers/${i}`) ?? []);
  }

  /** The HTTP status of each error code, as the operations answer it; throws when a code has two statuses. */
  get errorStatuses(): Map<string, number> {
    this.#errorStatuses ??= errorStatusesOf(this.operations);
    return this.#errorStatuses;
  }

  /** `x-refusals`; throws when the document has none. */
  get refusals(): Refusals {
    this.#refusals ??= refusalsIn(this.doc);
    return this.#refusals;
  }

  /** The ping of `x-ping`; throws when the document names none. */
  get ping(): Ping {
    this.#ping ??= pingIn(this);
    return this.#ping;
  }

  /** The document's `x-` extensions (`x-plans`, `x-refusals`, `x-tagGroups` ...). */
  get extensions(): Record<string, Json> {
    return Object.fromEntries(Object.entries(this.doc).filter(([key]) => key.startsWith('x-')));
  }

  /** Each webhook's event type and example event. */
  get exampleEvents(): ExampleEvent[] {
    return this.webhooks.map(exampleEventOf);
  }

  /** A document-level extension (`x-plans`, `x-refusals` ...). */
  extension(name: `x-${string}`): Json | undefined {
    return this.doc[name];
  }

  /** A component by kind and name (`parameters`, `IdempotencyKey`), resolved. */
  component(kind: ComponentKind, name: string): Located<JsonObject> | undefined {
    const at = pointer('components', kind, name);
    return objectAt(this.doc, get(this.doc, at), at);
  }

  /** The names of the components of a kind, in document order. */
  componentNames(kind: ComponentKind): string[] {
    const components = get(this.doc, pointer('components', kind));
    return isObject(components) ? Object.keys(components) : [];
  }

  /** A schema of `components.schemas` by name (resolved). */
  schema(name: string): Located<JsonObject> | undefined {
    return this.component('schemas', name);
  }

  /** The names of `components.schemas`. */
  get schemaNames(): string[] {
    return this.componentNames('schemas');
  }

  /** The Response Objects of `components.responses` (resolved), in document order, each with its name there. */
  get sharedResponses(): (Response & { name: string })[] {
    const nodes = get(this.doc, '/components/responses');
    return Object.entries(isObject(nodes) ? nodes : {}).flatMap(([name, node]) => {
      const located = objectAt(this.doc, node, pointer('components', 'responses', name));
      // A class of its own, not a spread copy: a copy would lose the lazy getters (error codes, media, headers).
      return located ? [Object.assign(new ResponseModel(this.doc, '', located), { name })] : [];
    });
  }

  /** A Response Object in hand (resolved), found at `at`: its schema, error codes, examples and headers. */
  responseOf(node: Json | undefined, status = '', at = ''): Response | undefined {
    return responseOf(this.doc, status, node, at);
  }

  /** The pointer of every node a `$ref` in `node` names, through the `$ref`s of those nodes (`/components/schemas/Card` ...). */
  refsReached(node: Json | undefined, out = new Set<string>()): Set<string> {
    if (Array.isArray(node)) for (const item of node) this.refsReached(item, out);
    else if (isObject(node)) {
      const ref = node['$ref'];
      if (typeof ref !== 'string') for (const value of Object.values(node)) this.refsReached(value, out);
      else if (ref.startsWith('#') && !out.has(ref.slice(1))) {
        out.add(ref.slice(1));
        this.refsReached(get(this.doc, ref), out);
      }
    }
    return out;
  }

  /** The node at a JSON Pointer of the document (`#` allowed in front), or undefined. */
  at(ptr: string): Json | undefined {
    return get(this.doc, ptr);
  }

  /** A node in hand (a schema's property, a branch of its `oneOf`) found at `at`, after its `$ref`s, with its pointer. */
  resolve(node: Json | undefined, at = ''): Located<Json | undefined> {
    return follow(this.doc, node, at);
  }

  /** The node at a pointer after its `$ref`s. */
  resolvePointer(ptr: string): Located<Json | undefined> {
    return follow(this.doc, get(this.doc, ptr), ptr);
  }
}

const models = new WeakMap<JsonObject, ContractModel>();

/** The model of a document object, made at its first call and kept while the object lives. */
export function contractModel(doc: JsonObject): ContractModel {
  let model = models.get(doc);
  if (!model) {
    model = new ContractModel(doc);
    models.set(doc, model);
  }
  return model;
}

/** A fresh model of a document (not cached): for a document that changes after it is read. */
export function loadContract(doc: JsonObject): ContractModel {
  return new ContractModel(doc);
}
