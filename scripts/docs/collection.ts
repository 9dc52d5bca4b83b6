// A collection that API clients import (Postman, Insomnia, Bruno, Hoppscotch read the Postman v2.1 format),
// generated from the contract by Postman's own converter (openapi-to-postmanv2) and pointed at the local
// sandbox: every operation, one folder per tag, with the contract's examples as parameters and bodies, the
// sandbox's address as `{{baseUrl}}` (`{{giftCardBaseUrl}}` for the gift card operations) and its seeded key
// as `{{apiKey}}`, so that with `npx partner-api-sandbox --seed examples` the requests answer as pasted.
// Every Idempotency-Key is Postman's `{{$guid}}`, a new UUID v4 at each send, as the contract asks for a new
// request: one literal key in every write would make each write after the first a reuse (422). The requests are
// in an order that a collection runner can follow top to bottom on the seeded account (see runOrder).
import Converter from 'openapi-to-postmanv2';
import { BASE_SERVER, GIFT_CARD_SERVER } from '../../src/contract/servers.ts';
import { SAMPLE_API_KEY } from './code-samples.ts';
import { SANDBOX_ORIGIN, sandboxServer } from './servers.ts';
import { contractModel } from '../../src/contract/model.ts';

// biome-ignore lint/suspicious/noExplicitAny: the Postman collection openapi-to-postmanv2 returns is untyped JSON, walked at known paths.
type JsonObject = { [key: string]: any };

export const COLLECTION_FILE = 'partner-api.postman_collection.json';

/** The copy the converter reads: the partner API only (no webhooks), served by the sandbox. */
function sandboxDocument(openapi: JsonObject): JsonObject {
  const copy = structuredClone(openapi);
  delete copy.webhooks;
  const local = (servers: JsonObject[] | undefined) => servers?.map((s) => ({ url: sandboxServer(s as never).url }));
  copy.servers = local(copy.servers);
  const holders = new Set<JsonObject>(contractModel(copy).operations.flatMap((o) => [o.item.node, o.node]));
  for (const holder of holders) if (holder.servers) holder.servers = local(holder.servers);
  return copy;
}

/** The header of the contract's idempotency key, and the Postman dynamic variable that fills it at each send. */
const IDEMPOTENCY_HEADER = 'idempotency-key';
export const FRESH_IDEMPOTENCY_KEY = '{{$guid}}';

function convert(spec: JsonObject): Promise<JsonObject> {
  return new Promise((resolve, reject) => {
    Converter.convert(
      { type: 'json', data: spec },
      // `convert` is the converter's v1 module: it takes the request values from `requestParametersResolution`
      // and ignores `parametersResolution` (an option of `convertV2`), which leaves `<uuid>` placeholders.
      { folderStrategy: 'Tags', requestNameSource: 'Fallback', requestParametersResolution: 'Example', includeAuthInfoInExample: false },
      (error: { message: string } | null, result?: { result: boolean; reason?: string; output?: { data: unknown }[] }) => {
        if (error) reject(new Error(`openapi-to-postmanv2: ${error.message}`));
        else if (!result?.result || !result.output?.[0]) reject(new Error(`openapi-to-postmanv2: ${result?.reason ?? 'no collection'}`));
        else resolve(result.output[0].data as JsonObject);
      },
    );
  });
}

/** The requests of the collection, in its folders. */
function requests(collection: JsonObject): JsonObject[] {
  return (collection.item ?? []).flatMap((item: JsonObject) => (item.request ? [item] : requests(item)));
}

/** Each request's Idempotency-Key becomes `{{$guid}}`: the example key is one value, shared by every write. */
function freshIdempotencyKeys(collection: JsonObject): void {
  for (const item of requests(collection)) {
    for (const header of item.request.header ?? []) {
      if (String(header.key).toLowerCase() !== IDEMPOTENCY_HEADER) continue;
      header.value = FRESH_IDEMPOTENCY_KEY;
      header.description = `${header.description ? `${header.description}\n\n` : ''}Postman fills {{$guid}} with a new UUID v4 at each send; to retry a send, put its key here instead.`;
    }
  }
}

/**
 * `{{giftCardBaseUrl}}` for every operation served at the gift card address: the converter names one variable per
 * path that has servers of its own (`{{gift-cards-orders-Url}}`, ...), which a user would otherwise edit one by one.
 */
function oneGiftCardBaseUrl(collection: JsonObject, document: JsonObject): JsonObject {
  const items = new Set<JsonObject>(contractModel(document).operations.map((o) => o.item.node));
  const urls = new Set([...items].flatMap((item) => (item.servers ?? []).map((s: JsonObject) => s.url)));
  if (urls.size !== 1) return collection;
  const [url] = urls;
  const own: string[] = (collection.variable ?? [])
    .filter((v: JsonObject) => v.key !== 'baseUrl' && v.value === url)
    .map((v: JsonObject) => v.key);
  let text = JSON.stringify(collection);
  for (const key of own) text = text.replaceAll(`{{${key}}}`, '{{giftCardBaseUrl}}');
  const renamed = JSON.parse(text) as JsonObject;
  renamed.variable = [
    ...(renamed.variable ?? []).filter((v: JsonObject) => !own.includes(v.key)),
    { key: 'giftCardBaseUrl', value: url, type: 'string' },
  ];
  return renamed;
}

