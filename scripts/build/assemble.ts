// The documents as the tools read them: spec/ with, in place, what it lists per webhook event (spec-events.ts).
// The hand-written spec/ leaves an empty `{}` where a document lists every event (spec/openapi.yaml
// `webhooks`; spec/asyncapi.yaml `operations`, `components.messages` and its channel's `messages`), and no
// list of names in the schemas that hold one. Assembling copies spec/ and writes each list into its place:
// a `{}` becomes the list on the same line, and a schema's list is appended at its end, so every
// hand-written line keeps its number and lint and validation problems point at the right spec/ line.
// A spec/ without spec/events/index.yaml (a contract before it) is copied as it is.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isMap, parseDocument } from 'yaml';
import { isObject, type Json, type JsonObject } from '../lib/pointer.ts';
import {
  asyncapiMessage,
  asyncapiOperation,
  EVENTS_DIR,
  EventsError,
  exampleSecret,
  hasEventsIndex,
  readEvents,
  readTemplates,
  webhookItem,
  type EventEntry,
} from './spec-events.ts';

/**
 * The schemas that list every event name, relative to spec/, and the keyword the list is written as: the
 * closed list requests take, and the open set responses report, whose known values are its examples
 * (docs/compatibility.md).
 */
export const EVENT_NAME_LISTS = [
  { file: 'components/schemas/WebhookEventNameChoice.yaml', keyword: 'enum' },
  { file: 'components/schemas/WebhookEventName.yaml', keyword: 'examples' },
] as const;

/** A `{}` of a document to fill, by its path of keys. */
interface Fill {
  keys: string[];
  value: Json;
}

/** Copies a spec/ directory to `outSpecDir` with the event lists written in (see above). Returns the events. */
export function assembleSpec(specDir: string, outSpecDir: string): EventEntry[] {
  fs.cpSync(specDir, outSpecDir, { recursive: true });
  if (!hasEventsIndex(specDir)) return [];
  const events = readEvents(specDir);
  const templates = readTemplates(specDir);
  const openapi = read(specDir, 'openapi.yaml');
  const asyncapi = read(specDir, 'asyncapi.yaml');
  const secret = exampleSecret(asyncapi.value);
  const names = asyncapiNames(openapi.value, asyncapi.value, events);
  // The templates and the event files are in spec/events/; both documents are in spec/.
  const ref = (file: string) => `./${EVENTS_DIR}/${file}`;
  const fromTemplate = <T extends Json>(part: T) => rebase(part, EVENTS_DIR, '.');
  const rebased = {
    webhook: fromTemplate(templates.webhook),
    operation: fromTemplate(templates.operation),
    message: fromTemplate(templates.message),
  };

  write(outSpecDir, openapi, [
    { keys: ['webhooks'], value: Object.fromEntries(events.map((e) => [e.name, webhookItem(rebased, e, secret, ref)])) },
  ]);
  write(outSpecDir, asyncapi, [
    {
      keys: ['channels', names.channel, 'messages'],
      value: Object.fromEntries(events.map((e) => [e.name, { $ref: `#/components/messages/${e.name}` }])),
    },
    { keys: ['operations'], value: Object.fromEntries(events.map((e) => asyncapiOperation(rebased, e, names))) },
    {
      keys: ['components', 'messages'],
      value: Object.fromEntries(events.map((e) => [e.name, asyncapiMessage(rebased, e, names, secret, ref)])),
    },
  ]);
  for (const { file, keyword } of EVENT_NAME_LISTS)
    appendKeyword(
      specDir,
      outSpecDir,
      file,
      keyword,
      events.map((e) => e.name),
    );
  return events;
}

/**
 * A temporary workspace (redocly.yaml and the assembled spec/) for the tools to read. Remove it when done:
 * `fs.rmSync(dir, { recursive: true, force: true })`.
 */
