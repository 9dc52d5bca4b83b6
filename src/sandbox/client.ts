// A typed client of the sandbox's simulation API (spec/sandbox.yaml), for your own tests:
//   const sim = createSimulationClient({ apiKey: 'sk_test_me', baseUrl: sandbox.simulationUrl });
//   await sim.call.POST('/clock/advance', { body: { seconds: 2 } });     // data or throw, like the partner client's
//   const { data, error } = await sim.POST('/clock/advance', { body: { seconds: 2 } });   // openapi-fetch: never throws
// It imports nothing of the sandbox itself (node:sqlite): the test kit (./testing) exports it too.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../generated/sandbox.js';
import type { DataMethod } from '../client/client.js';
import { errorFromResponse, PartnerResponseError } from '../client/errors.js';
import type { HttpMethod } from '../client/types.js';

export type SimulationPaths = paths;

export interface SimulationClientOptions {
  /** The key of the account to simulate for (the same key you give the partner API client). */
  apiKey: string;
  /** The simulation API's address: `http://HOST:PORT/sandbox` (`sandbox.simulationUrl`). */
  baseUrl: string;
  fetch?: (input: Request) => Promise<Response>;
}

/** openapi-fetch's client of the simulation API, and the same methods as data-or-throw under `call`. */
export interface SimulationClient extends Client<paths> {
  /** The simulation API's address it was given. */
  readonly baseUrl: string;
  /**
   * Data or throw: `await sim.call.PATCH('/account', ...)` resolves to the success body (`{ success, data, meta }`)
   * or throws `PartnerApiError` (`PartnerResponseError` without an envelope), as the partner client's `call` does.
   */
  call: {
    GET: DataMethod<'get', paths>;
    POST: DataMethod<'post', paths>;
    PUT: DataMethod<'put', paths>;
    PATCH: DataMethod<'patch', paths>;
    DELETE: DataMethod<'delete', paths>;
  };
}

/** A base URL that is the partner API's (`.../v1`, or the gift card `.../api/v1`) rather than the simulation API's. */
const PARTNER_BASE = /\/(?:api\/)?v1\/*$/;

/**
 * The sentence added to a 404 when `baseUrl` is the partner API's address: the simulation API's paths
 * (`/account`, `/clock/advance`) are not operations there, and the answer alone ("No operation at PATCH
 * /v1/account.") does not say that the address is the mistake.
 */
export function wrongBaseUrlHint(baseUrl: string): string | undefined {
  if (!PARTNER_BASE.test(baseUrl)) return undefined;
  const guess = baseUrl.replace(PARTNER_BASE, '/sandbox');
  return (
    `createSimulationClient's baseUrl ${baseUrl} is the partner API's address; pass the simulation API's: ` +
    `simulationUrl of startSandbox() (sandbox.simulationUrl), or http://HOST:PORT/sandbox for a sandbox in another process (here ${guess}).`
  );
}

export function createSimulationClient(options: SimulationClientOptions): SimulationClient {
  const raw = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const hint = wrongBaseUrlHint(options.baseUrl);

  const dataMethod = (method: Uppercase<HttpMethod>) => async (path: string, init?: Record<string, unknown>) => {
    const { data, error, response } = await raw.request(method.toLowerCase() as 'get', path as never, init as never);
    if (response.ok && data !== undefined) return data;
    const thrown = response.ok
      ? new PartnerResponseError({ status: response.status, method, path, url: response.url, body: undefined, response })
      : errorFromResponse(error, response, method, path, response.url);
    if (response.status === 404 && hint !== undefined) thrown.message = `${thrown.message} ${hint}`;
    throw thrown;
  };

  return {
    ...raw,
    baseUrl: options.baseUrl,
    call: {
      GET: dataMethod('GET'),
      POST: dataMethod('POST'),
      PUT: dataMethod('PUT'),
      PATCH: dataMethod('PATCH'),
      DELETE: dataMethod('DELETE'),
    } as SimulationClient['call'],
  };
}
