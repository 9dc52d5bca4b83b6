// A collection that API clients import (Postman, Insomnia, Bruno, Hoppscotch read the Postman v2.1 format),
// generated from the contract by Postman's own converter (openapi-to-postmanv2) and pointed at the local
// sandbox: every operation, one folder per tag, with the contract's examples as parameters and bodies, the
// sandbox's address as `{{baseUrl}}` (`{{giftCardBaseUrl}}` for the gift card operations) and its seeded key
// as `{{apiKey}}`, so that with `npx partner-api-sandbox --seed examples` the requests answer as pasted.
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

function convert(spec: JsonObject): Promise<JsonObject> {
  return new Promise((resolve, reject) => {
    Converter.convert(
      { type: 'json', data: spec },
      { folderStrategy: 'Tags', requestNameSource: 'Fallback', parametersResolution: 'Example', includeAuthInfoInExample: false },
      (error: { message: string } | null, result?: { result: boolean; reason?: string; output?: { data: unknown }[] }) => {
        if (error) reject(new Error(`openapi-to-postmanv2: ${error.message}`));
        else if (!result?.result || !result.output?.[0]) reject(new Error(`openapi-to-postmanv2: ${result?.reason ?? 'no collection'}`));
        else resolve(result.output[0].data as JsonObject);
      },
    );
  });
}

/** The collection for the local sandbox. */
export async function postmanCollection(openapi: JsonObject): Promise<JsonObject> {
  const collection = await convert(sandboxDocument(openapi));
  collection.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] };
  const variables: JsonObject[] = (collection.variable ?? []).filter((v: JsonObject) => v.key !== 'apiKey');
  variables.push({ key: 'apiKey', value: SAMPLE_API_KEY, type: 'string', description: 'A test key of the local sandbox (its example records with --seed examples).' });
  collection.variable = variables;
  collection.info = { ...collection.info, description: `${openapi.info?.title ?? 'API'} ${openapi.info?.version ?? ''}, for the local sandbox: http://127.0.0.1:4020/v1 (gift cards at /api/v1), key ${SAMPLE_API_KEY}.` };
  return collection;
}
