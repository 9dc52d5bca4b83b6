// The command line of the sandbox's bin (`npx partner-api-sandbox`, `npm run sandbox` in a clone): its flags,
// checked, and its help. It loads nothing that needs node:sqlite, so that --help and --version answer on any Node.
import { parseCli as parseArgv, UsageError } from '../cli-parser.js';
import { BASE_SERVER, GIFT_CARD_SERVER } from '../contract/servers.js';
import { PACKAGE, guideUrl, nodeFloor } from '../package-info.js';
import { API_KEY_RULE, apiKeyMode } from '../client/api-key.js';
import { CLOCK_MODES, type ClockMode } from './core/clock.js';
import { isPublicUrl } from './core/public-url.js';
import { normaliseOrigin } from './http/cors.js';

/** The bin's name in package.json: what a partner types, and the first word of every line it prints. */
export const TOOL = Object.keys(PACKAGE.bin ?? {})[0] ?? 'partner-api-sandbox';

const [major, minor] = nodeFloor();

export const USAGE = `Usage: ${TOOL} [options]        (in a clone of the repository: npm run sandbox -- [options])

The partner API's stateful sandbox on your machine: the API at http://HOST:PORT${BASE_SERVER.path} (gift cards also at ${GIFT_CARD_SERVER.path}),
signed webhook deliveries, and the simulation API at http://HOST:PORT/sandbox. It runs until Ctrl-C.

Options:
  --port <n>          port to listen on (default 4020; 0 picks a free one)
  --host <address>    address to listen on (default 127.0.0.1)
  --db <file>         keep the state in a SQLite file (default: in memory, empty at each start)
  --config <file>     a JSON file of account settings (plans, balances, keys, webhook routes)
  --seed examples     give the --seed-key account the contract's example records
  --fixtures <file>   a JSON fixture: the records it declares are made for the --seed-key account,
                      and their codes printed
  --seed-key <key>    the key of --seed examples and --fixtures (default sk_test_sandbox)
  --public-url <url>  the https:// address a TLS proxy or tunnel serves the sandbox at: the links it
                      gives (the KYC page) start with it instead of http://HOST:PORT
  --cors-origin <origin>  let the web pages of this origin (scheme://host[:port]) call the sandbox
                      from a browser, besides pages on 127.0.0.1 and localhost, which always can;
                      repeat it for more origins
  --manual            asynchronous outcomes wait to be chosen through the simulation API
  --clock <mode>      per-account (default): each API key's account has its own clock, which only its
                      key moves; shared: one clock for every account, which any key moves
  --no-rate-limit     turn the per-key rate limit off
  -h, --help          print this help
  -v, --version       print the version (${PACKAGE.version})

Needs Node.js ${major}.${minor} or later. Docs: ${guideUrl('sandbox.md')}`;

const OPTIONS = {
  port: { type: 'string', default: '4020' },
  host: { type: 'string', default: '127.0.0.1' },
  db: { type: 'string' },
  seed: { type: 'string' },
  fixtures: { type: 'string' },
  'seed-key': { type: 'string', default: 'sk_test_sandbox' },
  'public-url': { type: 'string' },
  config: { type: 'string' },
  'cors-origin': { type: 'string', multiple: true },
  manual: { type: 'boolean', default: false },
  clock: { type: 'string', default: 'per-account' },
  'no-rate-limit': { type: 'boolean', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const;

export interface SandboxArgs {
  port: number;
  host: string;
  db?: string;
  seed?: string;
  fixtures?: string;
  'seed-key': string;
  'public-url'?: string;
  config?: string;
  'cors-origin'?: string[];
  manual: boolean;
  clock: ClockMode;
  'no-rate-limit': boolean;
  version: boolean;
}

/**
 * Reads the flags; null after printing the help (--help, -h). Throws a UsageError naming the first mistake
 * (an unknown flag with "did you mean", a missing value, a port out of range, a malformed key, a public url
 * that is not https://).
 */
export function parseCli(argv: string[]): SandboxArgs | null {
  const parsed = parseArgv(argv, { usage: USAGE, options: OPTIONS });
  if (!parsed) return null;
  const values = parsed.values as Omit<SandboxArgs, 'port'> & { port: string };
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got "${values.port}"`);
  if (!CLOCK_MODES.includes(values.clock)) throw new UsageError(`--clock must be ${CLOCK_MODES.join(' or ')}, got "${values.clock}"`);
  if (values.seed !== undefined && values.seed !== 'examples') throw new UsageError(`--seed accepts only "examples", got "${values.seed}"`);
  const publicUrl = values['public-url'];
  if (publicUrl !== undefined && !isPublicUrl(publicUrl))
    throw new UsageError(`--public-url must be an https:// url (https://host[/path]), got "${publicUrl}"`);
  for (const origin of values['cors-origin'] ?? []) {
    try {
      normaliseOrigin(origin);
    } catch (error) {
      throw new UsageError(`--cors-origin: ${(error as Error).message}`);
    }
  }
  if (apiKeyMode(values['seed-key']) === undefined)
    throw new UsageError(`--seed-key must be an API key, ${API_KEY_RULE}, got "${values['seed-key']}"`);
  return { ...values, port };
}
