// npm run trigger -- <event.type> --url <receiver> --secret <whsec_...>
// npm run trigger -- --all --url <receiver> --secret <whsec_...>
// npm run trigger -- --list
//
// Sends the example event of each type (from generated/openapi.json `webhooks`) to a receiver, signed as
// the service signs, with the three X-Service-* headers, and prints the receiver's status and time.
// Exits 1 when a delivery is not acknowledged with 2xx, 2 on bad input.
//   --secret may come from WEBHOOK_SECRET; --spec <file> reads another bundle; --timeout <ms> (default 10000).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { exampleEvents, type JsonObject } from '../lib/openapi-examples.ts';
import { ROOT } from '../lib/paths.ts';
import { deliver, formatDelivery, receiverUrl } from './deliver.ts';

const USAGE = `usage: npm run trigger -- <event.type> --url <receiver> --secret <whsec_...>
       npm run trigger -- --all --url <receiver> --secret <whsec_...>
       npm run trigger -- --list`;

class UsageError extends Error {}

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        secret: { type: 'string' },
        all: { type: 'boolean' },
        list: { type: 'boolean' },
        spec: { type: 'string' },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const specFile = path.resolve(values.spec ?? path.join(ROOT, 'generated', 'openapi.json'));
  if (!fs.existsSync(specFile)) throw new UsageError(`${specFile} is missing: run \`npm run build\` first`);
  const events = exampleEvents(JSON.parse(fs.readFileSync(specFile, 'utf8')) as JsonObject);
  if (values.list) {
    for (const e of events) console.log(e.type);
    return 0;
  }

  if (values.all && positionals.length > 0) throw new UsageError('give one event type or --all, not both');
  if (!values.all && positionals.length !== 1) throw new UsageError('give exactly one event type (or --all)');
  const type = positionals[0];
  if (type !== undefined && !events.some((e) => e.type === type)) {
    const near = events.map((e) => e.type).filter((t) => distance(t, type) <= 3);
    throw new UsageError(
      `unknown event type "${type}". ${near.length > 0 ? `Did you mean: ${near.join(', ')}? ` : ''}` +
        'List them with: npm run trigger -- --list',
    );
  }
  if (!values.url) throw new UsageError('--url <receiver> is required (e.g. --url http://127.0.0.1:3000/webhooks)');
  const url = receiverUrl(values.url);
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
    if (!delivery.ok) failed++;
    console.log(formatDelivery(delivery, width));
  }
  if (chosen.length > 1) console.log(`${chosen.length - failed} acknowledged, ${failed} not acknowledged`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`trigger: ${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof UsageError) console.error(USAGE);
    process.exitCode = 2;
  },
);
