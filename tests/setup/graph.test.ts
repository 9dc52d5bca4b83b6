// The set-up graph (src/setup): it agrees with the contract (every operation it uses exists, every reference
// field of a create request is a declared dependency, the codes are where it reads them), its order holds,
// the quickstart guide follows it, and the runner brings resources about in that order, naming what fails.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETUP_GRAPH, type ResourceKey, type SetupGraph } from '../../src/setup/graph.ts';
import {
  baseOf,
  dependencies,
  dependencyOrder,
  Setup,
  SetupError,
  type Answer,
  type Body,
  type SetupDriver,
} from '../../src/setup/setup.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import { isObject, type JsonObject } from '../../scripts/lib/pointer.ts';
import { contractModel } from '../../src/contract/model.ts';
import { matchPathTemplate } from '../../scripts/conformance/validate-response.ts';

const openapi = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', 'openapi.json'), 'utf8')) as JsonObject;
const simulation = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', 'sandbox.json'), 'utf8')) as JsonObject;
const { resources, references } = SETUP_GRAPH;
const keys = Object.keys(resources) as ResourceKey[];

const operation = (doc: JsonObject, method: string, template: string) => contractModel(doc).byPath(method, template);

/** The first request example of an operation. */
const requestExample = (method: string, template: string) =>
  operation(openapi, method, template)?.requestBody?.json?.examples[0]?.value as JsonObject | undefined;

/** The `data` of an operation's first 200 example. */
const answerData = (method: string, template: string) => {
  const value = operation(openapi, method, template)?.response(200)?.json?.examples[0]?.value;
  return isObject(value) ? value.data : undefined;
};

/** The reference fields (keys of the graph's `references`) anywhere in a body. */
function referenceFields(body: unknown): string[] {
  if (Array.isArray(body)) return body.flatMap(referenceFields);
  if (!isObject(body)) return [];
  return Object.entries(body).flatMap(([field, value]) =>
    typeof value === 'string' && references[field] ? [field] : referenceFields(value),
  );
}

