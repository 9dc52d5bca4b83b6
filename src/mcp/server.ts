// The MCP server: a few tools over the whole contract rather than one per path, each typed from it (the
// operationIds, event types and delivery statuses are the documents' own lists):
//
//   list_operations     the operations of the partner API and of the simulation API, by tag
//   describe_operation  one operation: its section of the API reference, and the JSON Schemas of its input
//   call_partner_api    calls an operation of the partner API, its input validated against the contract first
//   simulate            calls an operation of the sandbox's simulation API: outcomes, faults, the clock, deposits
//   list_events         the account's events, newest first, each with its webhook deliveries
//   search_docs         the docs site's pages (the package's llms-full.txt), by section
//
// Each answers text (JSON for the calls), and `isError` when the request was refused before it was sent, could
// not be sent, or was answered with an error status.
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { webhookDeliveryStatusValues, webhookEventNameChoiceValues } from '../../generated/openapi-values.js';
import { PACKAGE } from '../package-info.js';
import { accountActivity } from './activity.js';
import { Catalogue, queryString, requestPath, type CatalogueOperation, type RequestInput } from './catalogue.js';
import { operationSection, REFERENCE_PAGES, searchDocs, type Docs } from './docs.js';
import type { Target } from './target.js';

export interface PartnerMcpOptions {
  target: Target;
  catalogue?: Catalogue;
  /** The docs to search and quote (undefined: search_docs says where to find them). */
  docs?: Docs;
}

const reply = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }],
  ...(isError ? { isError: true } : {}),
});

/** A JSON Schema without the reviewers' notes (`x-provisional-note` ...): what an assistant needs to build a value. */
function readable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(readable);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !key.startsWith('x-') || key === 'x-decimal-places')
      .map(([k, v]) => [k, readable(v)]),
  );
}

/** The headers of an answer a caller acts on. */
const ANSWER_HEADERS = ['idempotent-replayed', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'allow'];

export interface CallAnswer {
  request: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Sends one request of an operation to the target, with its key; the answer as it came. */
export async function send(
  target: Target,
  op: CatalogueOperation,
  input: RequestInput & { idempotency_key?: string },
): Promise<CallAnswer> {
  const base = op.api === 'simulation' ? target.simulationUrl : op.altHost ? target.giftCardBaseUrl : target.baseUrl;
  if (!base) {
    throw new Error(
      op.api === 'simulation'
        ? 'no simulation API: the MCP server was started with --server and without --simulation-url'
        : `no gift card address for ${op.operationId}: start the MCP server with --gift-card-url`,
    );
  }
  const url = `${base}${requestPath(op, input.path_params)}${queryString(input.query)}`;
  const headers: Record<string, string> = { Authorization: `Bearer ${target.apiKey}`, Accept: 'application/json' };
  if (input.body !== undefined) headers['Content-Type'] = 'application/json';
  // A partner API POST carries an Idempotency-Key, as the package's client sends one: a retry of the same call is safe.
  if (op.api === 'partner' && op.method === 'POST') headers['Idempotency-Key'] = input.idempotency_key ?? randomUUID();
  const response = await fetch(url, {
    method: op.method,
    headers,
    body: input.body === undefined ? undefined : JSON.stringify(input.body),
    signal: AbortSignal.timeout(30_000),
  });
  const raw = await response.text();
  let body: unknown = raw;
  try {
    body = raw === '' ? null : JSON.parse(raw);
  } catch {
    // Not JSON (a proxy's page): kept as text.
  }
  const kept = Object.fromEntries(
    ANSWER_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])),
  );
  if (headers['Idempotency-Key']) kept['idempotency-key (sent)'] = headers['Idempotency-Key'];
  return { request: `${op.method} ${url}`, status: response.status, headers: kept, body };
}

/** Why a request could not be sent, in one line (`fetch failed` says nothing: its cause does). */
function sendFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (error as Error).message;
  return (error as Error).name === 'TimeoutError' ? 'no answer within 30 seconds' : String(why);
}

/** The connection lines every listing starts with: where the calls go, with which key, and the webhook receiver. */
function connection(target: Target): string {
  return [
    `Calls go to ${target.description}, with the key ${target.apiKey}.`,
    ...(target.receiverUrl
      ? [
          `Webhook receiver: register ${target.receiverUrl} as your webhook endpoint (createWebhookEndpoint): it answers every delivery with 204. The sandbox creates no customer before the account has an endpoint.`,
        ]
      : []),
  ].join('\n');
}

