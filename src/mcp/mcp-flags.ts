// The command line of the MCP server's bin (`npx partner-api-mcp`): its flags, checked, and its help. Apart from
// ./cli.ts, so that tests read them without starting anything. It loads nothing that needs node:sqlite, so that
// --help and --version answer on any Node.
import { parseCli as parseArgv, UsageError } from '../cli-parser.js';
import { API_KEY_RULE, apiKeyMode } from '../client/api-key.js';
import { BASE_SERVER, GIFT_CARD_SERVER } from '../contract/servers.js';
import { PACKAGE, guideUrl } from '../package-info.js';

/** The bin's name in package.json (the one that runs this file): what an assistant's config names, and the first word of every error. */
export const TOOL = Object.entries(PACKAGE.bin ?? {}).find(([, file]) => /\bmcp\/cli\.js$/.test(file))?.[0] ?? 'partner-api-mcp';

/** The key of the in-process sandbox's account when none is given: any well-formed key has an account there. */
export const DEFAULT_SANDBOX_KEY = 'sk_test_assistant';

export const USAGE = `Usage: ${TOOL} [options]

An MCP server (stdio) that lets a coding assistant read the partner API's docs and drive its sandbox: call any
operation of the contract (validated against it first), choose outcomes, arm faults, move the clock, and read the
events and webhook deliveries of the account. By default it starts a sandbox of its own, in memory; with
--server it calls a sandbox (or service) that runs elsewhere. Add it to your assistant's MCP servers as the
command \`npx -y -p ${PACKAGE.name} ${TOOL}\`.

Options:
  --server <url>          the partner API to call, its {${BASE_SERVER.variable}} ending in ${BASE_SERVER.path} (default: a sandbox in-process)
  --gift-card-url <url>   with --server: its gift card address {${GIFT_CARD_SERVER.variable}} (default: --server with ${GIFT_CARD_SERVER.path} for ${BASE_SERVER.path})
  --simulation-url <url>  with --server: the sandbox's simulation API, http://HOST:PORT/sandbox
  --api-key <key>         the key of the account to act on (or PARTNER_API_KEY; in-process default ${DEFAULT_SANDBOX_KEY})
  --port <n>              the in-process sandbox's port on 127.0.0.1 (default 0: a free one)
  --db <file>             keep the in-process sandbox's state in a SQLite file (default: in memory)
  --manual                the in-process sandbox's asynchronous outcomes wait to be chosen with the simulate tool
  --no-rate-limit         turn the in-process sandbox's per-key rate limit off (as the sandbox's bin does;
                          otherwise 100 requests a minute, 30 on the Découverte plan)
  --docs <file>           the llms-full.txt to search (default: the one the package ships)
  -h, --help              print this help
  -v, --version           print the version (${PACKAGE.version})

It speaks MCP on stdin and stdout, and writes nothing else there. Docs: ${guideUrl('assistants.md')}`;

const OPTIONS = {
  server: { type: 'string' },
  'gift-card-url': { type: 'string' },
  'simulation-url': { type: 'string' },
  'api-key': { type: 'string' },
  port: { type: 'string' },
  db: { type: 'string' },
  manual: { type: 'boolean', default: false },
  'no-rate-limit': { type: 'boolean', default: false },
  docs: { type: 'string' },
  version: { type: 'boolean', short: 'v', default: false },
} as const;

/** Where the tools' calls go: a sandbox started in-process, or a server given by its addresses. */
export type McpArgs =
  | { version: true }
  | {
      version: false;
      apiKey: string;
      docs?: string;
      target:
        | { kind: 'in-process'; port: number; db?: string; manual: boolean; rateLimit: boolean }
        | { kind: 'remote'; baseUrl: string; giftCardBaseUrl?: string; simulationUrl?: string };
    };

/** An http:// or https:// url, without a final slash; a UsageError naming the flag otherwise. */
function httpUrl(flag: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be an http:// or https:// url, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${flag} must be an http:// or https:// url, got "${value}"`);
  return value.replace(/\/+$/, '');
}

/**
 * Reads the flags (and PARTNER_API_KEY from `env`); null after printing the help. Throws a UsageError naming the
 * first mistake: an unknown flag (with "did you mean"), a missing value, a malformed url or key, a flag of the
 * in-process sandbox given with --server, a remote address without --server, --server without a key.
 */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): McpArgs | null {
  const parsed = parseArgv(argv, { usage: USAGE, options: OPTIONS });
  if (!parsed) return null;
  const values = parsed.values;
  if (values.version) return { version: true };
  const apiKey = values['api-key'] ?? (env.PARTNER_API_KEY || undefined);
  const keySource = values['api-key'] !== undefined ? '--api-key' : 'PARTNER_API_KEY';
  if (apiKey !== undefined && apiKeyMode(apiKey) === undefined)
    throw new UsageError(`${keySource} must be an API key, ${API_KEY_RULE}, got "${apiKey}"`);
  const docs = values.docs;
  if (values.server === undefined) {
    for (const flag of ['gift-card-url', 'simulation-url'] as const) {
      if (values[flag] !== undefined)
        throw new UsageError(`--${flag} goes with --server (without --server, the tools use a sandbox of their own)`);
    }
    const port = values.port ?? '0';
    if (!/^\d+$/.test(port) || Number(port) > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got "${port}"`);
    return {
      version: false,
      apiKey: apiKey ?? DEFAULT_SANDBOX_KEY,
      docs,
      target: {
        kind: 'in-process',
        port: Number(port),
        db: values.db,
        manual: values.manual ?? false,
        rateLimit: !values['no-rate-limit'],
      },
    };
  }
  for (const flag of ['port', 'db'] as const) {
    if (values[flag] !== undefined) throw new UsageError(`--${flag} is for the in-process sandbox: drop it, or drop --server`);
  }
  if (values.manual)
    throw new UsageError(
      '--manual is for the in-process sandbox: drop it, or drop --server (PATCH /sandbox/account sets manual on another sandbox)',
    );
  if (values['no-rate-limit'])
    throw new UsageError(
      '--no-rate-limit is for the in-process sandbox: drop it, or drop --server (PATCH /sandbox/account sets rate_limit on another sandbox)',
    );
  if (apiKey === undefined) throw new UsageError('--server needs --api-key <key> (or PARTNER_API_KEY): the key of the account to act on');
  const baseUrl = httpUrl('--server', values.server);
  const giftCardBaseUrl =
    values['gift-card-url'] !== undefined
      ? httpUrl('--gift-card-url', values['gift-card-url'])
      : baseUrl.endsWith(BASE_SERVER.path)
        ? baseUrl.slice(0, -BASE_SERVER.path.length) + GIFT_CARD_SERVER.path
        : undefined;
  const simulationUrl = values['simulation-url'] !== undefined ? httpUrl('--simulation-url', values['simulation-url']) : undefined;
  return { version: false, apiKey, docs, target: { kind: 'remote', baseUrl, giftCardBaseUrl, simulationUrl } };
}
