// The request examples of the contract's operations, as the seed, the fixture loader and the example receiver read
// them: apart from ./seed.ts, so that the fixture loader can read them without importing the seed.
import { sandboxDocument, type JsonObject } from './core/contract.js';

type Doc = { paths: Record<string, Record<string, JsonObject>> };

/** The request examples of an operation, from the contract (copies). */
export function requestExamples(method: string, path: string): JsonObject[] {
  const op = (sandboxDocument() as unknown as Doc).paths[path]?.[method.toLowerCase()];
  const content = ((op?.requestBody as JsonObject | undefined)?.content as JsonObject | undefined)?.['application/json'] as
    | JsonObject
    | undefined;
  const examples = Object.values((content?.examples ?? {}) as JsonObject) as JsonObject[];
  return examples
    .map((e) => e.value)
    .filter((v): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v))
    .map((v) => structuredClone(v));
}

/** The first request example of an operation, from the contract; throws, naming the operation, when it has none. */
export function requestExample(method: string, path: string): JsonObject {
  const value = requestExamples(method, path)[0];
  if (!value) throw new Error(`${method} ${path} has no request example in the contract`);
  return value;
}
