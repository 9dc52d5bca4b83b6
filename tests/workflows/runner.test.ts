// The workflow runner (scripts/conformance/workflows.ts) without a server: which workflows a run skips and why,
// how Respect's report becomes one result per step (the last attempt of a retried step, a called workflow's
// steps under its step), which events a workflow found, the contract's own check of each response, and the mock
// reported as not applicable.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pingTypeOf, startReceiver } from '../../scripts/conformance/receiver.ts';
import {
  contractResponseCheck,
  eventsFound,
  planWorkflows,
  readArazzo,
  runWorkflows,
  stepResults,
  workflowFiles,
  workflowLines,
  type ArazzoDocument,
} from '../../scripts/conformance/workflows.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';
import { contractModel } from '../../src/contract/model.ts';

const bundle = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', 'openapi.json'), 'utf8')) as JsonObject;
const cards = readArazzo(path.join(ROOT, 'spec', 'workflows', 'cards.arazzo.yaml'));
const webhooks = readArazzo(path.join(ROOT, 'spec', 'workflows', 'webhooks.arazzo.yaml'));
const all = {
  api_key: 'sk_test_x',
  endpoint_code: 'e',
  webhook_url: 'w',
  refusing_webhook_url: 'r',
  failing_webhook_url: 'f',
  fresh_api_key: 'sk_test_y',
};

describe('which workflows a run skips', () => {
  it('with everything, none', () => {
    for (const file of workflowFiles()) expect([...planWorkflows(readArazzo(file), all, true).values()].filter(Boolean)).toEqual([]);
  });

  it('without the simulation API, those marked x-simulation, with the reason they give', () => {
    const plan = planWorkflows(cards, all, false);
    expect(plan.get('cardIssued')).toBe(
      "needs the simulation API (--simulation-url): The issuance outcome is the card provider's decision.",
    );
    const runnable = [...planWorkflows(webhooks, all, false)].filter(([, reason]) => !reason).map(([id]) => id);
    expect(runnable).toEqual(['endpointRules']);
  });

  it('without an input a workflow requires, naming the input and the option that gives it', () => {
    const { webhook_url: _w, refusing_webhook_url: _r, ...rest } = all;
    expect(planWorkflows(webhooks, rest, true).get('endpointRules')).toBe(
      'needs webhook_url (--webhook-url), refusing_webhook_url (--webhook-url)',
    );
  });

  it('a workflow that runs a skipped workflow, saying which', () => {
    const doc: ArazzoDocument = {
      workflows: [
        { workflowId: 'a', steps: [{ stepId: 's' }], 'x-simulation': 'a reason' },
        { workflowId: 'b', steps: [{ stepId: 'call', workflowId: 'a' }] },
      ],
    };
    expect(planWorkflows(doc, all, false).get('b')).toBe('calls workflow a, which needs the simulation API (--simulation-url): a reason');
  });
});

const step = (stepId: string, status: string, extra: object = {}) => ({ type: 'step' as const, stepId, status, ...extra });

describe("Respect's report, step by step", () => {
  it("keeps the last attempt of a retried step, and a called workflow's steps under its step", () => {
    const results = stepResults([
      { type: 'workflow', stepId: 'issued', workflowId: 'cardIssued', status: 'success', executedSteps: [step('createCard', 'success')] },
      step('poll', 'error', {
        checks: [{ name: 'success criteria check', passed: false, condition: "$response.body#/data/status == 'active'" }],
      }),
      step('poll', 'success'),
      step('read', 'error', {
        checks: [{ name: 'success criteria check', passed: false, condition: '$statusCode == 200', message: 'Checking simple criteria' }],
      }),
    ]);
    expect(results).toEqual([
      { step: 'issued › createCard', outcome: 'passed' },
      { step: 'poll', outcome: 'passed' },
      { step: 'read', outcome: 'failed', message: 'success criteria check: $statusCode == 200' },
    ]);
  });

  it('fails a step whose response the contract refuses, even when its criteria passed', () => {
    const check = contractResponseCheck(bundle, 'http://127.0.0.1:1/v1');
    const response = (body: unknown) =>
      step('read', 'success', {
        request: { method: 'get', url: 'http://127.0.0.1:1/v1/cards/7c9e6679-7425-40de-944b-e07fc1f90ae7' },
        response: { statusCode: 200, body, headers: { 'content-type': 'application/json' } },
      });
    // The contract's own example of GET /cards/{code} 200 conforms; a card whose code is not a uuid does not.
    const valid = contractModel(bundle).byPath('get', '/cards/{code}')?.response(200)?.json?.examples[0]?.value;
    expect(valid).toBeDefined();
    expect(stepResults([response(valid)], check)).toEqual([{ step: 'read', outcome: 'passed' }]);
    const broken = stepResults([response({ success: true, data: { code: 'not-a-uuid' } })], check)[0]!;
    expect(broken.outcome).toBe('failed');
    expect(broken.message).toMatch(/^response 200 of GET \/cards\/\{code\}:/);
  });

  it('takes the events a workflow found from its own passed event-list steps only', () => {
    const list = (id: string, status = 'success') =>
      step('ev', status, {
        request: { method: 'get', url: 'http://x/v1/events?type=card.frozen&limit=1' },
        response: { statusCode: 200, body: { data: [{ id, type: 'card.frozen' }] } },
      });
    expect(
      eventsFound([
        list('evt_1'),
        list('evt_2', 'error'),
        { type: 'workflow', stepId: 'issued', status: 'success', executedSteps: [list('evt_3')] },
      ]),
    ).toEqual([{ id: 'evt_1', type: 'card.frozen' }]);
  });
});

describe('against the mock', () => {
  it('every workflow is not applicable, with the reason, and none is counted as failed', async () => {
    const results = await runWorkflows({ server: 'http://127.0.0.1:1/v1', apiKey: 'sk_test_x', mode: 'mock', bundle });
    const count = workflowFiles().reduce((n, f) => n + readArazzo(f).workflows.length, 0);
    expect(results).toHaveLength(count);
    expect(new Set(results.map((r) => r.outcome))).toEqual(new Set(['not applicable']));
    expect(results[0]!.reason).toMatch(/stateless/);
    expect(workflowLines(results).slice(1)).toEqual([
      'Workflows (spec/workflows, behaviour):',
      `  ${count} workflows not applicable to a stateless server: the mock answers each request with an example and keeps no state.`,
      `Workflows: 0 passed, 0 failed, 0 skipped, ${count} not applicable.`,
    ]);
  });
});

describe('a server that refuses the receiver', () => {
  it("fails the workflows that need it, with the server's answer, instead of skipping them", async () => {
    const server = http.createServer((req, res) =>
      req.resume().on('end', () => res.writeHead(403, { 'Content-Type': 'application/json' }).end('{"success":false}')),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = await startReceiver(0, pingTypeOf(bundle));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const results = await runWorkflows({
        server: url,
        simulationUrl: url,
        apiKey: 'sk_test_x',
        mode: 'real',
        bundle,
        receiver,
        webhookUrl: 'https://hooks.example.test',
        only: ['kycApproved'],
      });
      expect(results.map((r) => [r.workflowId, r.outcome])).toEqual([['kycApproved', 'failed']]);
      expect(results[0]!.reason).toMatch(
        /^registering the receiver \(POST \/webhooks https:\/\/hooks\.example\.test\/workflows\) answered 403/,
      );
    } finally {
      server.close();
      await receiver.close();
    }
  });
});
