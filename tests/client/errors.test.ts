// Errors that are not API answers: a non-envelope body names the URL and quotes its start; a host that
// cannot be reached is named, with the system error code.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient, PartnerConnectionError, PartnerResponseError } from '../../src/index.js';
import { startServer, TEST_KEY, type LocalServer } from './support.js';

let server: LocalServer;
const LONG = `<html><body>${'Not the API. '.repeat(40)}</body></html>`;

beforeAll(async () => {
  server = await startServer((req, res) => {
    if (req.url.startsWith('/v1/cards?')) {
      res.writeHead(404, { 'Content-Type': 'text/html' }).end('<html>\n  <h1>404 Not Found</h1>\n</html>');
    } else if (req.url.startsWith('/v1/payouts')) {
      res.writeHead(502, { 'Content-Type': 'text/html' }).end(LONG);
    } else {
      res.writeHead(400, { 'Content-Type': 'application/json' }).end('{"message":"no envelope"}');
    }
  });
});
afterAll(async () => {
  await server?.close();
});

/** A port of 127.0.0.1 that nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('an answer that is not the API envelope', () => {
  it('names the call and the URL, and quotes the start of the body on one line', async () => {
    const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: `${server.url}/v1`, retry: false });
    const error = await client.call.GET('/cards', { params: { query: { limit: 5 } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerResponseError);
    const { message, url, status } = error as PartnerResponseError;
    expect(status).toBe(404);
    expect(url).toBe(`${server.url}/v1/cards?limit=5`);
    expect(message).toBe(
      `GET /cards answered HTTP 404 with a body that is not the API envelope: "<html> <h1>404 Not Found</h1> </html>" ` +
        `(GET ${server.url}/v1/cards?limit=5).`,
    );
  });

  it('cuts a long body at 200 characters', async () => {
    const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: `${server.url}/v1`, retry: false });
    const error = (await client.call.GET('/payouts').catch((e: unknown) => e)) as PartnerResponseError;
    expect(error).toBeInstanceOf(PartnerResponseError);
    const quoted = /envelope: "(.*)" \(GET /.exec(error.message)?.[1];
    expect(quoted).toBe(`${LONG.slice(0, 200)}...`);
  });

  it('quotes a JSON body that is not the envelope, also through unwrap()', async () => {
    const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: `${server.url}/v1`, retry: false });
    const result = await client.POST('/cards', { body: {} as never });
    expect(() => client.unwrap(result)).toThrow(
      `POST /cards answered HTTP 400 with a body that is not the API envelope: "{\\"message\\":\\"no envelope\\"}" (POST ${server.url}/v1/cards).`,
    );
  });
});

describe('a server that cannot be reached', () => {
  it('says which host, with the system error, for a raw call and for call.*', async () => {
    const port = await closedPort();
    const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: `http://127.0.0.1:${port}/v1`, retry: false });
    for (const call of [() => client.GET('/cards'), () => client.call.GET('/cards')]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PartnerConnectionError);
      expect(error).toMatchObject({
        name: 'PartnerConnectionError',
        host: `127.0.0.1:${port}`,
        code: 'ECONNREFUSED',
        method: 'GET',
        path: '/cards',
      });
      expect((error as Error).message).toBe(
        `GET /cards: could not reach 127.0.0.1:${port} (ECONNREFUSED). Check baseUrl (and giftCardBaseUrl), and that ` +
          `the server at 127.0.0.1:${port} is up and reachable from here.`,
      );
      expect((error as Error).cause).toBeInstanceOf(TypeError); // fetch's own error, kept as the cause
    }
  });

  it('is thrown once the retries are spent, and names the default port of the scheme', async () => {
    let attempts = 0;
    const refused = async () => {
      attempts++;
      throw new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ECONNREFUSED`), { code: 'ECONNREFUSED' }) });
    };
    const client = createPartnerClient({
      apiKey: TEST_KEY,
      baseUrl: 'https://api.partner.invalid/v1',
      fetch: refused,
      retry: { sleep: async () => {} },
    });
    const error = await client.GET('/cards').catch((e: unknown) => e);
    expect(attempts).toBe(3);
    expect(error).toMatchObject({ host: 'api.partner.invalid:443', code: 'ECONNREFUSED', url: 'https://api.partner.invalid/v1/cards' });
  });

  it('a fetch error without a system code still names the host, with the cause message', async () => {
    const client = createPartnerClient({
      apiKey: TEST_KEY,
      baseUrl: 'http://10.0.0.1:8080/v1',
      retry: false,
      fetch: async () => {
        throw new Error('proxy refused the tunnel');
      },
    });
    await expect(client.GET('/cards')).rejects.toThrow('GET /cards: could not reach 10.0.0.1:8080 (proxy refused the tunnel).');
  });
});
