// The webhook events, each written once: spec/events/<name>.yaml (when it is sent, its payload schema, an
// example) and one line of spec/events/index.yaml (its category and summary). From them and
// spec/events/templates.yaml this module makes what each document lists per event: the OpenAPI webhook,
// the AsyncAPI operation and message, and example delivery headers signed over the event's example.
// assemble.ts puts them into the documents.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { WEBHOOK_HEADERS } from '../../src/webhooks/headers.ts';
import { isObject, type Json, type JsonObject } from '../lib/pointer.ts';

/** Where the events are, relative to a spec/ directory. */
export const EVENTS_DIR = 'events';
export const EVENTS_INDEX = `${EVENTS_DIR}/index.yaml`;
export const EVENTS_TEMPLATES = `${EVENTS_DIR}/templates.yaml`;

/** An event name: lowercase words joined by dots (`card.topup.completed`); the file names of events match it. */
const EVENT_NAME = /^[a-z0-9_]+(\.[a-z0-9_]+)+$/;
/** The example secret, as the AsyncAPI info names it to partners. */
const EXAMPLE_SECRET = /`(whsec_example_[0-9a-f]+)`/;

/** Thrown when the events cannot be read; `problems` has one line each, naming the spec/ file. */
export class EventsError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.join('\n'));
    this.problems = problems;
  }
}

export interface EventEntry {
  /** `card.frozen` */
  name: string;
  /** The category, a tag of both documents: `Card events`. */
  category: string;
  summary: string;
  /** The event file's own description: when the event is sent and what it means. */
  description: string;
  /** The event file's first example: the body of the example delivery. */
  example: JsonObject;
}

export interface Templates {
  webhook: JsonObject;
  operation: JsonObject;
  message: JsonObject;
}

const readYaml = (file: string): unknown => parse(fs.readFileSync(file, 'utf8'));

/** `cardFrozen`, `card3dsRequest`, `virtualAccountDepositReceived` */
export function camelName(name: string): string {
  return name
    .split(/[._]/)
    .map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');
}
const pascalName = (name: string) => camelName(name).replace(/^./, (c) => c.toUpperCase());

/** Whether a spec/ directory lists its events in spec/events/index.yaml (else its documents list them by hand). */
export function hasEventsIndex(specDir: string): boolean {
  return fs.existsSync(path.join(specDir, EVENTS_INDEX));
}

/** Reads the index and every event file it names; every problem is reported, not only the first. */
export function readEvents(specDir: string): EventEntry[] {
  const at = (file: string) => `spec/${file}`;
  const index = readYaml(path.join(specDir, EVENTS_INDEX));
  if (!isObject(index)) throw new EventsError([`${at(EVENTS_INDEX)}: expected categories, each a map of event name to summary`]);
  const problems: string[] = [];
  const events: EventEntry[] = [];
  for (const [category, list] of Object.entries(index)) {
    if (!isObject(list)) {
      problems.push(`${at(EVENTS_INDEX)}: ${category}: expected a map of event name to summary`);
      continue;
    }
    for (const [name, summary] of Object.entries(list)) {
      const where = `${at(EVENTS_INDEX)}: ${name}`;
      if (!EVENT_NAME.test(name)) problems.push(`${where}: not an event name (lowercase words joined by dots, like card.frozen)`);
      else if (events.some((e) => e.name === name)) problems.push(`${where}: listed twice`);
      else if (typeof summary !== 'string' || summary.trim() === '') problems.push(`${where}: needs a one-line summary`);
      else {
        const file = `${EVENTS_DIR}/${name}.yaml`;
        if (!fs.existsSync(path.join(specDir, file))) problems.push(`${where}: ${at(file)} does not exist`);
        else events.push({ name, category, summary, ...eventFile(specDir, file, name, problems) });
      }
    }
  }
  const listed = new Set(events.map((e) => `${e.name}.yaml`));
  for (const file of fs.readdirSync(path.join(specDir, EVENTS_DIR)).sort()) {
    const name = file.replace(/\.yaml$/, '');
    if (EVENT_NAME.test(name) && !listed.has(file) && !problems.some((p) => p.includes(`: ${name}:`))) {
      problems.push(
        `${at(`${EVENTS_DIR}/${file}`)}: not listed in ${at(EVENTS_INDEX)} (add a line \`${name}: <summary>\` under its category)`,
      );
    }
  }
  if (problems.length > 0) throw new EventsError(problems);
  return events;
}

/** The parts of an event file the documents repeat: its description and its first example. */
function eventFile(specDir: string, file: string, name: string, problems: string[]): Pick<EventEntry, 'description' | 'example'> {
  const doc = readYaml(path.join(specDir, file));
  const where = `spec/${file}`;
  const description = isObject(doc) && typeof doc['description'] === 'string' ? doc['description'] : '';
  const example = isObject(doc) && Array.isArray(doc['examples']) ? doc['examples'][0] : undefined;
  if (!description.trim()) problems.push(`${where}: needs a description (when the event is sent and what it means)`);
  if (!isObject(example) || example['type'] !== name) problems.push(`${where}: needs an example whose type is ${name}`);
  else if (typeof example['id'] !== 'string' || !/^evt_[0-9a-f-]{16,}/.test(example['id']))
    problems.push(`${where}: the example needs an id evt_<uuid>`);
  else if (typeof example['created_at'] !== 'string' || Number.isNaN(Date.parse(example['created_at'])))
    problems.push(`${where}: the example needs a created_at date-time`);
  return { description, example: isObject(example) ? example : {} };
}