export function createMcpServer({ target, catalogue = new Catalogue(), docs }: PartnerMcpOptions): McpServer {
  const server = new McpServer(
    { name: PACKAGE.name, version: PACKAGE.version },
    {
      instructions: [
        'Tools over the partner payments API (cards, KYC, wallets, virtual accounts, gift cards, payouts, balances, webhooks) ' +
          'and its sandbox. Find an operation with list_operations or search_docs, read it with describe_operation, call it ' +
          "with call_partner_api; make the service's side happen (a KYC decision, a card issued, a fault, time passing) with " +
          'simulate; check what was sent to the webhook endpoints with list_events.',
        connection(target),
      ].join('\n'),
    },
  );

  const tools: ToolContext = { target, catalogue, docs };
  for (const register of TOOLS) register(server, tools);
  return server;
}

/** What every tool works with: where calls go, the operations of both documents, the docs. */
interface ToolContext {
  target: Target;
  catalogue: Catalogue;
  docs: Docs | undefined;
}

type ToolRegistration = (server: McpServer, tools: ToolContext) => void;

const operationLine = (op: CatalogueOperation) =>
  `${op.operationId.padEnd(32)} ${op.method.padEnd(6)} ${op.path}  ${op.summary}${op.provisional ? ' (provisional)' : ''}`;

