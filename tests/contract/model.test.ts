// The contract model (src/contract/model.ts) against both bundles: every part it hands out is at the pointer it
// claims, the error codes of a response are those its schema's `error.code` consts give, the base address is the
// one `servers` gives (the gift card operations' own), and a request's path finds its template, literal first.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractModel, type ContractModel, type Located } from '../../src/contract/model.ts';
import { GIFT_CARD_SERVER, BASE_SERVER } from '../../src/contract/servers.ts';
import { get, isObject, type Json, type JsonObject } from '../../src/contract/json.ts';
import { ROOT } from '../../scripts/lib/paths.ts';

const read = (name: string) => JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', `${name}.json`), 'utf8')) as JsonObject;
const BUNDLES = { openapi: read('openapi'), sandbox: read('sandbox') };

/** A located node is the node found at its pointer (the same object, not a copy). */
const expectAt = (doc: JsonObject, located: Located<Json | undefined> | undefined, label: string) => {
  expect(located, label).toBeDefined();
  expect(get(doc, located!.pointer), `${label} at ${located!.pointer}`).toBe(located!.node);
};

/** The `error.code` consts a schema carries, found through every `$ref`, `oneOf`, `anyOf` and `allOf` of it. */
function codeConsts(model: ContractModel, node: Json | undefined, seen = new Set<Json>()): string[] {
  const schema = model.resolve(node).node;
  if (!isObject(schema) || seen.has(schema)) return [];
  seen.add(schema);
  const code = get(schema, '/properties/error/properties/code/const');
  const branches = ['oneOf', 'anyOf', 'allOf'].flatMap((k) => (Array.isArray(schema[k]) ? schema[k] : []));
  return [...(typeof code === 'string' ? [code] : []), ...branches.flatMap((b) => codeConsts(model, b, seen))];
}

describe.each(Object.entries(BUNDLES))('the model of generated/%s.json', (_name, doc) => {
  const model = contractModel(doc);

  it('has each operation of paths once, at its pointer, under its method and path template', () => {
    expect(model.operations.length).toBeGreaterThan(0);
    const expected = Object.entries(doc['paths'] as JsonObject).flatMap(([p, item]) =>
      Object.keys(item as JsonObject)
        .filter((k) => ['get', 'put', 'post', 'delete', 'patch'].includes(k))
        .map((m) => `${m} ${p}`),
    );
    expect(model.operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(expected.sort());
    for (const op of model.operations) {
      expect(get(doc, op.pointer), op.pointer).toBe(op.node);
      expect(op.pointer).toBe(`/paths/${op.path.replaceAll('~', '~0').replaceAll('/', '~1')}/${op.method}`);
      expectAt(doc, op.item, `${op.operationId} item`);
      expect(model.operation(op.operationId)).toBe(op);
      expect(model.byPath(op.method.toUpperCase(), op.path)).toBe(op);
    }
  });

  it("gives each operation's parameters resolved, at their pointers, the operation's over the path item's", () => {
    for (const op of model.operations) {
      const keys = op.parameters.map((p) => `${p.in}:${p.name}`);
      expect(new Set(keys).size, op.operationId).toBe(keys.length);
      for (const p of op.parameters) {
        expectAt(doc, p, `${op.operationId} ${p.name}`);
        expect(p.node['name']).toBe(p.name);
        if (p.schema) expectAt(doc, p.schema, `${op.operationId} ${p.name} schema`);
        for (const ex of p.examples) expect(ex.value).toEqual(get(get(doc, ex.pointer), '/value') ?? get(doc, ex.pointer));
      }
      // Each `{name}` of the template is a path parameter, required (OpenAPI 3.1).
      for (const [, name] of op.path.matchAll(/\{([^}]+)\}/g))
        expect(op.parameter('path', name!)?.required, `${op.path} ${name}`).toBe(true);
    }
  });

  it("gives the request body and each response at its pointer, with its schema's and examples' pointers", () => {
    for (const op of model.operations) {
      const body = op.requestBody;
      if (body) {
        expectAt(doc, body, `${op.operationId} body`);
        expect(body.required).toBe(body.node['required'] === true);
        if (body.json?.schema) expectAt(doc, body.json.schema, `${op.operationId} body schema`);
        for (const ex of body.json?.examples ?? []) expect(get(get(doc, ex.pointer), '/value') ?? get(doc, ex.pointer)).toEqual(ex.value);
      } else expect(op.node['requestBody']).toBeUndefined();
      expect(op.responses.map((r) => r.status)).toEqual(op.statuses);
      for (const r of op.responses) {
        expectAt(doc, r, `${op.operationId} ${r.status}`);
        if (r.json?.schema) expectAt(doc, r.json.schema, `${op.operationId} ${r.status} schema`);
        for (const h of r.headers) expectAt(doc, h, `${op.operationId} ${r.status} ${h.name}`);
      }
    }
  });

  it("gives each response the error codes its schema's error.code consts name, and each example's code is one", () => {
    for (const op of model.operations) {
      for (const r of op.responses) {
        expect(new Set(r.errorCodes), `${op.operationId} ${r.status}`).toEqual(new Set(codeConsts(model, r.json?.schema?.node)));
        if (!/^[45]/.test(r.status)) continue;
        for (const ex of r.json?.examples ?? [])
          expect(r.errorCodes, `${op.operationId} ${r.status} ${ex.name}`).toContain(get(ex.value, '/error/code'));
      }
    }
  });

  it('gives each shared response of components.responses by name, resolved, at its pointer, with its error codes', () => {
    const names = Object.keys((get(doc, '/components/responses') ?? {}) as JsonObject);
    expect(model.sharedResponses.map((r) => r.name)).toEqual(names);
    for (const r of model.sharedResponses) {
      expectAt(doc, r, r.name);
      expect(new Set(r.errorCodes), r.name).toEqual(new Set(codeConsts(model, r.json?.schema?.node)));
    }
    // Each operation's response that names a shared one is that shared response.
    const byPointer = new Map(model.sharedResponses.map((r) => [r.pointer, r]));
    for (const op of model.operations)
      for (const r of op.responses) if (byPointer.has(r.pointer)) expect(r.errorCodes).toEqual(byPointer.get(r.pointer)!.errorCodes);
  });

  it('matches a path to its template, a literal segment before a parameter', () => {
    for (const t of model.templates) {
      const concrete = t.template.replace(/\{[^}]+\}/g, 'x1');
      // A literal template is its own match; a concrete path of a parameter one matches it or a more literal one.
      if (!t.template.includes('{')) expect(model.match(t.template)).toBe(t);
      const found = model.match(concrete);
      expect(found?.re.test(concrete), t.template).toBe(true);
      expect(found!.template.split('{').length).toBeLessThanOrEqual(t.template.split('{').length);
      expect(model.match(`${concrete}/`)).toBe(found);
      expect(t.methods).toEqual(t.operations.map((o) => o.method.toUpperCase()));
    }
    expect(model.match('/no-such-path/at-all')).toBeUndefined();
  });
});

