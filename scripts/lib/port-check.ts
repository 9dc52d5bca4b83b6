// Ports for the local servers (mock, docs, test receivers): check that one is free before anything is
// spawned, so a clash gives one clear sentence instead of a stack trace from a child process.
import net from 'node:net';
import { portProblem } from './cli-parser.ts';

/** A port that cannot be bound. `message` says which port, why, and how to choose another. */
export class PortUnavailableError extends Error {
  override readonly name = 'PortUnavailableError';
  readonly port: number;

  constructor(port: number, message: string) {
    super(message);
    this.port = port;
  }
}

/**
 * Reads a port number from a flag or environment value. Throws a plain Error naming `source` when it is
 * not an integer from 1 to 65535.
 */
export function parsePort(value: string, source: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${source} must be a port number from 1 to 65535, got "${value}"`);
  }
  return port;
}

/**
 * Resolves when `port` can be bound on `host` (it binds and releases it at once); otherwise rejects with a
 * PortUnavailableError whose message ends with `hint` (e.g. "set MOCK_PORT=... or pass --mock-port").
 */
export function assertPortFree(host: string, port: number, hint: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const message =
        portProblem(error, host, port, hint) ?? `port ${port} on ${host} cannot be bound (${error.code ?? error.message}); ${hint}`;
      reject(new PortUnavailableError(port, message));
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** A port that is free on `host` right now, chosen by the system (for tests and temporary servers). */
export function findFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen({ host, port: 0 }, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