export function readTemplates(specDir: string): Templates {
  const doc = readYaml(path.join(specDir, EVENTS_TEMPLATES));
  const parts = ['webhook', 'operation', 'message'] as const;
  const missing = parts.filter((p) => !isObject(isObject(doc) ? doc[p] : undefined));
  if (!isObject(doc) || missing.length > 0) throw new EventsError([`spec/${EVENTS_TEMPLATES}: missing ${missing.join(', ')}`]);
  return { webhook: doc['webhook'] as JsonObject, operation: doc['operation'] as JsonObject, message: doc['message'] as JsonObject };
}

/** The example secret named in the AsyncAPI info, which the example deliveries are signed with. */
export function exampleSecret(asyncapi: JsonObject): string {
  const info = asyncapi['info'];
  const secret = EXAMPLE_SECRET.exec(isObject(info) ? String(info['description'] ?? '') : '')?.[1];
  if (!secret)
    throw new EventsError([
      'spec/asyncapi.yaml: info.description must name the example secret (`whsec_example_...`) that the example deliveries are signed with',
    ]);
  return secret;
}

/** The delivery headers of an event's example, signed as the service signs a delivery. */
export function signedHeaders(event: EventEntry, secret: string): Record<string, string> {
  const timestamp = String(Math.floor(Date.parse(String(event.example['created_at'])) / 1000));
  const body = JSON.stringify(event.example);
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  const idempotencyKey = `idem_${String(event.example['id']).slice('evt_'.length).replaceAll('-', '').slice(0, 16)}`;
  return {
    [WEBHOOK_HEADERS.signature]: `t=${timestamp},v1=${signature}`,
    [WEBHOOK_HEADERS.timestamp]: timestamp,
    [WEBHOOK_HEADERS.idempotencyKey]: idempotencyKey,
  };
}

const HEADER_EXAMPLE_SUMMARIES: Record<string, (secret: string) => string> = {
  [WEBHOOK_HEADERS.signature]: (secret) => `Signed with the example secret ${secret} over the example body`,
  [WEBHOOK_HEADERS.timestamp]: () => 'The t= of the example signature',
  [WEBHOOK_HEADERS.idempotencyKey]: () => 'The idempotency key of the example delivery',
};

const copy = <T extends Json>(value: T): T => structuredClone(value);

/**
 * The OpenAPI webhook (a Path Item) of an event. `ref(file)` is the $ref to a file of spec/events/ from where
 * the webhook is written; the template's own $refs are rebased by the caller.
 */
export function webhookItem(templates: Templates, event: EventEntry, secret: string, ref: (file: string) => string): JsonObject {
  const { post, ...item } = copy(templates.webhook);
  const { description, ...operation } = post as JsonObject;
  const headers = signedHeaders(event, secret);
  const parameters = ((operation['parameters'] ?? []) as JsonObject[]).map((p) => {
    const value = headers[String(p['name'])];
    const summary = HEADER_EXAMPLE_SUMMARIES[String(p['name'])];
    return value === undefined || !summary ? p : { ...p, examples: { signed: { summary: summary(secret), value } } };
  });
  const requestBody = operation['requestBody'] as JsonObject | undefined;
  const content = (requestBody?.['content'] ?? {}) as Record<string, JsonObject>;
  for (const media of Object.values(content)) media['schema'] = { $ref: ref(`${event.name}.yaml`) };
  return {
    ...item,
    post: {
      operationId: `on${pascalName(event.name)}`,
      summary: event.name,
      description: `${event.description.trimEnd()}\n\n${String(description ?? '').trimEnd()}\n`,
      tags: [event.category],
      ...operation,
      parameters,
    },
  };
}

export interface AsyncApiNames {
  /** The key of the document's channel. */
  channel: string;
  /** The key in `components.tags` of a category. */
  tagKey: (category: string) => string;
}

/** The AsyncAPI operation of an event. */
export function asyncapiOperation(templates: Templates, event: EventEntry, names: AsyncApiNames): [string, JsonObject] {
  const { action, ...rest } = copy(templates.operation);
  return [
    `send${pascalName(event.name)}`,
    {
      action: action ?? 'send',
      channel: { $ref: `#/channels/${names.channel}` },
      title: `Send ${event.name}`,
      summary: event.summary,
      tags: [{ $ref: `#/components/tags/${names.tagKey(event.category)}` }],
      ...rest,
      messages: [{ $ref: `#/channels/${names.channel}/messages/${event.name}` }],
    },
  ];
}

/** The AsyncAPI message of an event, with its signed example. */
export function asyncapiMessage(
  templates: Templates,
  event: EventEntry,
  names: AsyncApiNames,
  secret: string,
  ref: (file: string) => string,
): JsonObject {
  const { contentType, ...rest } = copy(templates.message);
  return {
    name: event.name,
    title: event.name,
    summary: event.summary,
    ...(contentType === undefined ? {} : { contentType }),
    tags: [{ $ref: `#/components/tags/${names.tagKey(event.category)}` }],
    ...rest,
    payload: { $ref: ref(`${event.name}.yaml`) },
    examples: [
      {
        name: camelName(event.name),
        summary: `A ${event.name} delivery, signed with the example secret`,
        headers: signedHeaders(event, secret),
        payload: { $ref: ref(`${event.name}.yaml#/examples/0`) },
      },
    ],
  };
}
