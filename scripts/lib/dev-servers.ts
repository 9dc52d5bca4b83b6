// Shared by `npm start` and `npm run mock`: port options, the mock's banner, and a clean Ctrl-C.
import fs from 'node:fs';
import path from 'node:path';
import { BASE_SERVER, GIFT_CARD_SERVER, isGiftCardPath } from '../../src/contract/servers.ts';
import { curlCommand, exampleOperations, type JsonObject } from './openapi-examples.ts';
import { ROOT } from './paths.ts';
import { parsePort } from './port-check.ts';

export const HOST = '127.0.0.1';
export const DEFAULT_MOCK_PORT = 4010;
export const DEFAULT_DOCS_PORT = 8080;
export const MOCK_SPEC = path.join(ROOT, 'generated', 'openapi.json');

/** A port from a flag value, else an environment variable, else the default. */
export function choosePort(flag: string | undefined, flagName: string, envName: string, fallback: number): number {
  if (flag !== undefined) return parsePort(flag, `--${flagName}`);
  const env = process.env[envName];
  if (env !== undefined && env !== '') return parsePort(env, envName);
  return fallback;
}

/** The lines printed once the mock listens: its addresses, how to pick errors, and a sample curl. */
export function mockBanner(specFile: string, mock: { baseUrl: string; giftCardBaseUrl: string }): string {
  const doc = JSON.parse(fs.readFileSync(specFile, 'utf8')) as JsonObject;
  const operations = exampleOperations(doc);
  const sample = operations.find((op) => op.operationId === 'withdrawFromCard') ?? operations[0];
  const lines = [
    `Mock API          ${mock.baseUrl}   ({${BASE_SERVER.variable}}; any bearer token is accepted: use a test key)`,
    `  gift cards      ${mock.giftCardBaseUrl}   ({${GIFT_CARD_SERVER.variable}})`,
  ];
  if (sample) {
    lines.push('', 'Try it:', `  ${curlCommand(sample, isGiftCardPath(sample.path) ? mock.giftCardBaseUrl : mock.baseUrl)}`, '');
    lines.push(`  Documented errors: add -H 'Prefer: code=404', or -H 'Prefer: code=403, example=ACCOUNT_SUSPENDED_NEGATIVE_BALANCE'`);
  }
  return lines.join('\n');
}

/**
 * Runs `cleanup` once on SIGINT, SIGTERM or SIGHUP, then exits 0. Repeated signals are ignored: under
 * `npm run` a Ctrl-C arrives twice (from the terminal and forwarded by npm), and cleanup is bounded anyway
 * (children get SIGKILL after a grace period).
 */
let stopping = false;

/** True once a shutdown signal was received (children exiting then is expected, not a failure). */
export function shuttingDown(): boolean {
  return stopping;
}

export function onShutdown(cleanup: () => Promise<void>): void {
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal} received: stopping...`);
    cleanup().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, handler);
}
