// The importable collection of the docs site (scripts/docs/collection.ts): every operation of the contract
// once, in a folder per tag, addressed to the local sandbox (the gift card operations at /api/v1) with its
// seeded key, and nothing of the contract's production hosts.
import { describe, expect, it } from 'vitest';
import { postmanCollection } from '../../scripts/docs/collection.ts';
import { SAMPLE_API_KEY } from '../../scripts/docs/code-samples.ts';
import { exampleOperations } from '../../scripts/lib/openapi-examples.ts';
import { built } from '../contract/helpers.ts';

type Item = { name: string; item?: Item[]; request?: { method: string; url: { host: string[]; path: string[] } } };

describe('the Postman collection', async () => {
  const openapi = built().openapi as any;
  const collection = (await postmanCollection(openapi)) as { item: Item[]; variable: { key: string; value: string }[]; auth: unknown };
  const variables = Object.fromEntries(collection.variable.map((v) => [v.key, v.value]));
  const requests: { folder: string; method: string; path: string; base: string }[] = [];
  for (const folder of collection.item) {
    for (const item of folder.item ?? []) {
      const host = item.request!.url.host.join('');
      const base = variables[/^\{\{(.+)\}\}$/.exec(host)?.[1] ?? ''] ?? host;
      requests.push({ folder: folder.name, method: item.request!.method, path: `/${item.request!.url.path.join('/').replace(/:(\w+)/g, '{$1}')}`, base });
    }
  }

  it('has every operation of the contract once, in the folder of its tag, and no webhook', () => {
    const operations = exampleOperations(openapi);
    expect(requests).toHaveLength(operations.length);
    const tags = new Map<string, string>();
    for (const [pathKey, item] of Object.entries<any>(openapi.paths)) {
      for (const [method, op] of Object.entries<any>(item)) if (op?.operationId) tags.set(`${method.toUpperCase()} ${pathKey}`, op.tags[0]);
    }
    for (const request of requests) {
      const key = `${request.method} ${request.path}`;
      expect(tags.has(key), key).toBe(true);
      expect(request.folder, key).toBe(tags.get(key));
    }
    expect(new Set(requests.map((r) => `${r.method} ${r.path}`)).size).toBe(requests.length);
  });

  it('is addressed to the local sandbox, gift cards at /api/v1, with the bearer key of its examples', () => {
    for (const request of requests) {
      expect(request.base, `${request.method} ${request.path}`).toBe(request.path.startsWith('/gift-cards') ? 'http://127.0.0.1:4020/api/v1' : 'http://127.0.0.1:4020/v1');
    }
    expect(collection.auth).toEqual({ type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] });
    expect(variables.apiKey).toBe(SAMPLE_API_KEY);
    expect(JSON.stringify(collection)).not.toContain('api.partner-api.test');
  });
});
