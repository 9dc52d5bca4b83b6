// Test support for the client suites: a Prism mock of the contract and small local HTTP servers.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The bundle the mock serves: generated/openapi.json (CLIENT_TEST_OPENAPI picks another bundle). */
export const OPENAPI_JSON = process.env['CLIENT_TEST_OPENAPI'] ?? path.join(ROOT, 'generated', 'openapi.json');

export const TEST_KEY = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';

/** A free TCP port on 127.0.0.1 (never 4010, the port people run Prism on by hand). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    if (port !== 4010) return port;
  }
}

export interface Mock {
  url: string;
  stop(): Promise<void>;
}

/** Starts `prism mock <bundle>` on a free port and resolves once it prints 'Prism is listening'. */
export async function startPrism(spec = OPENAPI_JSON): Promise<Mock> {
  const port = await freePort();
  const cli = path.join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const child: ChildProcess = spawn(process.execPath, [cli, 'mock', spec, '-p', String(port), '-h', '127.0.0.1'], {
    env: { ...process.env, SCARF_ANALYTICS: 'false', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`Prism did not start within 60 s:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with code ${code}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (
  req: Recorded,
  res: http.ServerResponse,
  raw: http.IncomingMessage,
) => void | Promise<void>;

export interface LocalServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 that records every request and answers with `handler`. */
export async function startServer(handler: Handler): Promise<LocalServer> {
  const requests: Recorded[] = [];
  const server = http.createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const recorded = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        headers: raw.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res, raw)).catch((error: unknown) => {
        res.statusCode = 599;
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON answer. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export const meta = (n = 1) => ({ request_id: `req_test_${n}`, mode: 'test', timestamp: '2026-03-02T10:15:30Z' });

export function errorBody(code: string, message: string, details: unknown = null, n = 1) {
  return { success: false, error: { code, message, details }, meta: meta(n) };
}

/** A sleep that records the delays asked for and resolves at once. */
export function recordingSleep() {
  const delays: number[] = [];
  const sleep = async (ms: number) => {
    delays.push(ms);
  };
  return { delays, sleep };
}
