// A collection that API clients import (Postman, Insomnia, Bruno, Hoppscotch read the Postman v2.1 format),
// generated from the contract by Postman's own converter (openapi-to-postmanv2) and pointed at the local
// sandbox: every operation, one folder per tag, with the contract's examples as parameters and bodies, the
// sandbox's address as `{{baseUrl}}` (`{{giftCardBaseUrl}}` for the gift card operations) and its seeded key
// as `{{apiKey}}`, so that with `npx partner-api-sandbox --seed examples` the requests answer as pasted.
// Every Idempotency-Key is Postman's `{{$guid}}`, a new UUID v4 at each send, as the contract asks for a new
// request: one literal key in every write would make each write after the first a reuse (422).
import Converter from 'openapi-to-postmanv2';
import { SAMPLE_API_KEY } from './code-samples.ts';
import { sandboxServer } from './servers.ts';
import { HTTP_METHODS } from '../lib/pointer.ts';

type JsonObject = { [key: string]: any };

export const COLLECTION_FILE = 'partner-api.postman_collection.json';


/** The copy the converter reads: the partner API only (no webhooks), served by the sandbox. */
function sandboxDocument(openapi: JsonObject): JsonObject {
  const copy = structuredClone(openapi);
  delete copy.webhooks;
  const local = (servers: JsonObject[] | undefined) => servers?.map((s) => ({ url: sandboxServer(s as never).url }));
  copy.servers = local(copy.servers);
  for (const item of Object.values<JsonObject>(copy.paths ?? {})) {
    if (item.servers) item.servers = local(item.servers);
    for (const method of HTTP_METHODS) if (item[method]?.servers) item[method].servers = local(item[method].servers);
  }
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

/** The collection for the local sandbox. */
export async function postmanCollection(openapi: JsonObject): Promise<JsonObject> {
  const collection = await convert(sandboxDocument(openapi));
  freshIdempotencyKeys(collection);
  collection.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] };
  const variables: JsonObject[] = (collection.variable ?? []).filter((v: JsonObject) => v.key !== 'apiKey');
  variables.push({ key: 'apiKey', value: SAMPLE_API_KEY, type: 'string', description: 'A test key of the local sandbox (its example records with --seed examples).' });
  collection.variable = variables;
  collection.info = { ...collection.info, description: `${openapi.info?.title ?? 'API'} ${openapi.info?.version ?? ''}, for the local sandbox: http://127.0.0.1:4020/v1 (gift cards at /api/v1), key ${SAMPLE_API_KEY}.` };
  return collection;
}
