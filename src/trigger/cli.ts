#!/usr/bin/env node
// The trigger's bin: `npx partner-api-trigger <event.type> --url <receiver> --secret <whsec_...>` (`npm run
// trigger -- ...` in a clone). Sends the example event of each type to a receiver, signed as the service signs,
// with the three X-Service-* headers, and prints the receiver's status and time.
//
// The examples are the `webhooks` of the contract's OpenAPI bundle that the package ships
// (generated/openapi.json, one level above src/ and dist/ alike), or of `--spec`.
// Every line it prints about a failure is one line, whatever a receiver or the system answered: a delivery not
// acknowledged (exit 1), a mistake on the command line (with the usage), a receiver that cannot be reached or a
// document that cannot be read (exit 2).
import fs from 'node:fs';
import { closest, CliError, parseCli, runCli, UsageError } from '../cli-parser.js';
import type { JsonObject } from '../contract/json.js';
import { contractModel, type ExampleEvent } from '../contract/model.js';
import { PACKAGE } from '../package-info.js';
import { DEFAULT_SPEC, TOOL, USAGE } from './trigger-flags.js';
import { deliver, formatDelivery, oneLine, receiverUrl, unreachable } from './deliver.js';

/** The example events of the OpenAPI bundle `file`; a file that is missing or not a bundle is one line, exit 2. */
function readEvents(file: string, given: boolean): ExampleEvent[] {
  const name = given ? `--spec ${file}` : file;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new CliError(
      code === 'ENOENT' ? `${name} does not exist` : `${name} cannot be read (${code ?? oneLine((error as Error).message)})`,
      2,
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${name} is not JSON (${oneLine((error as Error).message)}): give the OpenAPI bundle, generated/openapi.json`, 2);
  }
  const events = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? contractModel(doc as JsonObject).exampleEvents : [];
  if (events.length === 0) throw new CliError(`${name} has no webhooks: give the OpenAPI bundle, generated/openapi.json`, 2);
  return events;
}

async function main(): Promise<number> {
  const args = parseCli(process.argv.slice(2), {
    usage: USAGE,
    options: {
      url: { type: 'string' },
      secret: { type: 'string' },
      all: { type: 'boolean' },
      list: { type: 'boolean' },
      spec: { type: 'string' },
      timeout: { type: 'string' },
      version: { type: 'boolean', short: 'v' },
    },
    positionals: { max: 1, name: 'event type' },
  });
  if (!args) return 0;
  const { values, positionals } = args;
  if (values.version) {
    console.log(PACKAGE.version);
    return 0;
  }
  const events = readEvents(values.spec ?? DEFAULT_SPEC, values.spec !== undefined);
  if (values.list) {
    for (const e of events) console.log(e.type);
    return 0;
  }

  if (values.all && positionals.length > 0) throw new UsageError('give one event type or --all, not both');
  if (!values.all && positionals.length !== 1) throw new UsageError('missing the event type: give exactly one event type (or --all)');
  const type = positionals[0];
  if (type !== undefined && !events.some((e) => e.type === type)) {
    const near = closest(
      type,
      events.map((e) => e.type),
    );
    throw new UsageError(
      `unknown event type ${JSON.stringify(type)}. ${near.length > 0 ? `Did you mean: ${near.join(', ')}? ` : ''}` +
        `List them with: ${TOOL} --list`,
    );
  }
  if (!values.url) throw new UsageError('--url <receiver> is required (e.g. --url http://127.0.0.1:3000/webhooks)');
  let url: URL;
  try {
    url = receiverUrl(values.url);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const secret = values.secret ?? process.env.WEBHOOK_SECRET;
  if (!secret) throw new UsageError('--secret <whsec_...> is required (or set WEBHOOK_SECRET): the endpoint secret to sign with');
  if (secret !== secret.trim()) throw new UsageError('--secret has leading or trailing whitespace');
  if (!secret.startsWith('whsec_')) console.warn('warning: endpoint secrets of the service start with whsec_');
  const timeoutMs = values.timeout === undefined ? 10_000 : Number(values.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError('--timeout must be a positive number of milliseconds');

  const chosen = values.all ? events : events.filter((e) => e.type === type);
  const missing = chosen.filter((e) => e.event === null).map((e) => e.type);
  if (missing.length > 0) throw new UsageError(`no example in the document for: ${missing.join(', ')}`);

  const width = Math.max(...chosen.map((e) => e.type.length));
  console.log(`Sending ${chosen.length} signed event${chosen.length === 1 ? '' : 's'} to ${url.href}`);
  let failed = 0;
  for (const { type: eventType, event } of chosen) {
    const delivery = await deliver(url, eventType, event, secret, timeoutMs);
    // A receiver that cannot be reached is said once, not once per event.
    const cannotReach = unreachable(delivery);
    if (cannotReach) throw new CliError(`cannot reach ${url.href} (${cannotReach}): is the receiver running?`, 2);
    if (!delivery.ok) failed++;
    console.log(formatDelivery(delivery, width));
  }
  if (chosen.length > 1) console.log(`${chosen.length - failed} acknowledged, ${failed} not acknowledged`);
  return failed > 0 ? 1 : 0;
}

// An error nobody foresaw is still one line: its message with its line breaks folded, and no stack.
await runCli(TOOL, USAGE, () =>
  main().catch((error: unknown) => {
    if (error instanceof UsageError || error instanceof CliError) throw error;
    throw new CliError(oneLine(error instanceof Error ? error.message : String(error)));
  }),
);
