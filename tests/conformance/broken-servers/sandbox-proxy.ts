// A proxy in front of a running sandbox that breaks one rule of the API's security or input handling while
// every answer stays well-shaped (see security-mutants.ts, list-mutants.ts): each request may be answered by the
// proxy, or forwarded as it is or changed, with requests of its own sent first, and its JSON answer changed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConformanceConfig } from '../../../scripts/conformance/types.ts';

export interface ProxiedRequest {
  method: string;
  /** Path and query: `/v1/cards/7c9e…`. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type Rewrite = (
  req: ProxiedRequest,
) =>
  | { answer: { status: number; body: unknown } }
  | { forward: ProxiedRequest; first?: ProxiedRequest[]; reshape?: (body: unknown) => unknown };

export interface Proxy {
  url: string;
  close(): Promise<void>;
}

export async function startProxy(target: string, rewrite: Rewrite): Promise<Proxy> {
  const send = (req: ProxiedRequest) =>
    fetch(`${target}${req.url}`, { method: req.method, headers: req.headers, body: req.body === '' ? undefined : req.body });
  const server = http.createServer((incoming, res) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', () => {
      void (async () => {
        const headers = Object.fromEntries(
          Object.entries(incoming.headers)
            .filter(([k]) => !['host', 'connection', 'content-length'].includes(k))
            .map(([k, v]) => [k, String(v)]),
        );
        const what = rewrite({
          method: incoming.method ?? 'GET',
          url: incoming.url ?? '/',
          headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        if ('answer' in what) {
          res.writeHead(what.answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(what.answer.body));
          return;
        }
        for (const extra of what.first ?? []) await (await send(extra)).text();
        const answer = await send(what.forward);
        const out: Record<string, string> = {};
        answer.headers.forEach((value, key) => {
          if (!['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(key)) out[key] = value;
        });
        const text = await answer.text();
        if (!what.reshape) {
          res.writeHead(answer.status, out).end(text);
          return;
        }
        res.writeHead(answer.status, out).end(JSON.stringify(what.reshape(JSON.parse(text))));
      })().catch((error: Error) => res.writeHead(502).end(error.message));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The suite's configuration in real mode against the sandbox behind `proxy`, with the simulation API beside it. */
export function configThrough(proxy: Proxy, simulationUrl: string, apiKey: string): ConformanceConfig {
  return {
    spec: '',
    results: '',
    mode: 'real',
    apiKey,
    server: `${proxy.url}/v1`,
    altServer: `${proxy.url}/api/v1`,
    simulationUrl,
    // The contract's example webhook url, which a seeded sandbox answers.
    webhookUrl: 'https://hooks.acme-partner.test/partner-api',
  };
}
