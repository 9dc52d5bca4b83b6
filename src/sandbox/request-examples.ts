// The request examples of the contract's operations, as the seed, the fixture loader and the example receiver read
// them: apart from ./seed.ts, so that the fixture loader can read them without importing the seed.
import { sandboxModel, type JsonObject } from './core/contract.js';

/** The request examples of an operation, from the contract (copies). */
export function requestExamples(method: string, path: string): JsonObject[] {
  const examples = sandboxModel().byPath(method, path)?.requestBody?.json?.examples ?? [];
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
