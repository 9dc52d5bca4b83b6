// The MCP server (src/mcp/) driven by the SDK's own client over an in-memory transport, against a sandbox it
// started in-process, as an assistant drives it: the tools it lists, then a whole flow (a webhook endpoint on a
// loopback receiver that verifies every delivery, a customer, KYC approved and a card issued through the
// simulation API, the card frozen) ending with the `card.frozen` delivery found through list_events; a request
// that breaks the contract refused before it is sent; every operation described; the docs searched. The stdio bin
// itself: tests/mcp/bin.test.ts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageDocs } from '../../scripts/package/llms.ts';
import { Catalogue } from '../../src/mcp/catalogue.ts';
import { parseSections, type Docs } from '../../src/mcp/docs.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import { startTarget, type Target } from '../../src/mcp/target.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing/index.ts';

const KEY = 'sk_test_mcp_flow';
let target: Target;
let client: Client;
let receiver: WebhookReceiver;
const catalogue = new Catalogue();
let docs: Docs;

interface Answer {
  request: string;
  status: number;
  headers: Record<string, string>;
  body: { success: boolean; data?: any; error?: { code: string; message: string; details?: any } };
}

/** Calls a tool; its text, and whether it is an error. */
async function tool(name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  return { text: content.map((c) => c.text).join('\n'), isError: result.isError === true };
}

/** Calls an operation through call_partner_api or simulate and expects a 2xx answer. */
async function ok(name: 'call_partner_api' | 'simulate', args: Record<string, unknown>): Promise<Answer> {
  const { text, isError } = await tool(name, args);
  expect(isError, text).toBe(false);
  const answer = JSON.parse(text) as Answer;
  expect(answer.status, text).toBe(200);
  return answer;
}

beforeAll(async () => {
  docs = { source: 'packageDocs()', sections: parseSections(packageDocs()) };
  target = await startTarget({ version: false, apiKey: KEY, target: { kind: 'in-process', port: 0, manual: true, rateLimit: true } });
  receiver = await startWebhookReceiver();
  const server = createMcpServer({ target, catalogue, docs });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await receiver?.close();
  await target?.close();
});