export function assembleWorkspace(workspace: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-assembled-'));
  try {
    fs.copyFileSync(path.join(workspace, 'redocly.yaml'), path.join(dir, 'redocly.yaml'));
    assembleSpec(path.join(workspace, 'spec'), path.join(dir, 'spec'));
    return dir;
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

interface Source {
  file: string;
  text: string;
  value: JsonObject;
}

function read(specDir: string, file: string): Source {
  const text = fs.readFileSync(path.join(specDir, file), 'utf8');
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw doc.errors[0]!;
  const value = doc.toJS() as unknown;
  if (!isObject(value)) throw new EventsError([`spec/${file}: not a YAML map`]);
  return { file, text, value };
}

/** Writes a document with each `{}` replaced by its list, as JSON on the same line. */
function write(outSpecDir: string, source: Source, fills: Fill[]): void {
  const doc = parseDocument(source.text);
  const ranges = fills.map((f) => {
    const node = doc.getIn(f.keys, true);
    if (!isMap(node) || !node.flow || node.items.length > 0 || !node.range) {
      throw new EventsError([
        `spec/${source.file}: ${f.keys.join('.')} must be \`{}\`: npm run build lists every event of spec/events/index.yaml there`,
      ]);
    }
    return { start: node.range[0], end: node.range[1], text: JSON.stringify(f.value) };
  });
  let text = source.text;
  for (const r of ranges.sort((a, b) => b.start - a.start)) text = text.slice(0, r.start) + r.text + text.slice(r.end);
  fs.writeFileSync(path.join(outSpecDir, source.file), text);
}

/** Appends `<keyword>: [...]` to a schema file, which must not list the names itself. */
function appendKeyword(specDir: string, outSpecDir: string, file: string, keyword: string, values: string[]): void {
  const source = read(specDir, file);
  if (keyword in source.value)
    throw new EventsError([`spec/${file}: remove \`${keyword}\`: npm run build writes it from spec/events/index.yaml`]);
  fs.writeFileSync(path.join(outSpecDir, file), `${source.text.replace(/\n*$/, '\n')}${keyword}: ${JSON.stringify(values)}\n`);
}

/** The AsyncAPI document's one channel, and the key of each category's tag; every category must be a tag of both documents. */
function asyncapiNames(
  openapi: JsonObject,
  asyncapi: JsonObject,
  events: EventEntry[],
): { channel: string; tagKey: (category: string) => string } {
  const channels = Object.keys(isObject(asyncapi['channels']) ? asyncapi['channels'] : {});
  if (channels.length !== 1)
    throw new EventsError([
      `spec/asyncapi.yaml: expected one channel, the partner's endpoint, that every event is sent to; found ${channels.length}`,
    ]);
  const components = isObject(asyncapi['components']) ? asyncapi['components'] : {};
  const tags = Object.entries(isObject(components['tags']) ? components['tags'] : {});
  const openapiTags = new Set((Array.isArray(openapi['tags']) ? openapi['tags'] : []).map((t) => (isObject(t) ? t['name'] : undefined)));
  const problems: string[] = [];
  for (const category of new Set(events.map((e) => e.category))) {
    if (!openapiTags.has(category))
      problems.push(`spec/events/index.yaml: ${category}: not a tag of spec/openapi.yaml (declare it in \`tags\`)`);
    if (!tags.some(([, t]) => isObject(t) && t['name'] === category))
      problems.push(`spec/events/index.yaml: ${category}: not a tag of spec/asyncapi.yaml (declare it in \`components.tags\`)`);
  }
  if (problems.length > 0) throw new EventsError(problems);
  return { channel: channels[0]!, tagKey: (category) => tags.find(([, t]) => isObject(t) && t['name'] === category)![0] };
}

/** Rewrites the file $refs of a part written in `fromDir` for a document in `toDir` (both relative to spec/). */
export function rebase<T extends Json>(value: T, fromDir: string, toDir: string): T {
  if (Array.isArray(value)) return value.map((v) => rebase(v, fromDir, toDir)) as T;
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      if (k !== '$ref' || typeof v !== 'string' || v.startsWith('#')) return [k, rebase(v, fromDir, toDir)];
      const [file = '', fragment] = v.split('#');
      const relative = path.posix.relative(toDir, path.posix.join(fromDir, file));
      return [k, `${relative.startsWith('.') ? '' : './'}${relative}${fragment === undefined ? '' : `#${fragment}`}`];
    }),
  ) as T;
}
