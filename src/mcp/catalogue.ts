// The operations the MCP server's tools call: the partner API's (generated/openapi.json, as the sandbox serves
// it) and the simulation API's (generated/sandbox.json), read through the sandbox's own readers: operationsOf
// (id, method, path, tag, which host), readDocumentRoutes (the request schemas fastify validates, `$ref`s resolved),
// its Ajv instances and its validation messages. A request the tools refuse before sending is refused for the
// reasons, and in the words, the sandbox would answer with.
import { isObject, type JsonObject } from '../contract/json.js';
import { contractModel } from '../contract/model.js';
import { createAjv } from '../sandbox/core/ajv.js';
import { operationsOf, sandboxDocument, simulationDocument, type OperationInfo } from '../sandbox/core/contract.js';
import { readDocumentRoutes, type DocumentRoute } from '../sandbox/core/document-routes.js';
import { validationProblem, type AjvError } from '../sandbox/core/validation-messages.js';

export type Api = 'partner' | 'simulation';

export interface CatalogueOperation extends OperationInfo {
  api: Api;
  summary: string;
  description: string;
  /** The events it emits (`x-events`). */
  events: string[];
  provisional: boolean;
}

/** What a tool call gives for a request: the arguments of call_partner_api and simulate. */
export interface RequestInput {
  path_params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** The request schemas of an operation, as the sandbox validates them: JSON Schema, `$ref`s resolved. */
export interface RequestSchemas {
  path_params?: object;
  query?: object;
  body?: object;
}

type Validate = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function catalogueOf(api: Api, doc: JsonObject): CatalogueOperation[] {
  const model = contractModel(doc);
  return operationsOf(doc).map((info) => {
    const op = model.operation(info.operationId);
    return {
      ...info,
      api,
      summary: op?.summary ?? '',
      description: text(op?.node.description),
      events: op?.events ?? [],
      provisional: op?.provisional === true,
    };
  });
}

export class Catalogue {
  readonly operations: CatalogueOperation[];
  private readonly docs: Record<Api, JsonObject>;
  private readonly validators = new Map<string, Validate>();

  constructor() {
    this.docs = { partner: sandboxDocument(), simulation: simulationDocument() };
    this.operations = [...catalogueOf('partner', this.docs.partner), ...catalogueOf('simulation', this.docs.simulation)];
  }

  ids(api: Api): [string, ...string[]] {
    const ids = this.operations.filter((o) => o.api === api).map((o) => o.operationId);
    if (ids.length === 0) throw new Error(`the contract has no ${api} operations`);
    return ids as [string, ...string[]];
  }

  get(operationId: string): CatalogueOperation | undefined {
    return this.operations.find((o) => o.operationId === operationId);
  }

  private async route(op: CatalogueOperation): Promise<DocumentRoute> {
    const route = (await readDocumentRoutes(this.docs[op.api])).find((r) => r.operationId === op.operationId);
    if (!route) throw new Error(`${op.operationId} has no route in the ${op.api} document`);
    return route;
  }

  /** The JSON Schemas of the operation's path parameters, query and body: what call_partner_api and simulate take. */
  async schemas(op: CatalogueOperation): Promise<RequestSchemas> {
    const { schema } = await this.route(op);
    const s = schema as { params?: object; querystring?: object; body?: { content?: Record<string, { schema?: object }> } };
    // Glue keys a body schema by media type, as fastify validates it; every body of the contract is JSON.
    const body = s.body?.content ? s.body.content['application/json']?.schema : s.body;
    return {
      ...(s.params ? { path_params: s.params } : {}),
      ...(s.querystring ? { query: s.querystring } : {}),
      ...(body ? { body } : {}),
    };
  }

  private validator(op: CatalogueOperation, part: keyof RequestSchemas, schema: object): Validate {
    const key = `${op.operationId} ${part}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = createAjv(this.docs[op.api], part === 'body' ? 'body' : 'params').compile(schema) as Validate;
      this.validators.set(key, validate);
    }
    return validate;
  }

  /**
   * Why the request breaks the contract, a line per field (`body: amount must be >= 5 (minimum)`); empty when it
   * does not. The values are checked as the sandbox checks them (parameters coerced from their text).
   */
  async problems(op: CatalogueOperation, input: RequestInput): Promise<string[]> {
    const schemas = await this.schemas(op);
    const problems: string[] = [];
    const check = (part: keyof RequestSchemas, value: unknown) => {
      const schema = schemas[part];
      if (!schema) {
        if (value !== undefined && !(isObject(value) && Object.keys(value).length === 0))
          problems.push(`${part}: ${op.operationId} takes none`);
        return;
      }
      const data = structuredClone(value ?? {});
      const validate = this.validator(op, part, schema);
      if (validate(data)) return;
      for (const field of validationProblem(validate.errors ?? [], part, data).fields) {
        problems.push(field.field === part ? `${part}: ${field.message}` : `${part}: ${field.field} ${field.message}`);
      }
    };
    check('path_params', input.path_params);
    check('query', input.query);
    if (input.body === undefined) {
      if (op.bodyRequired) problems.push('body: is required (required)');
    } else {
      check('body', input.body);
    }
    return problems;
  }
}

/** The path of a request: the template's `{name}`s replaced by the values given, each encoded. */
export function requestPath(op: CatalogueOperation, pathParams: Record<string, unknown> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(pathParams[name] ?? `{${name}}`)));
}

/** A query string of the values given (`?type=card.frozen&limit=10`); an array repeats its key. */
export function queryString(query: Record<string, unknown> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, typeof item === 'string' ? item : JSON.stringify(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
