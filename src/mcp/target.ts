// Where the MCP server's tools send their requests: a sandbox it starts in-process (the default), or a server
// given by its addresses (`--server`, `--simulation-url`). The in-process sandbox listens on 127.0.0.1, so that
// you can look at what the assistant made with curl or the client too, and comes with a webhook receiver: the
// sandbox needs a webhook endpoint before it creates customers, and an endpoint is saved only when its url answers
// the ping.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeVersionProblem } from '../package-info.js';
import type { McpArgs } from './mcp-flags.js';

export interface Target {
  apiKey: string;
  /** The partner API, `{base_url}` (`.../v1`). */
  baseUrl: string;
  /** The gift card operations' address, `{alt_base_url}` (`.../api/v1`), when known. */
  giftCardBaseUrl?: string;
  /** The simulation API (`.../sandbox`), when the server is a sandbox whose address was given. */
  simulationUrl?: string;
  /** A webhook url that answers every ping and delivery with 204 (the in-process sandbox's receiver). */
  receiverUrl?: string;
  /** One line: what the tools act on. */
  description: string;
  close(): Promise<void>;
}

/**
 * The https:// origin the in-process sandbox routes to its receiver (a webhook route, as `webhook_routes` does):
 * an endpoint keeps an https:// url, as the contract requires of the service, and its deliveries reach the
 * loopback receiver. `.test` is a reserved domain: nothing else answers it.
 */
export const RECEIVER_ORIGIN = 'https://receiver.assistant.test';

/** A loopback HTTP server that answers every request with 204 (after reading it). */
async function startReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Starts (in-process) or names (remote) what the tools act on. */
export async function startTarget(args: Extract<McpArgs, { version: false }>): Promise<Target> {
  const { apiKey, target } = args;
  if (target.kind === 'remote') {
    return {
      apiKey,
      baseUrl: target.baseUrl,
      giftCardBaseUrl: target.giftCardBaseUrl,
      simulationUrl: target.simulationUrl,
      description: `the partner API at ${target.baseUrl}${target.simulationUrl ? `, its simulation API at ${target.simulationUrl}` : ' (no simulation API: pass --simulation-url for the simulate tool)'}`,
      close: async () => undefined,
    };
  }
  const old = nodeVersionProblem('the in-process sandbox');
  if (old) throw new Error(`${old} Use --server to call a sandbox that runs elsewhere.`);
  const receiver = await startReceiver();
  // The sandbox module needs node:sqlite: loaded only here, after the Node check.
  const { startSandbox } = await import('../sandbox/index.js');
  try {
    const sandbox = await startSandbox({
      port: target.port,
      host: '127.0.0.1',
      db: target.db,
      manual: target.manual,
      rateLimit: target.rateLimit,
      config: { webhook_routes: { [RECEIVER_ORIGIN]: receiver.url } },
    });
    return {
      apiKey,
      baseUrl: sandbox.baseUrl,
      giftCardBaseUrl: sandbox.giftCardBaseUrl,
      simulationUrl: sandbox.simulationUrl,
      receiverUrl: `${RECEIVER_ORIGIN}/webhooks`,
      description:
        `a sandbox started for this session${target.db ? ` (state kept in ${target.db})` : ', in memory'}, at ${sandbox.baseUrl} ` +
        `(simulation API ${sandbox.simulationUrl})`,
      close: async () => {
        await sandbox.close();
        await receiver.close();
      },
    };
  } catch (error) {
    await receiver.close();
    throw error;
  }
}
