// Reads a bundled OpenAPI document (generated/openapi.json) for what the mock tooling needs: every operation
// with a valid example request (path parameters, required query parameters, body), its responses with their
// named examples, and (from src/contract/bundle.ts, which the package's trigger reads them with) each webhook's
// example event. Internal `$ref`s (`#/components/...`) are followed.

import { deref, isObject, mediaExamples, operationEntries, type Json, type JsonObject, type NamedExample } from './pointer.ts';

export type { Json, JsonObject, NamedExample };
export { exampleEvents, mediaExamples } from './pointer.ts';

export interface ResponseExamples {
  status: string;
  /** Named examples of the JSON body, in document order (a lone `example` is named "default"). */
  examples: NamedExample[];
}

export interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: JsonObject;
  /** A valid value: the parameter's example, else its schema's example, enum or format. */
  example: Json;
}

export interface ExampleOperation {
  operationId: string;
  method: string;
  /** The path template: /cards/{code}/withdraw. */
  path: string;
  summary: string;
  parameters: Parameter[];
  /** The path with every path parameter replaced by its example, plus the required query parameters. */
  url: string;
  /** The first named example of the JSON request body, if the operation takes one. */
  body?: Json;
  bodyRequired: boolean;
  /** The `required` list of the body schema when it is a plain object schema (not oneOf/allOf), else []. */
  bodyRequiredFields: string[];
  responses: ResponseExamples[];
}

const FORMAT_SAMPLES: Record<string, string> = {
  uuid: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  'date-time': '2026-03-02T10:15:30Z',
  date: '2026-03-02',
  email: 'partner@example.com',
  uri: 'https://example.com/',
};

/** A valid sample value for a (dereferenced) schema, from its examples, enum, const, format or type. */
export function sampleValue(doc: JsonObject, schemaNode: Json | undefined): Json {
  const schema = deref(doc, schemaNode);
  if (!isObject(schema)) return 'example';
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0] ?? null;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] ?? null;
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) return sampleValue(doc, branches[0]);
  }
  if (typeof schema.format === 'string' && FORMAT_SAMPLES[schema.format]) return FORMAT_SAMPLES[schema.format]!;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'boolean') return true;
  return 'example';
}

function parameterExample(doc: JsonObject, param: JsonObject): Json {
  if (param.example !== undefined) return param.example;
  if (isObject(param.examples)) {
    const first = Object.values(param.examples)[0];
    const resolved = deref(doc, first);
    if (isObject(resolved) && resolved.value !== undefined) return resolved.value;
  }
  return sampleValue(doc, param.schema);
}

/** Every operation of `doc.paths`, in document order, with a valid example request. */
export function exampleOperations(doc: JsonObject): ExampleOperation[] {
  const operations: ExampleOperation[] = [];
  for (const { path, method, item, operation: op } of operationEntries(doc)) {
    const params = new Map<string, Parameter>();
    for (const node of [
      ...(Array.isArray(item.parameters) ? item.parameters : []),
      ...(Array.isArray(op.parameters) ? op.parameters : []),
    ]) {
      const p = deref(doc, node);
      if (!isObject(p) || typeof p.name !== 'string' || typeof p.in !== 'string') continue;
      params.set(`${p.in}:${p.name}`, {
        name: p.name,
        in: p.in,
        required: p.required === true,
        schema: (deref(doc, p.schema) as JsonObject) ?? {},
        example: parameterExample(doc, p),
      });
    }
    const parameters = [...params.values()];
    let url = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const p = params.get(`path:${name}`);
      return encodeURIComponent(String(p?.example ?? 'example'));
    });
    const query = parameters.filter((p) => p.in === 'query' && p.required);
    if (query.length > 0) url += `?${new URLSearchParams(query.map((p): [string, string] => [p.name, String(p.example)])).toString()}`;

    const requestBody = deref(doc, op.requestBody);
    const json = isObject(requestBody) && isObject(requestBody.content) ? requestBody.content['application/json'] : undefined;
    const bodyExamples = mediaExamples(doc, json);
    const bodySchema = isObject(json) ? deref(doc, json.schema) : undefined;
    const bodyRequiredFields =
      isObject(bodySchema) && Array.isArray(bodySchema.required)
        ? bodySchema.required.filter((f): f is string => typeof f === 'string')
        : [];
    const responses: ResponseExamples[] = [];
    for (const [status, responseNode] of Object.entries(isObject(op.responses) ? op.responses : {})) {
      const response = deref(doc, responseNode);
      const content = isObject(response) && isObject(response.content) ? response.content : {};
      responses.push({ status, examples: mediaExamples(doc, content['application/json']) });
    }
    operations.push({
      operationId: typeof op.operationId === 'string' ? op.operationId : `${method} ${path}`,
      method: method.toUpperCase(),
      path,
      summary: typeof op.summary === 'string' ? op.summary : '',
      parameters,
      url,
      ...(json !== undefined ? { body: bodyExamples[0]?.value ?? sampleValue(doc, isObject(json) ? json.schema : undefined) } : {}),
      bodyRequired: isObject(requestBody) && requestBody.required === true,
      bodyRequiredFields,
      responses,
    });
  }
  return operations;
}

/** A ready-to-paste curl command for one operation of the mock at `baseUrl` (test key, example body). */
export function curlCommand(op: ExampleOperation, baseUrl: string, key = 'sk_test_local'): string {
  const parts = [`curl -X ${op.method} '${baseUrl}${op.url}'`, `-H 'Authorization: Bearer ${key}'`];
  if (op.body !== undefined) parts.push(`-H 'Content-Type: application/json'`, `-d '${JSON.stringify(op.body)}'`);
  return parts.join(' \\\n    ');
}
