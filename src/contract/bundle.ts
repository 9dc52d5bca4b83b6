// The functions over a raw bundled document that readers used before the contract model (./model.ts): each one
// asks the model now. JSON Pointer access comes from ./json.ts. New code asks `contractModel(doc)` directly.
import { follow, type Json, type JsonObject } from './json.ts';
import { contractModel, examplesAt, type ExampleEvent, type Operation, type Ping, type Refusals } from './model.ts';

export * from './json.ts';
export type { RefusalAnswer, Refusals } from './model.ts';

/** Follows internal `$ref`s (`#/components/...`) until a node without `$ref`. */
export function deref(doc: unknown, node: Json | undefined): Json | undefined {
  return follow(doc, node, '').node;
}

export interface OperationEntry {
  /** The path template: `/cards/{code}/withdraw`. */
  path: string;
  method: Operation['method'];
  /** The path item (its shared `parameters`, `servers`). */
  item: JsonObject;
  operation: JsonObject;
}

/** Every operation of a document's `paths` (or `webhooks`), in document order. */
export function operationEntries(doc: JsonObject, section: 'paths' | 'webhooks' = 'paths'): OperationEntry[] {
  const model = contractModel(doc);
  return (section === 'paths' ? model.operations : model.webhooks).map((o) => ({
    path: o.path,
    method: o.method,
    item: o.item.node,
    operation: o.node,
  }));
}

/** The error codes one response of an operation documents (`INSUFFICIENT_BALANCE`, ...). */
export function responseErrorCodes(doc: JsonObject, response: Json | undefined): string[] {
  return contractModel(doc).responseOf(response)?.errorCodes ?? [];
}

/**
 * The HTTP status of each error code, as the operations of a document answer it (`INSUFFICIENT_BALANCE` -> 400).
 * Throws when the document gives a code two statuses.
 */
export function errorStatuses(doc: JsonObject): Map<string, number> {
  return contractModel(doc).errorStatuses;
}

/** The error code a document answers with this status, when exactly one is (500 -> INTERNAL_ERROR). */
export function codeOfStatus(statuses: Map<string, number>, status: number): string {
  const codes = [...statuses].filter(([, s]) => s === status).map(([code]) => code);
  if (codes.length !== 1) throw new Error(`the contract answers ${status} with ${codes.length === 0 ? 'no error code' : codes.join(', ')}`);
  return codes[0]!;
}

export interface NamedExample {
  name: string;
  value: Json;
}

/** Named examples of a media type object: `examples` (each maybe a $ref) or a lone `example`. */
export function mediaExamples(doc: JsonObject, media: Json | undefined): NamedExample[] {
  return examplesAt(doc, media, '').map(({ name, value }) => ({ name, value }));
}

/** Each webhook's event type and example event (the event schema's `examples[0]`, or the body's example). */
export function exampleEvents(doc: JsonObject): ExampleEvent[] {
  return contractModel(doc).exampleEvents;
}

/** The ping sent to a webhook endpoint's url (`x-ping` of `createWebhookEndpoint`): its schema and event `type`. */
export function webhookPing(doc: JsonObject): Ping {
  return contractModel(doc).ping;
}

export function refusalsOf(doc: JsonObject): Refusals {
  return contractModel(doc).refusals;
}

/**
 * The methods the contract gives the path a request names (without its base path: `/cards/123`), or undefined when
 * no path template matches; a literal segment wins over a parameter (`/payouts/beneficiaries` is not `/payouts/{code}`).
 */
export function pathMethods(doc: JsonObject): (path: string) => string[] | undefined {
  const model = contractModel(doc);
  return (path) => model.match(path)?.methods;
}
