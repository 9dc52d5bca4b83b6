// The contract's facts the runtime reads without loading the 800 KB bundle: the two addresses (the document's
// `servers`, `{base_url}`, and the gift card operations' own `servers`, `{alt_base_url}`) with their base paths
// and the path prefixes the second serves, and the webhook limits of `x-plans` the toolkit uses. The build appends
// them to generated/openapi-values.js (and its .d.ts) as `contractFacts`, so the client and src/webhooks read
// them where the sandbox and the tools read the bundle.

/** One server of the contract: its URL template's variable, its default URL and that URL's path. */
export interface ServerFact {
  variable: string;
  default: string;
  path: string;
}

/** What `contractFacts` holds. */
export interface ContractFacts {
  /** The document's server, `{base_url}` (`.../v1`). */
  base: ServerFact;
  /** The gift card operations' server, `{alt_base_url}` (`.../api/v1`), and the path prefixes it serves. */
  alt: ServerFact & { pathPrefixes: string[] };
  webhookTimestampToleranceSeconds: number;
  webhookResponseTimeoutSeconds: number;
}

interface Server {
  url: string;
  variables?: Record<string, { default: string }>;
}
interface Bundle {
  servers?: Server[];
  paths?: Record<string, Record<string, unknown> & { servers?: Server[] }>;
  'x-plans'?: { limits?: Record<string, unknown> };
}

function serverFact(server: Server, where: string): ServerFact {
  const match = /^\{(\w+)\}$/.exec(server.url);
  const variable = match?.[1];
  const value = variable ? server.variables?.[variable]?.default : undefined;
  if (!variable || !value) throw new Error(`${where}: a server's url is one variable with a default, not ${server.url}`);
  return { variable, default: value, path: new URL(value).pathname.replace(/\/$/, '') };
}

/** The servers of a path (its own, or those of its operations), or undefined for the document's. */
function pathServers(item: Record<string, unknown> & { servers?: Server[] }): Server[] | undefined {
  if (item.servers) return item.servers;
  for (const operation of Object.values(item)) {
    const servers = (operation as { servers?: Server[] } | null)?.servers;
    if (servers) return servers;
  }
  return undefined;
}

/** The facts of an OpenAPI bundle (generated/openapi.json, parsed). */
export function contractFacts(bundle: Bundle): ContractFacts {
  const root = bundle.servers?.[0];
  if (!root) throw new Error('openapi.json: no servers');
  const base = serverFact(root, 'servers');
  let alt: ServerFact | undefined;
  const altPaths: string[] = [];
  const basePaths: string[] = [];
  for (const [urlPath, item] of Object.entries(bundle.paths ?? {})) {
    const servers = pathServers(item);
    if (!servers?.[0]) {
      basePaths.push(urlPath);
      continue;
    }
    const fact = serverFact(servers[0], `paths.${urlPath}.servers`);
    if (alt && fact.default !== alt.default) throw new Error(`paths.${urlPath}.servers: a third address, ${fact.default}`);
    alt = fact;
    altPaths.push(urlPath);
  }
  if (!alt) throw new Error('openapi.json: no operation has its own servers');
  // The first segment of each path served at the alt address; none of the others may start with one.
  const pathPrefixes = [...new Set(altPaths.map((p) => `/${p.split('/')[1]}`))].sort();
  const clash = basePaths.find((p) => pathPrefixes.some((prefix) => p === prefix || p.startsWith(`${prefix}/`)));
  if (clash) throw new Error(`paths.${clash}: served at ${base.variable} under a prefix of ${alt.variable}`);
  const limits = bundle['x-plans']?.limits ?? {};
  const seconds = (key: string): number => {
    const value = limits[key];
    if (typeof value !== 'number') throw new Error(`x-plans.limits.${key}: a number is missing`);
    return value;
  };
  return {
    base,
    alt: { ...alt, pathPrefixes },
    webhookTimestampToleranceSeconds: seconds('webhook_timestamp_tolerance_seconds'),
    webhookResponseTimeoutSeconds: seconds('webhook_response_timeout_seconds'),
  };
}

/** The module text appended to openapi-values.js and openapi-values.d.ts. */
export function factsModule(facts: ContractFacts): { js: string; dts: string } {
  const doc =
    "/** The contract's addresses ({base_url}, and {alt_base_url} of the gift card operations) and webhook limits (x-plans). */\n";
  const js = `${doc}export const contractFacts = ${JSON.stringify(facts, null, 2)};\n`;
  const dts = `${doc}export declare const contractFacts: {\n  readonly base: { readonly variable: string; readonly default: string; readonly path: string };\n  readonly alt: { readonly variable: string; readonly default: string; readonly path: string; readonly pathPrefixes: readonly string[] };\n  readonly webhookTimestampToleranceSeconds: number;\n  readonly webhookResponseTimeoutSeconds: number;\n};\n`;
  return { js, dts };
}