// The order of the requests. A collection runner (Postman's, Newman) sends them top to bottom, folder by folder,
// on one account: each request has to find the records of the examples as the requests before it left them.
// - A request that suspends a record runs just before the request that restores it (deactivate, then activate),
//   so that the record is usable again for the rest of the run. RESTORES maps the last segment of a restoring
//   request's path to that of the request it undoes, on the same record.
// - A request that ends a record (a DELETE, a terminate) runs after every request that names the record: last in
//   its folder, and its folder after every folder that names the record (Events, whose redelivery names the
//   webhook endpoint, before Webhook endpoints).
const RESTORES: Record<string, string> = { unfreeze: 'freeze', activate: 'deactivate', enable: 'disable' };
const ENDS = new Set(['terminate']);

const lastSegment = (item: JsonObject): string => String(item.request.url.path.at(-1) ?? '');
const parentPath = (item: JsonObject): string => item.request.url.path.slice(0, -1).join('/');
const ends = (item: JsonObject): boolean => item.request.method === 'DELETE' || ENDS.has(lastSegment(item));

/** The record a request acts on: the example value of its last path variable. */
function record(item: JsonObject): string | undefined {
  const variables: JsonObject[] = item.request.url.variable ?? [];
  return variables.length > 0 ? String(variables.at(-1)!.value) : undefined;
}

/** Every value a request sends: its path variables, its query and the strings of its JSON body. */
function names(item: JsonObject): Set<string> {
  const out = new Set<string>();
  for (const v of [...(item.request.url.variable ?? []), ...(item.request.url.query ?? [])]) out.add(String(v.value));
  const walk = (value: unknown): void => {
    if (typeof value === 'string') out.add(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  try {
    walk(JSON.parse(item.request.body?.raw ?? 'null'));
  } catch {
    // not JSON: nothing to name
  }
  return out;
}

/** A folder's requests in run order. */
function folderOrder(items: JsonObject[]): JsonObject[] {
  const ordered = [...items];
  for (const restorer of items) {
    const undone = RESTORES[lastSegment(restorer)];
    const suspender = ordered.find((i) => lastSegment(i) === undone && parentPath(i) === parentPath(restorer));
    if (!suspender || ordered.indexOf(suspender) < ordered.indexOf(restorer)) continue;
    ordered.splice(ordered.indexOf(suspender), 1);
    ordered.splice(ordered.indexOf(restorer), 0, suspender);
  }
  return [...ordered.filter((i) => !ends(i)), ...ordered.filter(ends)];
}

/** The folders in run order (the contract's tag order otherwise), each folder's requests too; no empty folder. */
function runOrder(folders: JsonObject[]): JsonObject[] {
  // The tags of the webhook events name no operation: their folders would be empty.
  const pending = folders.filter((f) => (f.item ?? []).length > 0).map((f) => ({ ...f, item: folderOrder(f.item) }));
  const ended = (f: JsonObject) =>
    new Set<string>(
      f.item
        .filter(ends)
        .map(record)
        .filter((r: string | undefined) => r !== undefined),
    );
  const namesAny = (f: JsonObject, records: Set<string>) =>
    f.item.some((i: JsonObject) => !ends(i) && [...names(i)].some((n) => records.has(n)));
  const ordered: JsonObject[] = [];
  while (pending.length > 0) {
    // The first folder in tag order that ends no record another waiting folder names (on a cycle, the first one).
    const next = pending.findIndex((f) => !pending.some((other) => other !== f && namesAny(other, ended(f))));
    ordered.push(...pending.splice(Math.max(next, 0), 1));
  }
  return ordered;
}

/** The collection for the local sandbox. */
export async function postmanCollection(openapi: JsonObject): Promise<JsonObject> {
  const document = sandboxDocument(openapi);
  // A copy to the converter: it takes the paths' servers out of the document it reads.
  const collection = oneGiftCardBaseUrl(await convert(structuredClone(document)), document);
  collection.item = runOrder(collection.item ?? []);
  freshIdempotencyKeys(collection);
  collection.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] };
  const variables: JsonObject[] = (collection.variable ?? []).filter((v: JsonObject) => v.key !== 'apiKey');
  variables.push({
    key: 'apiKey',
    value: SAMPLE_API_KEY,
    type: 'string',
    description: 'A test key of the local sandbox (its example records with --seed examples).',
  });
  collection.variable = variables;
  collection.info = {
    ...collection.info,
    description: `${openapi.info?.title ?? 'API'} ${openapi.info?.version ?? ''}, for the local sandbox: ${SANDBOX_ORIGIN}${BASE_SERVER.path} (gift cards at ${GIFT_CARD_SERVER.path}), key ${SAMPLE_API_KEY}.`,
  };
  return collection;
}
