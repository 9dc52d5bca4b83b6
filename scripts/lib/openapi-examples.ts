// Reads a bundled OpenAPI document (generated/openapi.json) for what the mock tooling needs: every operation
// with a valid example request (path parameters, required query parameters, body), its responses with their
// named examples, and (from src/contract/bundle.ts, which the package's trigger reads them with) each webhook's
// example event. It asks the contract model (src/contract/model.ts).

import { contractModel, type Parameter as ModelParameter } from '../../src/contract/model.ts';
import { isObject, type Json, type JsonObject, type NamedExample } from './pointer.ts';

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

/** A valid sample value for a schema (its `$ref`s followed), from its examples, enum, const, format or type. */
export function sampleValue(doc: JsonObject, schemaNode: Json | undefined): Json {
  const schema = contractModel(doc).resolve(schemaNode).node;
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

function parameterOf(doc: JsonObject, p: ModelParameter): Parameter {
  const example = p.node.example !== undefined ? p.node.example : (p.examples[0]?.value ?? sampleValue(doc, p.node.schema));
  return { name: p.name, in: p.in, required: p.required, schema: p.schema?.node ?? {}, example };
}

/** The path with every path parameter replaced by its example, plus the required query parameters. */
function exampleUrl(path: string, parameters: Parameter[]): string {
  const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const p = parameters.find((q) => q.in === 'path' && q.name === name);
    return encodeURIComponent(String(p?.example ?? 'example'));
  });
  const query = parameters.filter((p) => p.in === 'query' && p.required);
  return query.length > 0
    ? `${url}?${new URLSearchParams(query.map((p): [string, string] => [p.name, String(p.example)])).toString()}`
    : url;
}

/** Every operation of `doc.paths`, in document order, with a valid example request. */
export function exampleOperations(doc: JsonObject): ExampleOperation[] {
  return contractModel(doc).operations.map((op) => {
    const parameters = op.parameters.map((p) => parameterOf(doc, p));
    const json = op.requestBody?.json;
    const required = json?.schema?.node.required;
    return {
      operationId: op.operationId || `${op.method} ${op.path}`,
      method: op.method.toUpperCase(),
      path: op.path,
      summary: op.summary,
      parameters,
      url: exampleUrl(op.path, parameters),
      ...(json !== undefined ? { body: json.examples[0]?.value ?? sampleValue(doc, json.schema?.node) } : {}),
      bodyRequired: op.requestBody?.required === true,
      bodyRequiredFields: Array.isArray(required) ? required.filter((f): f is string => typeof f === 'string') : [],
      responses: op.responses.map((r) => ({
        status: r.status,
        examples: (r.json?.examples ?? []).map(({ name, value }) => ({ name, value })),
      })),
    };
  });
}

/** A ready-to-paste curl command for one operation of the mock at `baseUrl` (test key, example body). */
export function curlCommand(op: ExampleOperation, baseUrl: string, key = 'sk_test_local'): string {
  const parts = [`curl -X ${op.method} '${baseUrl}${op.url}'`, `-H 'Authorization: Bearer ${key}'`];
  if (op.body !== undefined) parts.push(`-H 'Content-Type: application/json'`, `-d '${JSON.stringify(op.body)}'`);
  return parts.join(' \\\n    ');
}
