// The importable collection of the docs site (scripts/docs/collection.ts): every operation of the contract
// once, in a folder per tag, addressed to the local sandbox (the gift card operations at /api/v1) with its
// seeded key, and nothing of the contract's production hosts; the requests send the contract's examples, each
// write a fresh Idempotency-Key, in an order a collection runner can follow on the seeded account.
// tests/journeys/postman.test.ts runs it with Newman against the sandbox.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FRESH_IDEMPOTENCY_KEY, postmanCollection } from '../../scripts/docs/collection.ts';
import { SAMPLE_API_KEY } from '../../scripts/docs/code-samples.ts';
import { exampleOperations } from '../../scripts/lib/openapi-examples.ts';
import { built } from '../contract/helpers.ts';
import { contractModel } from '../../src/contract/model.ts';

type Pair = { key: string; value: string };
type Request = {
  method: string;
  url: { host: string[]; path: string[]; variable?: Pair[]; query?: Pair[] };
  header?: Pair[];
  body?: { raw?: string };
};
type Item = { name: string; item?: Item[]; request?: Request };

/** What a request sends, without the descriptions: its path variables, query, headers and body. */
const sent = (r: Request): string[] => [
  ...[...(r.url.variable ?? []), ...(r.url.query ?? []), ...(r.header ?? [])].map((p) => `${p.key}: ${p.value}`),
  r.body?.raw ?? '',
];

describe('the Postman collection', async () => {
  const openapi = built().openapi as any;
  const collection = (await postmanCollection(openapi)) as { item: Item[]; variable: { key: string; value: string }[]; auth: unknown };
  const variables = Object.fromEntries(collection.variable.map((v) => [v.key, v.value]));
  const requests: { folder: string; method: string; path: string; base: string; request: Request }[] = [];
  for (const folder of collection.item) {
    for (const item of folder.item ?? []) {
      const host = item.request!.url.host.join('');
      const base = variables[/^\{\{(.+)\}\}$/.exec(host)?.[1] ?? ''] ?? host;
      requests.push({
        folder: folder.name,
        method: item.request!.method,
        path: `/${item.request!.url.path.join('/').replace(/:(\w+)/g, '{$1}')}`,
        base,
        request: item.request!,
      });
    }
  }
  const label = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

  it('has every operation of the contract once, in the folder of its tag, no webhook and no empty folder', () => {
    const operations = exampleOperations(openapi);
    expect(requests).toHaveLength(operations.length);
    const tags = new Map(
      contractModel(openapi)
        .operations.filter((o) => o.operationId)
        .map((o) => [`${o.method.toUpperCase()} ${o.path}`, o.tag]),
    );
    for (const request of requests) {
      const key = label(request);
      expect(tags.has(key), key).toBe(true);
      expect(request.folder, key).toBe(tags.get(key));
    }
    expect(new Set(requests.map(label)).size).toBe(requests.length);
    expect(collection.item.filter((folder) => (folder.item ?? []).length === 0).map((folder) => folder.name)).toEqual([]);
  });

  it('is addressed to the local sandbox, gift cards at /api/v1, with the bearer key of its examples', () => {
    for (const request of requests) {
      expect(request.base, label(request)).toBe(
        request.path.startsWith('/gift-cards') ? 'http://127.0.0.1:4020/api/v1' : 'http://127.0.0.1:4020/v1',
      );
    }
    expect(Object.keys(variables).sort()).toEqual(['apiKey', 'baseUrl', 'giftCardBaseUrl']);
    expect(collection.auth).toEqual({ type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] });
    expect(variables.apiKey).toBe(SAMPLE_API_KEY);
    expect(JSON.stringify(collection)).not.toContain('api.partner-api.test');
  });

  it("sends the contract's examples, never a schema placeholder such as <uuid>", () => {
    const placeholders = requests.flatMap((r) =>
      sent(r.request)
        .filter((value) => /<(uuid|string|number|integer|boolean|date-time|date|email|uri)>/.test(value))
        .map((value) => `${label(r)}: ${value}`),
    );
    expect(placeholders).toEqual([]);
    const card = requests.find((r) => label(r) === 'GET /cards/{code}')!;
    expect(card.request.url.variable?.[0]?.value).toBe(contractModel(openapi).component('parameters', 'CardCode')?.node['example']);
  });

  it('gives every write a new Idempotency-Key at each send ({{$guid}}, a UUID v4 the contract accepts), never one literal key', () => {
    const keys = requests
      .filter((r) => r.method === 'POST')
      .map((r) => ({ request: label(r), key: r.request.header?.find((h) => h.key.toLowerCase() === 'idempotency-key')?.value }));
    expect(keys.filter((k) => k.key === undefined)).toEqual([]);
    expect(keys.filter((k) => k.key !== FRESH_IDEMPOTENCY_KEY)).toEqual([]);
    // Postman's {{$guid}} is a random UUID v4: the form the contract's pattern has to accept.
    const schema = contractModel(openapi).component('parameters', 'IdempotencyKey')?.node['schema'] as {
      pattern: string;
      maxLength: number;
    };
    expect(randomUUID()).toMatch(new RegExp(schema.pattern));
    expect(randomUUID().length).toBeLessThanOrEqual(schema.maxLength);
  });

  it('runs top to bottom on the seeded account: a suspended record is restored next, an ended record is named no more', () => {
    const order = requests.map((r) => ({
      ...r,
      values: new Set(sent(r.request).flatMap((s) => [s.replace(/^[^:]+: /, ''), ...(s.match(/[\w-]{8,}/g) ?? [])])),
    }));
    const restorer: Record<string, string> = { deactivate: 'activate', freeze: 'unfreeze', disable: 'enable' };
    order.forEach((r, i) => {
      const verb = r.path.split('/').at(-1)!;
      const record = r.request.url.variable?.at(-1)?.value;
      if (record === undefined) return;
      const later = order.slice(i + 1).filter((o) => o.values.has(record));
      if (r.method === 'DELETE' || verb === 'terminate') expect(later.map(label), `after ${label(r)}`).toEqual([]);
      if (restorer[verb]) expect(later[0] && label(later[0]), `after ${label(r)}`).toBe(`POST ${r.path.replace(/[^/]+$/, restorer[verb])}`);
    });
  });
});
