// (d) Every event has a schema and a valid example in both documents: an OpenAPI webhook and an
// AsyncAPI message, from the one file spec/events/<event>.yaml. Both documents list exactly the events of
// spec/events/index.yaml, in its order, and so do the lists of event names.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvents } from '../../scripts/build/spec-events.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import { get, isObject, type JsonObject } from '../../scripts/lib/pointer.ts';
import { contractModel } from '../../src/contract/model.ts';
import { checkEvents } from './checklist.ts';
import { built, checklist, expectNoProblems } from './helpers.ts';

const workspace = process.env['CONTRACT_WORKSPACE'] ?? ROOT;

it('every event of the document is in both documents, with its fields and a valid example', () => {
  const { openapi, asyncapi } = built();
  expectNoProblems(checkEvents(openapi, asyncapi, checklist));
});

describe('the events of spec/events/index.yaml', () => {
  const events = readEvents(path.join(workspace, 'spec'));
  const names = events.map((e) => e.name);
  const { openapi, asyncapi } = built();
  const keys = (node: unknown) => Object.keys(isObject(node) ? node : {});

  it('are the OpenAPI webhooks, each tagged with its category', () => {
    expect(contractModel(openapi).webhooks.map((w) => w.path)).toEqual(names);
    for (const event of events) {
      const post = get(openapi, `/webhooks/${event.name.replaceAll('/', '~1')}/post`) as JsonObject;
      expect(post['tags'], event.name).toEqual([event.category]);
      expect(String(post['description']), event.name).toContain(event.description.trim());
    }
  });

  it('are the AsyncAPI messages, on the channel, each sent by its operation', () => {
    const components = asyncapi['components'] as JsonObject;
    expect(keys(components['messages'])).toEqual(names);
    const channels = Object.values(asyncapi['channels'] as JsonObject);
    expect(channels.flatMap((c) => keys((c as JsonObject)['messages']))).toEqual(names);
    const sent = Object.values(asyncapi['operations'] as JsonObject).flatMap((op) =>
      ((op as JsonObject)['messages'] as JsonObject[]).map((m) => contractModel(asyncapi).resolve(m).pointer.split('/').pop()),
    );
    expect(sent).toEqual(names);
    for (const event of events) {
      const message = (components['messages'] as JsonObject)[event.name] as JsonObject;
      expect(message['summary'], event.name).toBe(event.summary);
      const tag = contractModel(asyncapi).resolve((message['tags'] as JsonObject[])[0]).node as JsonObject;
      expect(tag['name'], event.name).toBe(event.category);
    }
  });

  it('are the closed list of event names requests take, and the known values of the open set responses report', () => {
    expect((get(openapi, '/components/schemas/WebhookEventNameChoice') as JsonObject)['enum']).toEqual(names);
    const reported = get(openapi, '/components/schemas/WebhookEventName') as JsonObject;
    expect(reported['enum']).toBeUndefined();
    expect(reported['examples']).toEqual(names);
  });
});
