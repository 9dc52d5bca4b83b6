// A typed client of the sandbox's simulation API (spec/sandbox.yaml), for your own tests:
//   const sim = createSimulationClient({ apiKey: 'sk_test_me', baseUrl: sandbox.simulationUrl });
//   await sim.POST('/clock/advance', { body: { seconds: 2 } });
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../generated/sandbox.js';

export type SimulationPaths = paths;

export interface SimulationClientOptions {
  /** The key of the account to simulate for (the same key you give the partner API client). */
  apiKey: string;
  /** The simulation API's address: `http://HOST:PORT/sandbox` (`sandbox.simulationUrl`). */
  baseUrl: string;
  fetch?: (input: Request) => Promise<Response>;
}

export function createSimulationClient(options: SimulationClientOptions): Client<paths> {
  return createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
