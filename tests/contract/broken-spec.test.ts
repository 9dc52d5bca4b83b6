// A broken spec fails: copy spec/ to a temporary workspace, break it, and check that the build, the
// lint and the contract checks report it with a clear message.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { BuildError, buildToTemp, readBundle } from '../../scripts/build/build.ts';
import { checkErrors, checkEvents } from './checklist.ts';
import { checkExamples } from './examples.ts';
import { unboundedSchemas } from './bounds.ts';
import { checkOpenness } from './policy.ts';
import { spectralLint } from '../../scripts/lib/spectral.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';
import { lint } from '../../scripts/lib/redocly.ts';
import { validateAsyncApi, validateOpenApi } from '../../scripts/build/validate.ts';
import { built, checklist, copyWorkspace, edit } from './helpers.ts';

const WITHDRAW = 'spec/paths/cards_{code}_withdraw.yaml';
const temps: string[] = [];
const workspace = () => {
  const dir = copyWorkspace();
  temps.push(dir);
  return dir;
};
const build = async (ws: string) => {
  const { dir } = await buildToTemp(ws);
  temps.push(dir);
  return { openapi: readBundle(dir, 'openapi') as JsonObject, asyncapi: readBundle(dir, 'asyncapi') as JsonObject };
};
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

describe.concurrent('a broken spec is reported', { timeout: 180_000 }, () => {
  it('an invalid example: the example check and the lint name it', async () => {
    const ws = workspace();
    edit(ws, WITHDRAW, (t) => t.replace(/(withdraw:\n\s+summary: .*\n\s+value:\n\s+amount:) 50/, '$1 fifty'));
    const { openapi } = await build(ws);
    const problems = checkExamples(openapi, 'openapi');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /requestBody\/content\/application~1json\/examples\/withdraw: example does not match its schema .*amount must be number/,
    );
    const linted = await lint(ws, ['openapi']);
    expect(linted.code).not.toBe(0);
    expect(linted.output).toMatch(/no-invalid-media-type-examples/);
  });

  it('a missing event file: the build fails and names the file', async () => {
    const ws = workspace();
    fs.rmSync(path.join(ws, 'spec', 'events', 'card.frozen.yaml'));
    const error = await buildToTemp(ws).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).problems).toEqual(['spec/events/index.yaml: card.frozen: spec/events/card.frozen.yaml does not exist']);
  });

  it('a missing event entry in the OpenAPI webhooks: the event check names the event', () => {
    const { openapi, asyncapi } = built();
    const copy = structuredClone(openapi) as { webhooks: Record<string, unknown> };
    delete copy.webhooks['card.frozen'];
    expect(checkEvents(copy as unknown as JsonObject, asyncapi, checklist)).toContain(
      'openapi: event card.frozen is missing from webhooks',
    );
  });

  it('an event the document does not list: the event check asks for it to be marked provisional', () => {
    const { openapi, asyncapi } = built();
    const copy = structuredClone(openapi) as {
      webhooks: Record<string, unknown>;
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    const designed: Record<string, unknown> = { ...structuredClone(copy.components.schemas['card.frozen']!), title: 'card.paused' };
    copy.components.schemas['card.paused'] = designed;
    const webhook = structuredClone(copy.webhooks['card.frozen']) as {
      post: { requestBody: { content: Record<string, { schema: unknown }> } };
    };
    webhook.post.requestBody.content['application/json']!.schema = { $ref: '#/components/schemas/card.paused' };
    copy.webhooks['card.paused'] = webhook;
    const problems = () => checkEvents(copy as unknown as JsonObject, asyncapi, checklist).filter((p) => p.includes('card.paused'));
    expect(problems()).toEqual([
      'openapi: webhook card.paused is not an event of the document (an event designed here is marked x-provisional: true)',
    ]);
    designed['x-provisional'] = true;
    expect(problems().filter((p) => p.includes('not an event of the document'))).toEqual([]);
  });

  it('a missing event message in the AsyncAPI document: the event check names the event', () => {
    const { openapi, asyncapi } = built();
    const copy = structuredClone(asyncapi) as { components: { messages: Record<string, { name?: string }> } };
    for (const [key, message] of Object.entries(copy.components.messages)) {
      if (key === 'card.frozen' || message.name === 'card.frozen') delete copy.components.messages[key];
    }
    expect(checkEvents(openapi, copy as unknown as JsonObject, checklist)).toContain(
      'asyncapi: event card.frozen has no message in components/messages',
    );
  });

  it('an invalid AsyncAPI message example: the example check names it', () => {
    const copy = structuredClone(built().asyncapi) as {
      components: { messages: Record<string, { examples?: { payload?: { mode?: string } }[] }> };
    };
    const [name, message] = Object.entries(copy.components.messages).find(([, m]) => m.examples?.[0]?.payload) ?? [];
    expect(message, 'an AsyncAPI message with an example payload').toBeDefined();
    message!.examples![0]!.payload!.mode = 'sandbox';
    const problems = checkExamples(copy as unknown as JsonObject, 'asyncapi');
    expect(problems).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^asyncapi#/components/messages/${name!.replaceAll('.', '\\.')}/examples/0/payload: example does not match its schema.*mode must be equal to one of the allowed values`,
        ),
      ),
    );
  });

  it('an invalid bundle: the OpenAPI 3.1 and AsyncAPI 3.0 schema checks report it', async () => {
    const { openapi, asyncapi } = built();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-invalid-'));
    temps.push(dir);
    const o = structuredClone(openapi) as { paths: Record<string, Record<string, { responses?: unknown }>> };
    delete o.paths['/cards']!['get']!.responses;
    o.paths['/cards']!['get']!['operationId' as 'responses'] = 42;
    fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(o));
    const a = structuredClone(asyncapi) as { operations: Record<string, { action: string }> };
    const first = Object.keys(a.operations)[0]!;
    a.operations[first]!.action = 'publish'; // AsyncAPI 2 vocabulary: 3.0 has send and receive
    fs.writeFileSync(path.join(dir, 'asyncapi.json'), JSON.stringify(a));
    const openapiProblems = await validateOpenApi(path.join(dir, 'openapi.json'));
    expect(openapiProblems.join('\n')).toMatch(/paths\/~1cards\/get/);
    const asyncProblems = await validateAsyncApi(path.join(dir, 'asyncapi.json'));
    expect(asyncProblems.join('\n')).toContain(`#/operations/${first}/action`);
  });

  it('a missing documented error: the error check names the operation, status and code', async () => {
    const ws = workspace();
    edit(ws, WITHDRAW, (t) => t.replace(/ {4}'404':\n {6}\$ref: .*\n/, ''));
    const { openapi } = await build(ws);
    expect(checkErrors(openapi, checklist)).toContain(
      'POST /cards/{code}/withdraw: missing response 404 RESOURCE_NOT_FOUND (document: Endpoints > POST /cards/{code}/withdraw)',
    );
  });

  it('house lint rules: each one reports its rule', async () => {
    const ws = workspace();
    edit(ws, WITHDRAW, (text) => {
      const doc = parse(text) as { post: Record<string, any> };
      const op = doc.post;
      op['summary'] = 'withdraw from a card.'; // rule/operation-summary
      op['tags'] = ['Cards', 'Payouts']; // rule/operation-one-tag
      delete op['responses']['401']; // rule/operation-401
      delete op['requestBody']['content']['application/json']['examples']; // rule/request-body-examples
      delete op['responses']['200']['content']['application/json']['examples']; // rule/success-response-examples
      op['responses']['404'] = { description: 'Not found.', content: { 'text/plain': { schema: { type: 'string' } } } }; // rule/error-response-json
      return stringify(doc);
    });
    edit(ws, 'spec/paths/cards_{code}_freeze.yaml', (text) => {
      const doc = parse(text) as { post: Record<string, any> };
      delete doc.post['responses']['200']['content']; // rule/success-response-content
      return stringify(doc);
    });
    const linted = await lint(ws, ['openapi'], ['--format', 'stylish']);
    expect(linted.code).not.toBe(0);
    for (const rule of [
      'rule/operation-summary',
      'rule/operation-one-tag',
      'rule/operation-401',
      'rule/request-body-examples',
      'rule/success-response-examples',
      'rule/error-response-json',
      'rule/success-response-content',
    ]) {
      expect(linted.output).toContain(rule);
    }
  });
  it('an example with a field its schema does not document: the example check names the field', async () => {
    const ws = workspace();
    edit(ws, WITHDRAW, (t) => t.replace(/(\n(\s+)withdrawal_id: txn_01HQ2ZK7W4\n)/, '$1$2withdrawl_fee: 1\n'));
    const { openapi } = await build(ws);
    const problems = checkExamples(openapi, 'openapi');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /responses\/200\/content\/application~1json\/examples\/.*: example has a field its schema .* does not document: \/data\/withdrawl_fee$/,
    );
  });

  it('a closed response object or event payload, or an open request body: the policy check names it', async () => {
    const ws = workspace();
    edit(ws, 'spec/components/schemas/CardWithdrawal.yaml', (t) =>
      t.replace(/^type: object\n/, 'type: object\nadditionalProperties: false\n'),
    );
    edit(ws, 'spec/components/schemas/WithdrawFromCardRequest.yaml', (t) => t.replace('additionalProperties: false\n', ''));
    edit(ws, 'spec/events/card.frozen.yaml', (t) =>
      t.replace('      data:\n        allOf:\n', '      data:\n        unevaluatedProperties: false\n        allOf:\n'),
    );
    const { openapi } = await build(ws);
    const problems = checkOpenness(openapi);
    expect(problems).toContainEqual(
      expect.stringMatching(/^\/components\/schemas\/card\.frozen\/examples\/0: an event refuses an unknown field at \/data \(/),
    );
    expect(
      problems.some((p) =>
        /withdraw\/post\/responses\/200\/.*: a response refuses an unknown field at \/data \(responses and events are open/.test(p),
      ),
    ).toBe(true);
    expect(
      problems.some((p) =>
        /withdraw\/post\/requestBody\/.*: a request body accepts an unknown field at \/ \(request bodies are closed/.test(p),
      ),
    ).toBe(true);
  });

  it('an unbounded string and a money amount without precision: Spectral and the bounds check name them', async () => {
    const ws = workspace();
    edit(ws, 'spec/components/schemas/CardWithdrawal.yaml', (t) =>
      t
        .replace(/(\n {2}withdrawal_id:\n {4}type: string\n) {4}maxLength: \d+\n/, '$1')
        .replace(/(\n {2}fee:\n(?: {4}.*\n)*?) {4}x-decimal-places: 2\n/, '$1'),
    );
    const { dir } = await buildToTemp(ws);
    temps.push(dir);
    const found = unboundedSchemas(readBundle(dir, 'openapi') as JsonObject);
    expect(found.strings).toEqual(['/components/schemas/CardWithdrawal/properties/withdrawal_id']);
    expect(found.numbers).toEqual(['/components/schemas/CardWithdrawal/properties/fee']);
    const linted = await spectralLint(path.join(dir, 'openapi.json'), ['--format', 'json', '--quiet']);
    expect(linted.code).not.toBe(0);
    const results = (JSON.parse(linted.output) as { code: string; path: string[] }[]).map((r) => `${r.code} ${r.path.join('/')}`);
    expect(results).toContain('owasp:api4:2023-string-limit components/schemas/CardWithdrawal/properties/withdrawal_id');
    expect(results).toContainEqual(expect.stringMatching(/^money-bounds components\/schemas\/CardWithdrawal\/properties\/fee\b/));
  });
});