const params = (template: string) => [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

describe('the set-up graph and the contract', () => {
  it('uses only operations of the contract, and outcomes of the simulation API', () => {
    const missing: string[] = [];
    for (const key of keys) {
      const node = resources[key];
      if (node.create && !operation(openapi, node.create.method, node.create.path))
        missing.push(`${key}: ${node.create.method} ${node.create.path}`);
      if (node.read && !operation(openapi, 'GET', node.read)) missing.push(`${key}: GET ${node.read}`);
      if (node.list && !operation(openapi, 'GET', node.list.path)) missing.push(`${key}: GET ${node.list.path}`);
      for (const step of node.steps ?? []) {
        if ('call' in step && !operation(openapi, step.call.method, step.call.path))
          missing.push(`${key}: ${step.call.method} ${step.call.path}`);
        if ('outcome' in step && !operation(simulation, 'POST', step.outcome.path))
          missing.push(`${key}: simulation POST ${step.outcome.path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('declares as a dependency every resource a create request names, of the kind the field names', () => {
    for (const key of keys) {
      const node = resources[key];
      if (!node.create) continue;
      const named = [...referenceFields(requestExample(node.create.method, node.create.path)), ...params(node.create.path)].sort();
      expect(Object.keys(node.refs ?? {}).sort(), `${key}: ${node.create.path}`).toEqual(named);
      for (const [field, ref] of Object.entries(node.refs ?? {})) {
        // `customer_code` may name a customer in a later state (a virtual account needs one at level full).
        if (references[field]) expect(baseOf(SETUP_GRAPH, ref), `${key}.refs.${field}`).toBe(references[field]);
      }
    }
  });

  it('reads each new code where the create answer holds it, and each listed code where a list item holds it', () => {
    for (const key of keys) {
      const node = resources[key];
      if (node.create) {
        const data = answerData(node.create.method, node.create.path);
        expect(
          isObject(data) && node.create.id.some((f) => typeof data[f] === 'string'),
          `${key}: ${node.create.id.join('/')} in the 200 example of ${node.create.path}`,
        ).toBe(true);
      }
      if (node.list) {
        const items = answerData('GET', node.list.path);
        expect(
          Array.isArray(items) && isObject(items[0]) && node.list.id.some((f) => typeof (items[0] as JsonObject)[f] === 'string'),
          `${key}: ${node.list.path}`,
        ).toBe(true);
      }
    }
  });

  it('orders every resource after what it needs, and refuses a graph with a cycle, naming it', () => {
    const order = dependencyOrder(SETUP_GRAPH, keys);
    expect(new Set(order)).toEqual(new Set(keys));
    for (const key of keys)
      for (const dep of dependencies(SETUP_GRAPH, key)) expect(order.indexOf(dep), `${dep} before ${key}`).toBeLessThan(order.indexOf(key));
    expect(order.indexOf('webhookEndpoint')).toBeLessThan(order.indexOf('customer'));
    const cyclic: SetupGraph = structuredClone(SETUP_GRAPH);
    cyclic.resources.webhookEndpoint.after = ['card'];
    expect(() => dependencyOrder(cyclic, ['card'])).toThrow('set-up graph: a cycle card -> customer -> webhookEndpoint -> card');
  });

  it('is the order the quickstart guide follows: each resource made after what it needs', () => {
    // The guide's calls that make a resource or move it to a state, in the order it makes them.
    const guide = fs.readFileSync(path.join(ROOT, 'docs', 'quickstart.md'), 'utf8');
    const calls = [...guide.matchAll(/-X POST "\$SANDBOX\/(v1|sandbox)(\/[^"?]+)"/g)].map((m) => ({
      api: m[1]!,
      path: m[2]!.replace(/\$\(?[A-Za-z_][^/]*/g, 'x'),
    }));
    const made: ResourceKey[] = [];
    for (const call of calls) {
      const doc = call.api === 'v1' ? openapi : simulation;
      const template = matchPathTemplate(doc, 'POST', call.path);
      const key = keys.find((k) => {
        const node = resources[k];
        return (
          node.create?.path === template ||
          (node.steps ?? []).some((s) => ('call' in s ? s.call.path : s.outcome.path) === template && 'call' in s === (call.api === 'v1'))
        );
      });
      if (key && !made.includes(key)) made.push(key);
    }
    expect(made).toEqual(expect.arrayContaining(['webhookEndpoint', 'customer', 'verifiedCustomer', 'fullCustomer', 'card', 'cardTopup']));
    for (const key of made)
      for (const dep of dependencies(SETUP_GRAPH, key))
        if (made.includes(dep)) expect(made.indexOf(dep), `${dep} before ${key}`).toBeLessThan(made.indexOf(key));
  });
});

/** An in-memory server for the runner: records every request; POSTs make records, GETs read them. */
function fakeServer(options: { simulate?: boolean; refuse?: string; endpoints?: string[]; stuck?: boolean } = {}) {
  const log: string[] = [];
  const records = new Map<string, Body>();
  const lists = new Map<string, string[]>([['/webhooks', options.endpoints ?? []]]);
  let next = 0;
  const answer = (status: number, data?: unknown): Answer =>
    status < 300
      ? { status, body: { success: true, data } }
      : { status, body: { success: false, error: { code: 'VALIDATION_ERROR', message: 'refused' } } };
  const driver: SetupDriver = {
    async call(method, p, body) {
      log.push(`${method} ${p}${body && Object.keys(body).length ? ` ${JSON.stringify(body)}` : ''}`);
      if (method === 'GET') {
        const list = lists.get(p);
        if (list)
          return answer(
            200,
            list.map((code) => ({ code, is_active: true })),
          );
        return answer(200, records.get(p.split('/').at(-1)!));
      }
      const template = matchPathTemplate(openapi, method, p);
      if (template === options.refuse) return answer(422);
      const created = keys.find((k) => resources[k].create?.path === template);
      if (!created) return answer(200, {});
      const code = `${created}-${++next}`;
      const record: Body = {
        [resources[created].create!.id[0]!]: code,
        status: created === 'card' ? 'pending' : 'active',
        verification_level: 'basic',
      };
      records.set(code, record);
      return answer(200, record);
    },
    requestExample: (method, p) => structuredClone(requestExample(method, p)) as Body | undefined,
    async settle() {
      log.push('settle');
      if (!options.stuck) for (const record of records.values()) if (record.status === 'pending') record.status = 'active';
    },
  };
  if (options.simulate !== false) {
    driver.simulate = async (method, p, body) => {
      log.push(`simulate ${method} ${p} ${JSON.stringify(body)}`);
      const record = records.get(p.split('/')[2]!)!;
      if (p.startsWith('/kyc/') && body?.outcome === 'approved') record.verification_level = 'verified';
      if (p.startsWith('/kyc/') && body?.outcome === 'approved_identity_mismatch')
        Object.assign(record, { verification_level: 'verified', status: 'restricted' });
      if (p.startsWith('/poa/')) record.verification_level = 'full';
      return answer(200, {});
    };
  }
  return { driver, log };
}

describe('the set-up runner', () => {
  it('brings a resource about after what it needs, each once, references filled and readiness waited for', async () => {
    const { driver, log } = fakeServer();
    const setup = new Setup(SETUP_GRAPH, driver);
    const topup = await setup.ensure('cardTopup');
    expect(topup).toBe('cardTopup-4');
    expect(log.map((l) => l.replace(/ \{.*$/, ''))).toEqual([
      'GET /webhooks', // a precondition: any existing endpoint would do; none, so one is made
      'POST /webhooks',
      'POST /customers',
      'POST /cards',
      'GET /cards/card-3',
      'settle',
      'GET /cards/card-3',
      'POST /cards/card-3/topup',
      'GET /cards/card-3/topups/cardTopup-4',
    ]);
    expect(log[3]).toContain('"customer_code":"customer-2"');
    await setup.ensure('card');
    expect(log).toHaveLength(9);
  });

  it('uses an existing webhook endpoint for the precondition, and makes later states fresh or on a given record', async () => {
    const { driver, log } = fakeServer({ endpoints: ['existing'] });
    const setup = new Setup(SETUP_GRAPH, driver);
    const customer = await setup.fresh('verifiedCustomer');
    expect(setup.codes.get('webhookEndpoint')).toBe('existing');
    expect(setup.codes.has('customer')).toBe(false);
    expect(log.map((l) => l.replace(/ \{.*$/, ''))).toEqual([
      'GET /webhooks',
      'POST /customers',
      `POST /kyc/${customer}/link`,
      `simulate POST /kyc/${customer}/outcome`,
      `GET /customers/${customer}`,
    ]);
    log.length = 0;
    await setup.bring('fullCustomer', customer);
    expect(log.map((l) => l.replace(/ \{.*$/, ''))).toEqual([
      `POST /kyc/${customer}/link`,
      `simulate POST /kyc/${customer}/outcome`,
      `GET /customers/${customer}`,
      `POST /poa/${customer}/document`,
      `simulate POST /poa/${customer}/outcome`,
      `GET /customers/${customer}`,
    ]);
  });

  it('names the step and the answer when a resource cannot be brought about, and keeps the request refused', async () => {
    const { driver } = fakeServer({ refuse: '/customers' });
    const error = await new Setup(SETUP_GRAPH, driver).ensure('card').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupError);
    expect((error as SetupError).message).toBe('creating a card needs a customer: POST /customers answered 422 VALIDATION_ERROR: refused');
    expect((error as SetupError).call).toMatchObject({
      api: 'partner',
      method: 'POST',
      path: '/customers',
      status: 422,
      body: { first_name: 'Amina' },
    });
  });

  it('makes its own precondition instead of taking an existing record, when the driver reuses none', async () => {
    const { driver, log } = fakeServer({ endpoints: ['existing'] });
    const setup = new Setup(SETUP_GRAPH, { ...driver, reuseExisting: false });
    await setup.ensure('customer');
    expect(setup.codes.get('webhookEndpoint')).toBe('webhookEndpoint-1');
    expect(log.map((l) => l.replace(/ \{.*$/, ''))).toEqual(['POST /webhooks', 'POST /customers']);
  });

  it('refuses a record that never becomes usable when the driver requires it, and uses it as it is otherwise', async () => {
    const stuck = fakeServer({ stuck: true });
    await expect(new Setup(SETUP_GRAPH, { ...stuck.driver, requireReady: true }).ensure('card')).rejects.toThrow(
      /^POST \/cards made card card-3, still status pending after 15 s$/,
    );
    const lines: string[] = [];
    const lenient = fakeServer({ stuck: true });
    expect(await new Setup(SETUP_GRAPH, { ...lenient.driver, log: (line) => lines.push(line) }).ensure('card')).toBe('card-3');
    expect(lines).toEqual(['set-up: card card-3 is still pending after 15 s']);
  });

  it('does not wait for an outcome only the provider chooses when there is no simulation API', async () => {
    const { driver } = fakeServer({ simulate: false, endpoints: ['existing'] });
    await expect(new Setup(SETUP_GRAPH, driver).fresh('restrictedCustomer')).rejects.toThrow(
      /^customer restricted for an identity mismatch customer-1: the outcome \{"outcome":"approved_identity_mismatch"\} is the provider's, and only a sandbox's simulation API can choose it$/,
    );
  });
});