describe('the MCP server over the sandbox', () => {
  it('lists its tools, each described, and says where its calls go', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'call_partner_api',
      'describe_operation',
      'list_events',
      'list_operations',
      'search_docs',
      'simulate',
    ]);
    for (const t of tools) expect(t.description!.length, t.name).toBeGreaterThan(150);
    const call = tools.find((t) => t.name === 'call_partner_api')!;
    // Typed from the contract: the operationIds are the partner API's.
    const ids = (call.inputSchema.properties as Record<string, { enum?: string[] }>).operation_id!.enum!;
    expect(ids).toEqual(catalogue.ids('partner'));
    expect(ids).toContain('freezeCard');
    expect(client.getInstructions()).toContain(target.baseUrl);
    const listing = await tool('list_operations', { tag: 'Cards' });
    expect(listing.text).toContain(`with the key ${KEY}`);
    expect(listing.text).toMatch(/freezeCard\s+POST\s+\/cards\/\{code\}\/freeze/);
    expect(listing.text).not.toContain('createCustomer');
    expect((await tool('list_operations', { tag: 'card simulations' })).text).toMatch(
      /simulateCardIssuance\s+POST\s+\/cards\/\{code\}\/issuance/,
    );
  });

  it('takes a card from a new customer to frozen, and finds the card.frozen delivery', async () => {
    const endpoint = await ok('call_partner_api', {
      operation_id: 'createWebhookEndpoint',
      body: { url: receiver.url, events: ['*'], description: 'MCP flow' },
    });
    receiver.secret = endpoint.body.data.secret;
    expect(endpoint.headers['idempotency-key (sent)']).toMatch(/^[0-9a-f-]{36}$/);

    const customer = await ok('call_partner_api', {
      operation_id: 'createCustomer',
      body: { external_reference: 'mcp-flow', first_name: 'Amina', last_name: 'Diallo', date_of_birth: '1990-04-17' },
    });
    const customerCode = customer.body.data.customer_code as string;
    await ok('call_partner_api', { operation_id: 'createKycLink', path_params: { customerCode } });
    const kyc = await ok('simulate', { operation_id: 'simulateKycOutcome', path_params: { customerCode }, body: { outcome: 'approved' } });
    expect(kyc.body.data.verification_level).toBe('verified');

    const card = await ok('call_partner_api', {
      operation_id: 'createCard',
      body: { customer_code: customerCode, brand: 'VISA', category: 'virtual', amount: 100 },
    });
    const code = card.body.data.code as string;
    expect(card.body.data.status).toBe('pending');
    const issued = await ok('simulate', { operation_id: 'simulateCardIssuance', path_params: { code }, body: { outcome: 'activated' } });
    expect(issued.body.data.status).toBe('active');

    const frozen = await ok('call_partner_api', { operation_id: 'freezeCard', path_params: { code } });
    expect(frozen.body.data.status).toBe('frozen');
    await receiver.waitForEvent('card.frozen', { card_code: code });

    // The delivery is recorded once the receiver's answer is: ask until it shows (a few times: each ask is three
    // requests of the account's 100 a minute).
    let found:
      | {
          events: {
            id: string;
            type: string;
            data: { card_code: string };
            deliveries: { status: string; response_code: number | null; endpoint_code: string }[];
          }[];
        }
      | undefined;
    for (let i = 0; i < 10; i++) {
      const listed = await tool('list_events', { type: 'card.frozen', data: { card_code: code } });
      expect(listed.isError, listed.text).toBe(false);
      found = JSON.parse(listed.text);
      if (found!.events[0]?.deliveries.some((d) => d.status === 'delivered')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(found!.events).toHaveLength(1);
    const [event] = found!.events;
    expect(event!.type).toBe('card.frozen');
    expect(event!.data.card_code).toBe(code);
    expect(event!.deliveries).toEqual([
      expect.objectContaining({ status: 'delivered', response_code: 204, endpoint_code: endpoint.body.data.code }),
    ]);
    // The same event arrived at the receiver, verified.
    expect(receiver.list('card.frozen').map((e) => e.id)).toEqual([event!.id]);
    expect(receiver.rejected).toEqual([]);

    // Another card's events are not this one's; a type with no event answers none.
    expect(JSON.parse((await tool('list_events', { type: 'card.frozen', data: { card_code: customerCode } })).text).events).toEqual([]);
    const approved = JSON.parse((await tool('list_events', { type: 'kyc.approved' })).text);
    expect(approved.events.map((e: { data: { customer_code: string } }) => e.data.customer_code)).toEqual([customerCode]);

    // A state refusal comes back as the API answered it, marked as an error.
    const again = await tool('call_partner_api', { operation_id: 'withdrawFromCard', path_params: { code }, body: { amount: 20 } });
    expect(again.isError).toBe(true);
    const refused = JSON.parse(again.text) as Answer;
    expect([refused.status, refused.body.error?.code, refused.body.error?.details?.reason]).toEqual([
      422,
      'VALIDATION_ERROR',
      'card_not_active',
    ]);
  }, 60_000);

  it('refuses a request that breaks the contract before sending it, naming each field', async () => {
    const { text, isError } = await tool('call_partner_api', {
      operation_id: 'createCard',
      body: { customer_code: 'not-a-uuid', brand: 'VISA', category: 'virtual', amount: '100', colour: 'red' },
    });
    expect(isError).toBe(true);
    expect(text).toMatch(/^Not sent: the request breaks the contract of createCard/);
    expect(text).toContain('body: customer_code');
    expect(text).toContain('body: amount must be number (type)');
    expect(text).toContain('body: colour is not a field of this request (additionalProperties)');
    const missing = await tool('call_partner_api', { operation_id: 'freezeCard' });
    expect(missing.text).toContain('path_params: code is required (required)');
    const noBody = await tool('call_partner_api', {
      operation_id: 'withdrawFromCard',
      path_params: { code: '7c9e6679-7425-40de-944b-e07fc1f90ae7' },
    });
    expect(noBody.text).toContain('body: is required (required)');
    const unknown = await tool('call_partner_api', { operation_id: 'freezeTheCard' });
    expect(unknown.isError).toBe(true);
  });

  it('arms a fault through simulate, and the next call answers it', async () => {
    await ok('simulate', { operation_id: 'armFault', body: { operation_id: 'listCards', status: 500 } });
    const failed = await tool('call_partner_api', { operation_id: 'listCards' });
    expect(failed.isError).toBe(true);
    expect(JSON.parse(failed.text).body.error.code).toBe('INTERNAL_ERROR');
    await ok('call_partner_api', { operation_id: 'listCards', query: { limit: 5 } });
    const clock = await ok('simulate', { operation_id: 'getClock' });
    expect(clock.body.data.frozen).toBe(false);
  });

  it('describes every operation: its section of the reference, and the JSON Schemas of its input', async () => {
    for (const op of catalogue.operations) {
      const { text, isError } = await tool('describe_operation', { operation_id: op.operationId });
      expect(isError, op.operationId).toBe(false);
      expect(text.startsWith(`# ${op.operationId}: ${op.method} ${op.path}`), op.operationId).toBe(true);
      // The section of its API's reference page that llms-full.txt holds, with the operation's errors.
      expect(text, op.operationId).toContain(`### ${op.summary}`);
      expect(text, op.operationId).toContain('**Errors**');
      if (op.bodyRequired) expect(text, op.operationId).toMatch(/^body:$/m);
    }
    const withdraw = (await tool('describe_operation', { operation_id: 'withdrawFromCard' })).text;
    expect(withdraw).toContain('`card_balance_too_low`');
    expect(withdraw).toContain('"minimum": 5');
    expect(withdraw).not.toContain('x-provisional-note');
    // A simulation from the simulation API's page: its request body's fields and its examples.
    const advance = (await tool('describe_operation', { operation_id: 'advanceClock' })).text;
    expect(advance).toContain('`POST {sandbox_url}/clock/advance`, operationId `advanceClock`.');
    expect(advance).toContain('**Examples**');
  });

  it('searches the docs by section', async () => {
    const { text } = await tool('search_docs', { query: 'idempotency key reused', limit: 3 });
    expect(text.split('\n---\n')).toHaveLength(3);
    expect(text).toMatch(/^## .+ > .+\nPage: \/[\w/-]*\//);
    expect(text.toLowerCase()).toContain('idempotency_key_reused');
    const event = (await tool('search_docs', { query: 'card.frozen payload', limit: 1 })).text;
    expect(event).toContain('Page: /events/card-events/');
    const none = await tool('search_docs', { query: 'zzzqqq' });
    expect(none.text).toContain('Nothing in the docs matches');
  });
});
