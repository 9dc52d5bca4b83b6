// The messages of a refused request name the fix (src/sandbox/core/validation-messages.ts, path-hint.ts):
// a body with alternatives is checked against the alternative it chose, an unknown enum value gets
// "did you mean" and its whole list, a pattern says its rule in words, a path without its base path gets the
// right one. The bodies are the contract's request examples with one thing changed; the alternatives, the
// enum values and the patterns are read from the contract as the sandbox serves it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK_HTTP_URL, operationsOf, type JsonObject } from '../../src/sandbox/core/contract.ts';
import { contractModel } from '../../src/contract/model.ts';
import { PATTERN_WORDS } from '../../src/sandbox/core/validation-messages.ts';
import { DOCUMENT, SIMULATION_DOCUMENT, startTestSandbox, type TestSandbox } from './support.ts';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox?.close());

type Json = Record<string, any>;

const resolve = (doc: JsonObject, node: any): any => contractModel(doc).resolve(node).node;

/** The named request example of an operation of the contract. */
function requestExample(path: string, name: string): Json {
  const example = contractModel(DOCUMENT)
    .byPath('post', path)
    ?.requestBody?.json?.examples.find((e) => e.name === name);
  return structuredClone(example!.value) as Json;
}

/** The `const` of `property` in each alternative of a oneOf request schema. */
function discriminators(schema: string, property: string): string[] {
  const oneOf = (contractModel(DOCUMENT).schema(schema)!.node.oneOf as unknown[]).map((s) => resolve(DOCUMENT, s));
  return oneOf.map((s) => s.properties[property].const);
}

async function refused(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ message: string; fields: { field: string; message: string }[] }> {
  const r = await sandbox.request(method, path, body === undefined ? {} : { body: JSON.stringify(body) });
  expect(r.status).toBe(422);
  return { message: r.body.error.message, fields: r.body.error.details.fields };
}

describe('a body with alternatives is checked against the alternative it chose', () => {
  it('a virtual card with a string amount: only the amount, nothing of the physical card', async () => {
    const body = { ...requestExample('/cards', 'virtualVisa'), amount: '100' };
    const { message, fields } = await refused('POST', '/v1/cards', body);
    expect(fields).toEqual([{ field: 'amount', message: 'must be number (type)' }]);
    expect(message).toBe('The request is invalid: amount must be number (type).');
  });

  it('a physical card without its shipping address: that, and nothing of the virtual card', async () => {
    const { shipping_address: _, ...body } = requestExample('/cards', 'physicalMastercard');
    expect((await refused('POST', '/v1/cards', body)).fields).toEqual([{ field: 'shipping_address', message: 'is required (required)' }]);
  });

  it('a category no alternative has: one line listing the categories of the contract', async () => {
    const categories = discriminators('CreateCardRequest', 'category');
    const { fields } = await refused('POST', '/v1/cards', { ...requestExample('/cards', 'virtualVisa'), category: 'plastic' });
    expect(fields).toEqual([
      { field: 'category', message: `must be one of ${categories.map((c) => JSON.stringify(c)).join(', ')} (enum)` },
    ]);
  });

  it('a SEPA beneficiary and an ACH one: each gets its own rail’s problems only', async () => {
    expect(discriminators('CreateBeneficiaryRequest', 'rail')).toEqual(['sepa', 'ach']);
    const sepa = await refused('POST', '/v1/payouts/beneficiaries', {
      ...requestExample('/payouts/beneficiaries', 'sepa'),
      iban: 'fr76 3000 6000',
    });
    expect(sepa.fields.map((f) => f.field)).toEqual(['iban']);
    const ach = await refused('POST', '/v1/payouts/beneficiaries', {
      ...requestExample('/payouts/beneficiaries', 'ach'),
      routing_number: '0210',
    });
    expect(ach.fields.map((f) => f.field)).toEqual(['routing_number']);
  });
});

describe('an unknown enum value', () => {
  it('gets "did you mean", and the whole list in details (no value cut)', async () => {
    const names = contractModel(DOCUMENT).schema('WebhookEventNameChoice')!.node.enum as string[];
    const { message, fields } = await refused('POST', '/v1/webhooks', { ...requestExample('/webhooks', 'create'), events: ['card.froze'] });
    expect(message).toBe(
      `The request is invalid: events.0 "card.froze" is not one of its ${names.length + 1} allowed values; did you mean "card.frozen"? (enum).`,
    );
    expect(fields).toEqual([
      {
        field: 'events.0',
        message: `must be one of ${[...names, '*'].map((n) => JSON.stringify(n)).join(', ')}; did you mean "card.frozen"? (enum)`,
      },
    ]);
  });

  it('with nothing near it: the list, without a guess', async () => {
    const r = await sandbox.simulate('POST', '/cards/7c9e6679-7425-40de-944b-e07fc1f90ae7/issuance', { outcome: 'exploded' });
    expect(r.body.error.details.fields).toEqual([{ field: 'outcome', message: 'must be one of "activated", "failed" (enum)' }]);
  });
});

describe('a pattern failure says the rule in words', () => {
  it('a non-loopback http:// webhook url', async () => {
    const { fields } = await refused('POST', '/v1/webhooks', {
      ...requestExample('/webhooks', 'create'),
      url: 'http://hooks.acme-partner.test/partner-api',
    });
    expect(fields).toEqual([{ field: 'url', message: `${PATTERN_WORDS[LOOPBACK_HTTP_URL]} (pattern)` }]);
    expect(fields[0]!.message).not.toContain('^');
  });

  it('every pattern of a request (body or parameter) of both documents has its words', () => {
    const patterns = new Set<string>();
    const visit = (doc: JsonObject, node: any, seen = new Set<unknown>()): void => {
      node = resolve(doc, node);
      if (!node || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      if (typeof node.pattern === 'string') patterns.add(node.pattern);
      for (const value of Object.values(node)) visit(doc, value, seen);
    };
    for (const doc of [DOCUMENT, SIMULATION_DOCUMENT]) {
      for (const op of contractModel(doc).operations) visit(doc, [op.node.requestBody, op.node.parameters, op.item.node.parameters]);
    }
    expect(patterns.size).toBeGreaterThan(10);
    expect([...patterns].filter((p) => PATTERN_WORDS[p] === undefined)).toEqual([]);
  });
});

describe('a path without its base path', () => {
  const card = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  it.each([
    ['GET', '/balance', "The API's paths start with /v1 (the base URL ends in it): did you mean GET /v1/balance?"],
    [
      'POST',
      `/cards/${card}/freeze`,
      `The API's paths start with /v1 (the base URL ends in it): did you mean POST /v1/cards/${card}/freeze?`,
    ],
    [
      'GET',
      '/gift-cards/products',
      "The API's paths start with /api/v1 (the base URL ends in it): did you mean GET /api/v1/gift-cards/products?",
    ],
    ['GET', '/api/v1/cards', '/api/v1 serves only the gift card operations: did you mean GET /v1/cards?'],
  ])('%s %s: the 404 names the right path', async (method, path, hint) => {
    const r = await sandbox.request(method, path);
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe(`No operation at ${method} ${path}. ${hint}`);
  });

  it('a path of no operation at any base: no hint', async () => {
    const r = await sandbox.request('GET', '/v1/nothing-here');
    expect(r.body.error.message).toBe('No operation at GET /v1/nothing-here.');
    expect(operationsOf(DOCUMENT).some((o) => o.path === '/nothing-here')).toBe(false);
  });
});
