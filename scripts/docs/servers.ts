// The servers of the docs copy of the OpenAPI bundle (site/index.html), not of the contract:
// - beside each production address the contract declares ({base_url}, and {alt_base_url} on the gift card
//   paths), the local sandbox of this package at the same base path (http://127.0.0.1:4020/v1, /api/v1),
//   so that a reader sees where to try every operation;
// - every server and server variable description as plain text: Redoc shows them as typed, so inline code
//   (`sk_test_`) would keep its backticks.
// The contract keeps only the service's addresses: the sandbox is a tool of this package that runs on the
// reader's machine on a port of their choice, not an address of the service.
import { HOST } from '../lib/dev-servers.ts';
import { GIFT_CARD_SERVER } from '../../src/contract/servers.ts';
import { DEFAULT_SANDBOX_PORT } from '../lib/sandbox-process.ts';
import { contractModel, type JsonObject as ContractDocument } from '../../src/contract/model.ts';

type JsonObject = { [key: string]: unknown };

interface Server {
  url: string;
  description?: string;
  variables?: Record<string, { default: string; description?: string; enum?: string[] }>;
  [extension: `x-${string}`]: unknown;
}

/** The sandbox started by `npm start` or `npm run sandbox` with its default port. */
export const SANDBOX_ORIGIN = `http://${HOST}:${DEFAULT_SANDBOX_PORT}`;

/** Markdown inline formatting as plain text: code spans, emphasis and links keep only their text. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_, _ticks: string, code: string) => code.trim())
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(\S[\s\S]*?\S|\S)\1/g, '$2')
    .replace(/(^|[\s(])\*(\S[^*]*?)\*(?=[\s).,;:!?]|$)/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The path of a server url after its origin (`{base_url}` → the path of its variable's default). */
function basePath(server: Server): string {
  const url = server.url.replace(/\{(\w+)\}/g, (whole, name: string) => server.variables?.[name]?.default ?? whole);
  try {
    return new URL(url).pathname.replace(/\/$/, '');
  } catch {
    return '';
  }
}

/** The sandbox server at the base path of `production` (`/v1`, or `/api/v1` for the gift card address). */
export function sandboxServer(production: Server): Server {
  const path = basePath(production);
  const giftCards = path === GIFT_CARD_SERVER.path;
  const where = giftCards ? `, with the gift card operations at ${path} as the service has them at {${GIFT_CARD_SERVER.variable}}` : '';
  const rest = giftCards ? '' : ` The gift card operations are at ${GIFT_CARD_SERVER.path}, the simulation API at /sandbox.`;
  return {
    url: `${SANDBOX_ORIGIN}${path}`,
    description:
      `Local sandbox, on your machine: npx partner-api-sandbox runs this package's stateful sandbox on ` +
      `port ${DEFAULT_SANDBOX_PORT}${where}. It keeps what you create, sends signed events to your webhook endpoints ` +
      `and moves no real money; use any sk_test_ key (sk_test_sandbox holds the examples with --seed examples).${rest}`,
  };
}

/** Loopback addresses: a server of the reader's own machine, not of the service. */
const LOCAL = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/;

/** A server whose descriptions (its own and its variables') are plain text. */
function plainDescriptions(server: Server): Server {
  const copy: Server = { ...server };
  if (typeof copy.description === 'string') copy.description = plainText(copy.description);
  if (copy.variables) {
    copy.variables = Object.fromEntries(
      Object.entries(copy.variables).map(([name, variable]) => [
        name,
        typeof variable.description === 'string' ? { ...variable, description: plainText(variable.description) } : variable,
      ]),
    );
  }
  return copy;
}

/**
 * A server of the service with plain descriptions; its description starts by saying it is the production
 * service (a menu of servers shows only the first words). A url that is only a variable (`{base_url}`, whose
 * default is the whole address) is given as that address, with the variable named in the description: Redoc
 * reads a url that does not start with a scheme as relative to the page, and showed and copied
 * `http://127.0.0.1:8080/index.html/{base_url}`.
 */
function productionServer(server: Server): Server {
  const copy = plainDescriptions(server);
  let text = copy.description ?? '';
  const whole = /^\{(\w+)\}$/.exec(copy.url);
  const variable = whole ? copy.variables?.[whole[1]!] : undefined;
  if (whole && variable && /^https?:\/\//.test(variable.default)) {
    text = `${text} ${whole[0]}: ${variable.description ?? ''}`.trim();
    copy.url = variable.default;
    delete copy.variables;
  }
  copy.description = /^the production\b/i.test(text) ? text : `Production: ${text.charAt(0).toLowerCase()}${text.slice(1)}`.trim();
  return copy;
}

/** The contract's servers with plain descriptions, each followed by its sandbox (once per url). */
export function docsServers(servers: Server[]): Server[] {
  const out: Server[] = [];
  for (const server of servers) {
    if (LOCAL.test(server.url)) {
      out.push(plainDescriptions(server));
      continue;
    }
    out.push(productionServer(server));
    const sandbox = sandboxServer(server);
    if (!servers.some((s) => s.url === sandbox.url) && !out.some((s) => s.url === sandbox.url)) out.push(sandbox);
  }
  return out;
}

/**
 * Gives every `servers` list of the docs copy's API (document, path items, operations; not the webhooks,
 * which the partner serves) its sandbox servers and plain descriptions. Changes `doc` in place.
 */
export function addSandboxServers(doc: JsonObject): void {
  const operations = contractModel(doc as ContractDocument).operations;
  const lists = new Set<JsonObject>([doc, ...operations.flatMap((o) => [o.item.node, o.node])]);
  for (const holder of lists) {
    if (Array.isArray(holder.servers)) holder.servers = docsServers(holder.servers as Server[]);
  }
}