describe('the model of the partner API (generated/openapi.json)', () => {
  const model = contractModel(BUNDLES.openapi);

  it('serves the gift card operations at {alt_base_url} (their own servers), every other one at {base_url}', () => {
    const giftCards = model.operations.filter((o) => GIFT_CARD_SERVER.pathPrefixes.some((p) => o.path.startsWith(p)));
    expect(giftCards.length).toBeGreaterThan(0);
    for (const op of model.operations) {
      const server = op.server!;
      expectAt(BUNDLES.openapi, { pointer: server.pointer, node: get(BUNDLES.openapi, server.pointer) }, op.operationId);
      expect(get(BUNDLES.openapi, `${server.pointer}/url`)).toBe(server.url);
      const expected = giftCards.includes(op) ? GIFT_CARD_SERVER : BASE_SERVER;
      expect([server.variable, server.basePath], op.operationId).toEqual([expected.variable, expected.path]);
      if (giftCards.includes(op)) expect(server.pointer.startsWith(op.item.pointer)).toBe(true);
      else expect(server.pointer).toBe('/servers/0');
    }
  });

  it('tells a literal template from a parameter one: /payouts/beneficiaries is not /payouts/{code}', () => {
    const literal = model.templates.find((t) => t.template === '/payouts/beneficiaries');
    expect(literal).toBeDefined();
    expect(model.match('/payouts/beneficiaries')).toBe(literal);
    expect(model.match('/cards/123')?.template).toBe('/cards/{code}');
  });

  it('gives each status of an error code once, as the responses document it', () => {
    const statuses = model.errorStatuses;
    for (const op of model.operations)
      for (const r of op.responses.filter((x) => /^[45][0-9]{2}$/.test(x.status)))
        for (const code of r.errorCodes) expect(statuses.get(code), code).toBe(Number(r.status));
  });

  it("reads the operations' extensions and the document's: x-events, x-ping, x-refusals, x-plans", () => {
    for (const op of model.operations) {
      expect(Object.keys(op.extensions).every((k) => k.startsWith('x-'))).toBe(true);
      expect(op.events).toEqual((op.node['x-events'] as string[] | undefined) ?? []);
      expect(op.provisional).toBe(op.node['x-provisional'] === true);
    }
    expect(model.operations.some((o) => o.events.length > 0)).toBe(true);
    const ping = model.ping;
    expect(get(BUNDLES.openapi, ping.pointer)).toBe(ping.schema);
    expect(model.operation('createWebhookEndpoint')?.extension('x-ping')).toBe(`#${ping.pointer}`);
    const branches = (ping.schema['allOf'] as Json[]).map((b) => model.resolve(b).node);
    expect(branches.map((b) => get(b, '/properties/type/const'))).toContain(ping.type);
    expect(model.refusals.order.length).toBeGreaterThan(0);
    expect(model.extensions['x-plans']).toBe(BUNDLES.openapi['x-plans']);
  });

  it('gives each webhook its example event, of its own type', () => {
    expect(model.webhooks.length).toBeGreaterThan(0);
    for (const webhook of model.webhooks) {
      expect(get(BUNDLES.openapi, webhook.pointer)).toBe(webhook.node);
      expect(model.operation(webhook.operationId)).toBe(webhook);
    }
    for (const { type, event } of model.exampleEvents) expect(get(event, '/type'), type).toBe(type);
  });
});

describe('the model of the simulation API (generated/sandbox.json)', () => {
  it('serves every operation at {sandbox_url}, whose path is /sandbox', () => {
    const model = contractModel(BUNDLES.sandbox);
    for (const op of model.operations) expect(op.server?.basePath, op.operationId).toBe('/sandbox');
  });
});