function listOperationsTool(server: McpServer, { target, catalogue }: ToolContext): void {
  server.registerTool(
    'list_operations',
    {
      title: 'List the operations',
      description:
        'Lists the operations you can call: those of the partner API (call them with call_partner_api) and those of the ' +
        "sandbox's simulation API (call them with simulate), by tag, each as operationId, method, path and summary. " +
        'Filter by api, by tag, or by words of the id, path or summary.',
      inputSchema: {
        api: z.enum(['partner', 'simulation']).optional().describe('Only the partner API, or only the simulation API.'),
        tag: z
          .string()
          .optional()
          .describe('Only this tag: Cards, Customers, KYC, Webhook endpoints, Events ... (simulation operations are tagged too).'),
        filter: z.string().optional().describe('Only operations whose operationId, path or summary contains this text (case-insensitive).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ api, tag, filter }) => {
      const wanted = (op: CatalogueOperation) =>
        (api === undefined || op.api === api) &&
        (tag === undefined || op.tag.toLowerCase() === tag.toLowerCase()) &&
        (filter === undefined || `${op.operationId} ${op.path} ${op.summary}`.toLowerCase().includes(filter.toLowerCase()));
      const lines = [connection(target), ''];
      for (const which of ['partner', 'simulation'] as const) {
        const ops = catalogue.operations.filter((op) => op.api === which && wanted(op));
        if (ops.length === 0) continue;
        lines.push(
          which === 'partner'
            ? `Partner API (call_partner_api), at ${target.baseUrl}:`
            : `Simulation API (simulate), at ${target.simulationUrl ?? '(not available: no --simulation-url)'}:`,
        );
        for (const group of [...new Set(ops.map((op) => op.tag))]) {
          lines.push(`  ${group}`, ...ops.filter((op) => op.tag === group).map((op) => `    ${operationLine(op)}`));
        }
        lines.push('');
      }
      if (lines.length === 2)
        return reply(`No operation matches. Tags: ${[...new Set(catalogue.operations.map((o) => o.tag))].join(', ')}.`, true);
      lines.push("describe_operation gives an operation's parameters, body, answers, errors and examples.");
      return reply(lines.join('\n'));
    },
  );
}

function describeOperationTool(server: McpServer, { catalogue, docs }: ToolContext): void {
  server.registerTool(
    'describe_operation',
    {
      title: 'Describe an operation',
      description:
        'Everything about one operation of the partner API or the simulation API: what it does and the rules it enforces, ' +
        'its parameters and body (with their types, bounds and values), its answers and errors, examples, the events it ' +
        'emits, and the JSON Schemas of the path_params, query and body that call_partner_api or simulate take for it.',
      inputSchema: {
        operation_id: z
          .enum([...catalogue.ids('partner'), ...catalogue.ids('simulation')])
          .describe('The operationId: createCard, freezeCard, simulateKycOutcome ...'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ operation_id }) => {
      const op = catalogue.get(operation_id)!;
      const section = docs ? operationSection(docs, op.operationId, REFERENCE_PAGES[op.api]) : undefined;
      const about =
        section?.text ??
        [
          `### ${op.summary}`,
          '',
          `\`${op.method} ${op.path}\`, operationId \`${op.operationId}\`.${op.provisional ? ' Provisional.' : ''}` +
            (op.events.length > 0 ? ` Emits ${op.events.map((e) => `\`${e}\``).join(', ')}.` : ''),
          '',
          op.description,
        ].join('\n');
      const schemas = await catalogue.schemas(op);
      const tool = op.api === 'partner' ? 'call_partner_api' : 'simulate';
      return reply(
        [
          `# ${op.operationId}: ${op.method} ${op.path} (${op.api === 'partner' ? 'partner API' : 'simulation API'}; call it with ${tool})`,
          '',
          about,
          '',
          `## The input of ${tool} for ${op.operationId}`,
          '',
          Object.keys(schemas).length === 0 ? 'No path_params, query or body.' : '',
          ...Object.entries(schemas).flatMap(([part, schema]) => [
            `${part}:`,
            '```json',
            JSON.stringify(readable(schema), null, 2),
            '```',
            '',
          ]),
        ].join('\n'),
      );
    },
  );
}

/** The parts of a request both calling tools take. */
const requestShape = {
  path_params: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .optional()
    .describe('The path parameters by name: { "code": "<card code>" }.'),
  query: z.record(z.string(), z.unknown()).optional().describe('The query parameters by name: { "limit": 20, "page": 1 }.'),
  body: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("The JSON body, as the operation's schema describes it (describe_operation)."),
};

/** Validates, sends and reports one call of an operation. */
async function call(
  { target, catalogue }: ToolContext,
  op: CatalogueOperation,
  input: RequestInput & { idempotency_key?: string },
): Promise<CallToolResult> {
  const problems = await catalogue.problems(op, input);
  if (problems.length > 0) {
    return reply(
      `Not sent: the request breaks the contract of ${op.operationId} (${op.method} ${op.path}):\n${problems.map((p) => `- ${p}`).join('\n')}\n` +
        "describe_operation gives its input's JSON Schemas.",
      true,
    );
  }
  try {
    const answer = await send(target, op, input);
    return reply(answer, answer.status >= 400);
  } catch (error) {
    return reply(`Not answered: ${op.method} ${op.path} (${op.operationId}) could not be sent: ${sendFailure(error)}`, true);
  }
}

function callPartnerApiTool(server: McpServer, tools: ToolContext): void {
  const { catalogue } = tools;
  server.registerTool(
    'call_partner_api',
    {
      title: 'Call the partner API',
      description:
        "Calls one operation of the partner API, by operationId, with the account's key. The path parameters, query and " +
        'body are checked against the contract first, as the API checks them: a request that breaks it is not sent, and ' +
        'the answer names each field and rule. A POST carries an Idempotency-Key (a new one, or idempotency_key: the same ' +
        'key again replays the first answer). Gift card operations go to the gift card address. The answer is the ' +
        "request, the HTTP status, the headers a caller acts on and the body, the API's envelope ({ success, data, meta } " +
        'or { success: false, error: { code, message, details } }); an error status is reported as an error. ' +
        'Read an operation with describe_operation first. On the sandbox, create a webhook endpoint before customers.',
      inputSchema: {
        operation_id: z
          .enum(catalogue.ids('partner'))
          .describe('The operationId: createWebhookEndpoint, createCustomer, createCard, freezeCard ...'),
        ...requestShape,
        idempotency_key: z.string().min(1).max(255).optional().describe('The Idempotency-Key of a POST (default: a new UUID).'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    async ({ operation_id, ...input }) => call(tools, catalogue.get(operation_id)!, input),
  );
}

function simulateTool(server: McpServer, tools: ToolContext): void {
  const { catalogue } = tools;
  const simulations = catalogue.operations.filter((op) => op.api === 'simulation');
  server.registerTool(
    'simulate',
    {
      title: "Simulate the service's side (sandbox)",
      description:
        "Calls one operation of the sandbox's simulation API, for the account of the key: what the service, a provider " +
        'or your customer would do. Outcomes (a KYC decision, a card issued, a top-up applied, a payout moved), faults ' +
        "(the next calls of an operation answer 500 or 502), the clock of the key's account (read, advance: its automatic " +
        'outcomes and webhook retries fall due; freeze, resume; other keys keep their own), balances, deposits and card payments. By default asynchronous outcomes ' +
        'complete by themselves 2 seconds of the clock after the request; advanceClock { seconds: 2 } makes them happen ' +
        "now. Its input is checked against the simulation API's contract first. The operations:\n" +
        simulations.map((op) => `- ${op.operationId} (${op.method} ${op.path}): ${op.summary}`).join('\n'),
      inputSchema: {
        operation_id: z
          .enum(catalogue.ids('simulation'))
          .describe('The simulation operationId: simulateKycOutcome, advanceClock, armFault ...'),
        ...requestShape,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ operation_id, ...input }) => call(tools, catalogue.get(operation_id)!, input),
  );
}

function listEventsTool(server: McpServer, { target }: ToolContext): void {
  server.registerTool(
    'list_events',
    {
      title: 'List the events and their webhook deliveries',
      description:
        "The events of the account, newest first, each with its webhook deliveries: to which endpoint, the delivery's " +
        'status (pending, delivered, failed), its attempt, the HTTP status the endpoint answered and the next retry. ' +
        'Filter by event type, by fields of the event\'s data (for example { "card_code": "<code>" }) and by delivery ' +
        'status. Use it to check that an event was sent, and taken by your endpoint.',
      inputSchema: {
        type: z
          .enum(webhookEventNameChoiceValues as unknown as [string, ...string[]])
          .optional()
          .describe('Only events of this type: card.frozen, kyc.approved ...'),
        data: z
          .record(z.string(), z.unknown())
          .optional()
          .describe('Fields the event\'s data must have, each equal: { "card_code": "…" }.'),
        delivery_status: z
          .enum(webhookDeliveryStatusValues as unknown as [string, ...string[]])
          .optional()
          .describe('Only events with a delivery in this status.'),
        limit: z.number().int().min(1).max(100).optional().describe('At most this many events (default 10).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ type, data, delivery_status, limit }) => {
      try {
        const found = await accountActivity(target, { type, data, deliveryStatus: delivery_status, limit });
        const note = found.endpoints === 0 ? 'The account has no webhook endpoint: no event was delivered.' : undefined;
        return reply({ ...(note ? { note } : {}), events: found.events, events_read: found.scanned });
      } catch (error) {
        return reply(`The events could not be read: ${(error as Error).message}`, true);
      }
    },
  );
}

function searchDocsTool(server: McpServer, { docs }: ToolContext): void {
  server.registerTool(
    'search_docs',
    {
      title: 'Search the docs',
      description:
        'Searches the docs site (guides, the API reference, the webhook events, the workflows, the changelog) and ' +
        'answers the best sections, each with its page, its address on the docs site and its markdown. Ask in words ' +
        '("idempotency key reuse", "card.frozen payload", "KYC identity mismatch", "rate limit headers").',
      inputSchema: {
        query: z.string().min(1).max(500).describe('What to look for.'),
        limit: z.number().int().min(1).max(20).optional().describe('At most this many sections (default 5).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, limit }) => {
      if (!docs) {
        return reply(
          "No docs to search: the package's dist/llms-full.txt is missing (in a clone: npm run build:lib, or npm run docs), " +
            'or start the MCP server with --docs <llms-full.txt>.',
          true,
        );
      }
      const hits = searchDocs(docs, query, limit ?? 5);
      if (hits.length === 0) return reply(`Nothing in the docs matches "${query}".`);
      const MAX = 6000;
      return reply(
        hits
          .map((hit) =>
            [
              `## ${hit.page} > ${hit.heading}`,
              `Page: ${hit.url}`,
              '',
              hit.text.length > MAX
                ? `${hit.text.slice(0, MAX)}\n[... ${hit.text.length - MAX} more characters: search again with more precise words]`
                : hit.text,
            ].join('\n'),
          )
          .join('\n\n---\n\n'),
      );
    },
  );
}

/** The tools, in the order they are listed. */
const TOOLS: ToolRegistration[] = [
  listOperationsTool,
  describeOperationTool,
  callPartnerApiTool,
  simulateTool,
  listEventsTool,
  searchDocsTool,
];
