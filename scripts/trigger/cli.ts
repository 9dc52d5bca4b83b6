// npm run trigger -- <event.type> --url <receiver> --secret <whsec_...>
// npm run trigger -- --all --url <receiver> --secret <whsec_...>
// npm run trigger -- --list
//
// Sends the example event of each type (from generated/openapi.json `webhooks`) to a receiver, signed as
// the service signs, with the three X-Service-* headers, and prints the receiver's status and time.
// Exits 1 when a delivery is not acknowledged with 2xx, 2 on bad input or a receiver that cannot be reached.
import fs from 'node:fs';
import path from 'node:path';
import { exampleEvents, type JsonObject } from '../lib/openapi-examples.ts';
import { closest, CliError, parseCli, runCli, UsageError } from '../lib/cli-args.ts';
import { ROOT } from '../lib/paths.ts';
import { deliver, formatDelivery, receiverUrl, unreachable } from './deliver.ts';

const USAGE = `Usage: npm run trigger -- <event.type> --url <receiver> --secret <whsec_...>
       npm run trigger -- --all --url <receiver> --secret <whsec_...>
       npm run trigger -- --list
  <event.type>      the event to send (its example in the contract), e.g. card.frozen
  --all             send the example of every event, one after the other
  --list            list the event types
  --url <url>       the receiver's http:// or https:// URL
  --secret <key>    the endpoint secret to sign with (whsec_...); or set WEBHOOK_SECRET
  --timeout <ms>    how long to wait for each answer (default 10000, as the service)
  --spec <file>     the OpenAPI bundle to read the events from (default generated/openapi.json)
Exits 1 when a delivery is not acknowledged with 2xx, 2 on bad input or a receiver that cannot be reached.`;

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
    },
    positionals: { max: 1, name: 'event type' },
  });
  if (!args) return 0;
  const { values, positionals } = args;
  const specFile = path.resolve(values.spec ?? path.join(ROOT, 'generated', 'openapi.json'));
  if (!fs.existsSync(specFile)) throw new UsageError(`${specFile} is missing: run \`npm run build\` first`);
  const events = exampleEvents(JSON.parse(fs.readFileSync(specFile, 'utf8')) as JsonObject);
  if (values.list) {
    for (const e of events) console.log(e.type);
    return 0;
  }

  if (values.all && positionals.length > 0) throw new UsageError('give one event type or --all, not both');
  if (!values.all && positionals.length !== 1) throw new UsageError('missing the event type: give exactly one event type (or --all)');
  const type = positionals[0];
  if (type !== undefined && !events.some((e) => e.type === type)) {
    const near = closest(type, events.map((e) => e.type));
    throw new UsageError(
      `unknown event type "${type}". ${near.length > 0 ? `Did you mean: ${near.join(', ')}? ` : ''}` +
        'List them with: npm run trigger -- --list',
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

await runCli('trigger', USAGE, main);
