#!/usr/bin/env node
// npm run sandbox -- [--port 4020] [--host 127.0.0.1] [--db FILE] [--seed examples [--seed-key KEY]] [--config FILE] [--manual] [--no-rate-limit]
import fs from 'node:fs';
import { USAGE, parseCli } from './cli-args.js';
import { EXAMPLE_CODES, startSandbox } from './index.js';

async function main(): Promise<void> {
  let args: ReturnType<typeof parseCli>;
  try {
    args = parseCli(process.argv.slice(2));
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]!.replace(/\. To specify.*$/, '');
    console.error(`sandbox: ${message}\n${USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const config = args.config ? JSON.parse(fs.readFileSync(args.config, 'utf8')) : undefined;
  const sandbox = await startSandbox({ port: args.port, host: args.host, db: args.db, manual: args.manual, rateLimit: !args['no-rate-limit'], config, seedExamples: args.seed ? args['seed-key'] : undefined });
  console.log(`Sandbox of the partner API on ${sandbox.baseUrl} (gift cards: ${sandbox.giftCardBaseUrl}; simulation: ${sandbox.simulationUrl})`);
  console.log(`Try: curl -H "Authorization: Bearer ${args['seed-key']}" ${sandbox.baseUrl}/balance`);
  if (args.seed) console.log(`The contract's example records are seeded for ${args['seed-key']}: curl -H "Authorization: Bearer ${args['seed-key']}" ${sandbox.baseUrl}/cards/${EXAMPLE_CODES.card}`);
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

await main();
