#!/usr/bin/env node
// The sandbox's bin: `npx partner-api-sandbox [options]` (`npm run sandbox -- [options]` in a clone); see
// ./sandbox-flags.ts for the flags. Every failure is one line `partner-api-sandbox: <what and how to fix it>`: a
// mistyped flag (exit 2, with the usage), a Node older than package.json's engines, a busy port, a bad --config,
// a --fixtures file that cannot be read or that the sandbox refuses.
// The sandbox itself is imported only after the Node check: it needs node:sqlite.
import fs from 'node:fs';
import { CliError, portProblem, runCli } from '../cli-parser.js';
import { PACKAGE, nodeVersionProblem } from '../package-info.js';
import { TOOL, USAGE, parseCli } from './sandbox-flags.js';

async function main(): Promise<number> {
  const args = parseCli(process.argv.slice(2));
  if (!args) return 0;
  if (args.version) {
    console.log(PACKAGE.version);
    return 0;
  }
  const old = nodeVersionProblem('the sandbox');
  if (old) throw new CliError(old);
  const config = args.config === undefined ? undefined : readJson('--config', args.config);
  const fixture = args.fixtures === undefined ? undefined : readJson('--fixtures', args.fixtures);
  const { EXAMPLE_CODES, startSandbox } = await import('./index.js');
  const sandbox = await startSandbox({
    port: args.port,
    host: args.host,
    db: args.db,
    manual: args.manual,
    clock: args.clock,
    rateLimit: !args['no-rate-limit'],
    config: config as never,
    seedExamples: args.seed ? args['seed-key'] : undefined,
    ...(fixture === undefined ? {} : { fixtures: { [args['seed-key']]: fixture as never } }),
    publicUrl: args['public-url'],
    corsOrigins: args['cors-origin'],
  }).catch((error: unknown) => {
    const port = portProblem(error, args.host, args.port, 'pass --port <port> to use another one (--port 0 picks a free one)');
    throw port ? new CliError(port) : error;
  });
  const key = args['seed-key'];
  console.log(
    `Sandbox of the partner API on ${sandbox.baseUrl} (gift cards: ${sandbox.giftCardBaseUrl}; simulation: ${sandbox.simulationUrl})`,
  );
  console.log(`Try: curl -H "Authorization: Bearer ${key}" ${sandbox.baseUrl}/balance`);
  if (args['public-url']) console.log(`Links it gives (the KYC page) start with ${sandbox.core.url}`);
  if (sandbox.core.delivery.targets.policy === 'public') {
    console.log(
      'Webhooks go to public addresses only, and a failed ping does not say why (webhook_targets in --config; docs: Webhook targets)',
    );
  }
  if (args.seed)
    console.log(
      `The contract's example records are seeded for ${key}: curl -H "Authorization: Bearer ${key}" ${sandbox.baseUrl}/cards/${EXAMPLE_CODES.card}`,
    );
  const loaded = sandbox.fixtures[key];
  if (loaded) console.log(`The records of ${args.fixtures} are made for ${key}: ${JSON.stringify(loaded)}`);
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return 0;
}

/** A JSON file given by a flag; one line naming the flag and the file when it cannot be read or parsed. */
function readJson(flag: string, file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CliError(`${flag} ${file}: ${(error as Error).message}`);
  }
}

await runCli(TOOL, USAGE, main);
