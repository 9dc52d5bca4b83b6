// The command line of the trigger's bin (`npx partner-api-trigger`, `npm run trigger` in a clone): its name, its
// help and the document it reads by default. Apart from ./cli.ts, so that tests read them without running it.
import { fileURLToPath } from 'node:url';
import { PACKAGE, guideUrl } from '../package-info.js';

/** The bin's name in package.json (the one that runs this file): what a partner types, and the first word of every error. */
export const TOOL = Object.entries(PACKAGE.bin ?? {}).find(([, file]) => /\btrigger\/cli\.js$/.test(file))?.[0] ?? 'partner-api-trigger';

/** The contract's OpenAPI bundle, as the package ships it beside dist/ (and as the repository has it beside src/). */
export const DEFAULT_SPEC = fileURLToPath(new URL('../../generated/openapi.json', import.meta.url));

export const USAGE = `Usage: ${TOOL} <event.type> --url <receiver> --secret <whsec_...>
       ${TOOL} --all --url <receiver> --secret <whsec_...>
       ${TOOL} --list
       (in a clone of the repository: npm run trigger -- <arguments>)

Sends the contract's example of an event to your webhook receiver, signed as the service signs it (the
X-Service-Signature, X-Service-Timestamp and X-Service-Idempotency-Key headers), and prints the answer.

  <event.type>      the event to send (its example in the contract), e.g. card.frozen
  --all             send the example of every event, one after the other
  --list            list the event types
  --url <url>       the receiver's http:// or https:// URL
  --secret <key>    the endpoint secret to sign with (whsec_...); or set WEBHOOK_SECRET
  --timeout <ms>    how long to wait for each answer (default 10000, as the service)
  --spec <file>     the OpenAPI bundle to read the events from (default: the package's generated/openapi.json)
  -h, --help        print this help
  -v, --version     print the version (${PACKAGE.version})

Exits 1 when a delivery is not acknowledged with 2xx, 2 on bad input or a receiver that cannot be reached.
Docs: ${guideUrl('webhooks.md#signing-test-deliveries')}`;
