// A recording proxy in front of the partner API, which the workflows are sent through: it forwards every request
// as it is and keeps each answer. Respect reports a workflow that others call with the steps of its last run
// only, so the records its earlier runs made (a beneficiary for each payout workflow) are nowhere in its report;
// the proxy sees every request, and the run's clean-up (cleanup.ts) removes what they made.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request that went through, and its answer. */
export interface Exchange {
  method: string;
  /** The path below the server's base (`/cards/7c9e…`), without the query. */
  path: string;
  status: number;
  /** The JSON body of the answer, or its text. */
  body: unknown;
  /** The request's Authorization header. */
  authorization?: string;
}

export interface Recorder {
  /** `http://127.0.0.1:PORT`: the server's base URL for the requests sent through it. */
  url: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

/** Hop-by-hop headers, and those fetch sets itself (a body it decompressed has another length). */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'accept-encoding',
  'content-encoding',
]);

/** Starts a proxy on a free loopback port that forwards to `target` (the server's base URL, `https://host/v1`). */
export async function startRecorder(target: string): Promise<Recorder> {
  const base = target.replace(/\/$/, '');
  const exchanges: Exchange[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const method = req.method ?? 'GET';
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (!NOT_FORWARDED.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        try {
          const answer = await fetch(base + (req.url ?? '/'), {
            method,
            headers,
            body: method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks),
            redirect: 'manual',
            signal: AbortSignal.timeout(30_000),
          });
          const body = Buffer.from(await answer.arrayBuffer());
          const out: Record<string, string> = {};
          answer.headers.forEach((value, name) => {
            if (!NOT_FORWARDED.has(name)) out[name] = value;
          });
          let parsed: unknown = body.toString('utf8');
          try {
            parsed = JSON.parse(parsed as string);
          } catch {
            // not JSON: kept as text
          }
          exchanges.push({
            method,
            path: new URL(req.url ?? '/', 'http://recorder').pathname,
            status: answer.status,
            body: parsed,
            authorization: req.headers.authorization,
          });
          res.writeHead(answer.status, out).end(body);
        } catch (error) {
          res
            .writeHead(502, { 'content-type': 'text/plain' })
            .end(`conformance recorder: ${target} did not answer: ${(error as Error).message}`);
        }
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
