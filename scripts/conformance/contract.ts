// What the suite reads from the contract bundle about one operation: its parameters, its request body schema
// and first request example, the values of a closed set, which path parameters name a resource, and a
// well-formed reference that names none.
import { randomUUID } from 'node:crypto';
import { isGiftCardPath } from '../../src/contract/servers.ts';
import { contractModel } from '../../src/contract/model.ts';
import { isObject, type Json, type JsonObject } from '../lib/pointer.ts';
import type { ResponseValidator } from './validate-response.ts';

/** Anything that holds the contract's validator (the hooks' state, a check's context). */
export interface WithContract {
  validator: ResponseValidator;
}

/** Follows `$ref`s (internal, `#/...`) to the object they point at. */
export function resolveRef(state: WithContract, node: Json | undefined): JsonObject | undefined {
  const resolved = contractModel(state.validator.bundle).resolve(node).node;
  return isObject(resolved) ? resolved : undefined;
}

/** The operation of a method and path template, as the contract model reads it. */
export const operationOf = (state: WithContract, method: string, template: string) =>
  contractModel(state.validator.bundle).byPath(method, template);

/** The operation's parameter objects (path item and operation level, $refs resolved). */
export function parameters(state: WithContract, method: string, template: string): JsonObject[] {
  return operationOf(state, method, template)?.parameters.map((p) => p.node) ?? [];
}

export function hasHeaderParam(state: WithContract, method: string, template: string, name: string): boolean {
  return parameters(state, method, template).some((p) => p.in === 'header' && String(p.name).toLowerCase() === name.toLowerCase());
}

/** The schema of the operation's JSON request body (the contract's bodies are all `application/json`). */
export function requestBodySchema(state: WithContract, method: string, template: string): JsonObject | undefined {
  return operationOf(state, method, template)?.requestBody?.json?.schema?.node;
}

/** The operation's first request example (a copy), or `{}`. */
export function firstRequestExample(state: WithContract, method: string, template: string): JsonObject {
  const first = operationOf(state, method, template)?.requestBody?.json?.examples[0]?.value;
  return isObject(first) ? structuredClone(first) : {};
}

/** The values a closed-set schema allows: its `enum`, `const`, or those of its `oneOf`/`anyOf` branches. */
export function enumValues(state: WithContract, node: Json | undefined): string[] {
  const schema = resolveRef(state, node);
  if (!schema) return [];
  if (Array.isArray(schema.enum)) return schema.enum.filter((v): v is string => typeof v === 'string');
  if (typeof schema.const === 'string') return [schema.const];
  const branches = [...(Array.isArray(schema.oneOf) ? schema.oneOf : []), ...(Array.isArray(schema.anyOf) ? schema.anyOf : [])];
  return branches.flatMap((b) => enumValues(state, b));
}

/** The gift card operations, served at {alt_base_url} (the contract's path prefixes of that address). */
export function isGiftCards(template: string): boolean {
  return isGiftCardPath(template);
}

/**
 * A path parameter that names a resource: a `code`/`customerCode`, a `...Id` (`topupId`, `productId`), or a
 * `format: uuid` string. Others (the balance `{type}`, a closed set) keep the value of the example.
 */
export function isReferenceParam(state: WithContract, method: string, path: string, name: string): boolean {
  if (/code$/i.test(name) || /Id$/.test(name)) return true;
  const def = parameters(state, method, path).find((p) => p.name === name && p.in === 'path');
  const schema = resolveRef(state, def?.schema);
  return schema?.format === 'uuid' || isEventId(schema);
}

/** An event id parameter: `evt_<uuid>`. */
const isEventId = (schema: JsonObject | undefined) => typeof schema?.pattern === 'string' && schema.pattern.startsWith('^evt_');

/** The contract's example of a path parameter (`7c9e6679-…` for a card's `{code}`). */
export function pathExample(state: WithContract, method: string, path: string, name: string): string | undefined {
  const def = parameters(state, method, path).find((p) => p.name === name && p.in === 'path');
  const schema = resolveRef(state, def?.schema);
  const example = def?.example ?? (Array.isArray(schema?.examples) ? schema.examples[0] : schema?.example);
  return typeof example === 'string' ? example : undefined;
}

/** A well-formed reference that names no resource: a random uuid (`evt_`-prefixed for an event id), or letters and digits. */
export function unknownReference(state: WithContract, method: string, path: string, name: string): string {
  const def = parameters(state, method, path).find((p) => p.name === name && p.in === 'path');
  const schema = resolveRef(state, def?.schema);
  if (isEventId(schema)) return `evt_${randomUUID()}`;
  // A uuid, or letters and digits for an id that is not one.
  return schema?.format === 'uuid' ? randomUUID() : `unknown_${randomUUID().replace(/-/g, '')}`;
}

/** One key of a list's documented order: an item's field, and its direction. */
export interface OrderKey {
  field: string;
  direction: 'ascending' | 'descending';
}

/**
 * The order a list operation's description states, in its one form (docs/structure.md, Lists):
 * `**Order: most recent first** (`created_at` descending, then `code` descending when ...)`: each backquoted
 * field followed by its direction, in the order written, up to the end of the parenthesis. Empty when the
 * description states none.
 */
export function listOrder(state: WithContract, method: string, template: string): OrderKey[] {
  const description = state.validator.operation(method, template)?.operation.description;
  if (typeof description !== 'string') return [];
  const statement = /\*\*Order:[^*]*\*\*\s*\(([^)]*)\)/.exec(description)?.[1];
  if (!statement) return [];
  return [...statement.matchAll(/`([^`]+)`\s+(ascending|descending)/g)].map((m) => ({
    field: m[1]!,
    direction: m[2] as OrderKey['direction'],
  }));
}
