// The docs for assistants (scripts/docs/llms.ts, reference-markdown.ts), as `npm run docs` writes them and the
// package ships llms-full.txt: every operation of the bundle in the reference's markdown with its parameters,
// errors and examples, found by the MCP server's reader (src/mcp/docs.ts) in llms-full.txt; every webhook and
// named schema; every operation of the sandbox bundle in the simulation API's twin, under its tag, with the
// sandbox's own server; every page once in llms.txt and in llms-full.txt, in the sidebar's order; twins whose links
// land on twins, without HTML tables, with their pages' headings. The built files against the rendered pages:
// tests/browser/markdown-twins.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../../scripts/docs/events-page.ts';
import { outsideCode } from '../../scripts/docs/guides.ts';
import {
  assistantDocs,
  firstSentence,
  linkToTwins,
  pageUrl,
  readStarlightPage,
  twinText,
  twinUrl,
  type AssistantDocs,
} from '../../scripts/docs/llms.ts';
import { sharedWebhookText } from '../../scripts/docs/reference-markdown.ts';
import { simulationDocsDocument } from '../../scripts/docs/simulation-reference.ts';
import { readBundles, siteContent, type SiteContent } from '../../scripts/docs/site.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';
import { contractModel } from '../../src/contract/model.ts';
import { operationSection, parseSections, REFERENCE_PAGES, type Docs } from '../../src/mcp/docs.ts';

let openapi: JsonObject;
let sandbox: JsonObject;
let content: SiteContent;
let docs: AssistantDocs;
let reference: string;
let full: Docs;

/** The headings of a markdown text outside code, as `## Title`. */
const headings = (markdown: string) =>
  outsideCode(markdown, (t) => t)
    .split('\n')
    .filter((line, i, lines) => /^#{1,6} /.test(line) && !insideFence(lines, i));

/** Whether line `i` is inside a fenced block (outsideCode keeps fences; a heading-like line in one is code). */
function insideFence(lines: string[], i: number): boolean {
  let open: string | undefined;
  for (let j = 0; j < i; j++) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(lines[j]!)?.[1];
    if (!marker) continue;
    if (open === undefined) open = marker;
    else if (marker[0] === open[0] && marker.length >= open.length && lines[j]!.trim() === marker) open = undefined;
  }
  return open !== undefined;
}

beforeAll(() => {
  const bundles = readBundles();
  openapi = bundles.openapi as JsonObject;
  sandbox = bundles.sandbox as JsonObject;
  content = siteContent(bundles.openapi, bundles.asyncapi);
  docs = assistantDocs(content, bundles);
  reference = docs.pages.find((p) => p.url === '/reference/')!.body;
  full = { source: 'llms-full.txt', sections: parseSections(docs.llmsFull) };
}, 60_000);

describe('the API reference as markdown', () => {
  it('has every operation of the bundle, with its parameters, errors and examples, where the MCP server finds it', () => {
    const entries = contractModel(openapi).operations;
    expect(entries.length).toBeGreaterThan(50);
    for (const entry of entries) {
      const { path: route, method, node: operation } = entry;
      const id = entry.operationId;
      const section = operationSection(full, id);
      expect(section, `${id}: no section of the reference in llms-full.txt`).toBeDefined();
      const text = section!.text;
      expect(text.startsWith(`### ${String(operation.summary)}\n`), id).toBe(true);
      expect(text, id).toMatch(
        new RegExp(
          `^\`${method.toUpperCase()} \\{(base_url|alt_base_url)\\}${route.replace(/[{}]/g, '\\$&')}\`, operationId \`${id}\``,
          'm',
        ),
      );
      for (const p of entry.parameters) expect(text, `${id}: parameter ${p.name}`).toContain(`- \`${p.name}\` (${p.in}, `);
      for (const { status, json, errorCodes } of entry.responses) {
        if (/^2/.test(status)) {
          expect(text, `${id}: response ${status}`).toContain(`**Response ${status}**`);
          for (const example of json?.examples ?? [])
            expect(text, `${id}: example ${example.name}`).toContain(`Response \`${status}\` \`${example.name}\`:`);
          continue;
        }
        for (const code of errorCodes) expect(text, `${id}: ${status} ${code}`).toMatch(new RegExp(`^- \`${status}\` .*\`${code}\``, 'm'));
      }
      const body = entry.requestBody;
      if (body) {
        expect(text, `${id}: request body`).toContain('**Request body** (`application/json`');
        for (const example of body.json?.examples ?? [])
          expect(text, `${id}: request ${example.name}`).toContain(`Request \`${example.name}\`:`);
      }
      expect(text, `${id}: its curl sample`).toContain('```sh\ncurl ');
    }
  });

  it('has every webhook, linked to the twin of the events page that describes it', () => {
    const twins = new Set(docs.pages.map((p) => p.twin));
    const webhooks = contractModel(openapi).webhooks;
    const names = webhooks.map((w) => w.path);
    expect(names).toContain('card.frozen');
    for (const name of names) {
      const link = new RegExp(
        `^### ${name.replace(/\./g, '\\.')}\\n\\nSent to your webhook endpoints .*\\[${name.replace(/\./g, '\\.')}\\]\\(([^)#]+)#${name.replace(/\./g, '\\.')}\\)`,
        'm',
      ).exec(reference);
      expect(link, name).not.toBeNull();
      expect(twins.has(link![1]!), `${name}: ${link![1]} is a twin`).toBe(true);
    }
    // The acknowledgement every webhook's description ends with is written once.
    const shared = sharedWebhookText(webhooks.map((w) => String(w.node['description'])));
    expect(shared).toMatch(/2xx/);
    expect(reference.split(shared).length - 1).toBe(1);
  });

  it('writes every schema a response names once, under Schemas, where its links land', () => {
    const named = [...new Set([...reference.matchAll(/\[`(\w+)`\]\(#(\w+)\) \(see Schemas\)/g)].map((m) => m[1]!))];
    expect(named).toContain('Card');
    const schemas = reference.slice(reference.indexOf('\n## Schemas\n'));
    for (const name of named) expect(schemas.split(`\n### \`${name}\`\n`).length - 1, name).toBe(1);
  });

  it("keeps the outline of the Redoc page: the description's sections, then a section per tag, an operation or webhook per subsection", () => {
    const outline = headings(reference);
    const description = String((openapi.info as JsonObject).description);
    for (const section of description.match(/^## .+$/gm)!.filter((h) => h !== '## Provisional parts'))
      expect(outline, section).toContain(section);
    for (const tag of (openapi.tags as JsonObject[]).map((t) => String(t.name))) expect(outline, tag).toContain(`## ${tag}`);
    expect(outline.filter((h) => h.startsWith('### ') && !h.startsWith('### `')).length).toBe(
      contractModel(openapi).operations.length + contractModel(openapi).webhooks.length,
    );
  });
});

describe("the simulation API's page as markdown", () => {
  it('has every operation of the sandbox bundle under its tag, at the twin of /reference/simulation/, in llms-full.txt', () => {
    const twin = docs.pages.find((p) => p.url === '/reference/simulation/');
    expect(twin?.twin).toBe('/reference/simulation.md');
    expect(twin!.title).toBe('Simulation API');
    expect(twin!.description).toBe(
      `Every operation of ${String((sandbox.info as JsonObject).title)} ${String((sandbox.info as JsonObject).version)} as markdown.`,
    );
    const outline = headings(twin!.body);
    const entries = contractModel(sandbox).operations;
    const server = String((sandbox.servers as JsonObject[])[0]!.url);
    expect(entries.map((e) => e.operationId)).toContain('advanceClock');
    for (const { path: route, method, node: operation } of entries) {
      const id = String(operation.operationId);
      const tag = `## ${String((operation.tags as string[])[0])}`;
      const at = outline.indexOf(`### ${String(operation.summary)}`);
      expect(at, id).toBeGreaterThan(-1);
      expect(
        outline
          .slice(0, at)
          .filter((h) => h.startsWith('## '))
          .at(-1),
        id,
      ).toBe(tag);
      expect(twin!.body, id).toContain(`\`${method.toUpperCase()} ${server}${route}\`, operationId \`${id}\`.`);
    }
    // Its servers are the ones its page shows, the sandbox's own; it has no code samples, as its page has none.
    const servers = twin!.body.slice(twin!.body.indexOf('**Servers**'), twin!.body.indexOf('**Authentication**'));
    expect([...servers.matchAll(/^- `([^`]+)`: /gm)].map((m) => m[1])).toEqual(
      (simulationDocsDocument(sandbox).servers as JsonObject[]).map((s) => String(s.url)),
    );
    expect(twin!.body).not.toContain('```sh\ncurl ');
    expect(twin!.body).toContain('([sandbox.json](/sandbox.json))');
    expect(twin!.body).not.toMatch(/webhook event it sends/);
    expect(docs.llmsFull).toContain(twinText(twin!));
    // The MCP server's reader finds each simulation on this page, not on the API reference.
    for (const { operationId: id, summary } of entries) {
      expect(operationSection(full, id, REFERENCE_PAGES.simulation)?.heading, id).toBe(summary);
      expect(operationSection(full, id), id).toBeUndefined();
    }
  });
});

describe('llms.txt, llms-full.txt and the twins', () => {
  it("lists every page's twin once in llms.txt, by the sidebar's groups, and holds every page once in llms-full.txt, in the same order", () => {
    expect(docs.pages.length).toBe(content.pages.length + 2);
    expect(docs.llmsTxt.split('\n## Reference\n')[1]!.split('\n## ')[0]).toContain('- [Simulation API](/reference/simulation.md): ');
    const listed = [...docs.llmsTxt.matchAll(/^- \[[^\]]+\]\((\/[^)]+\.md)\)/gm)].map((m) => m[1]);
    expect([...listed].sort()).toEqual(docs.pages.map((p) => p.twin).sort());
    expect(docs.llmsTxt).toMatch(/^# Partner API\n\n> .+\n/);
    for (const group of ['## Start here', '## Guides', '## Tools', '## Reference', '## Events', '## Workflows', '## Optional'])
      expect(docs.llmsTxt).toContain(`\n${group}\n`);
    const pages = [...docs.llmsFull.matchAll(/^# (.+)\n\nPage: (\S+) \(this text: (\S+)\)$/gm)].map((m) => m[3]);
    expect(pages).toEqual(listed);
    expect(new Set(full.sections.map((s) => s.url))).toEqual(new Set(docs.pages.map((p) => p.url)));
    expect(docs.llmsTxt).toContain('- [Coding assistants](/guides/assistants.md): ');
  });

  it('points every link to a page of the site at its twin', () => {
    const twins = new Set(docs.pages.map((p) => p.twin));
    const urls = new Set(docs.pages.map((p) => p.url));
    for (const page of docs.pages) {
      const prose = outsideCode(page.body, (t) => t.replace(/`[^`]*`/g, ''));
      for (const [, target] of prose.matchAll(/\]\((\/[^)\s#]*)/g)) {
        expect(urls.has(target!), `${page.twin}: a link to the page ${target} instead of its twin`).toBe(false);
        if (target!.endsWith('.md')) expect(twins.has(target!), `${page.twin}: ${target}`).toBe(true);
      }
    }
  });

  it("gives each Starlight page a twin with its headings and without HTML tables or contributors' passages", () => {
    const events = new Map(content.events.map((e) => [e.id, e]));
    for (const page of content.pages) {
      const twin = docs.pages.find((p) => p.url === pageUrl(page.id))!;
      const source = events.get(page.id)?.body ?? readStarlightPage(page.markdown).body;
      expect(
        headings(twin.body).map((h) => h.replace(/`/g, '')),
        page.id,
      ).toEqual(headings(source).map((h) => h.replace(/`/g, '').replace(/<[^>]+>/g, '')));
      expect(twin.body, page.id).not.toMatch(/<table|<!-- contributors -->/);
    }
    // The events' twins keep every field of every payload, as a list.
    const cardEvents = docs.pages.find((p) => p.url === '/events/card-events/')!.body;
    const frozen = readEvents(readBundles().asyncapi as JsonObject)
      .flatMap((g) => g.events)
      .find((e) => e.name === 'card.frozen')!;
    for (const field of frozen.fields) expect(cardEvents).toContain(`- \`${field.name}\` (`);
  });

  it("writes the package's llms-full.txt as the site's", async () => {
    const { packageDocs } = await import('../../scripts/package/llms.ts');
    expect(packageDocs()).toBe(docs.llmsFull);
    expect(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts['build:lib']).toContain(
      'node scripts/package/llms.ts',
    );
  });
});

describe('the helpers', () => {
  it("names a page's address and its twin's", () => {
    expect(pageUrl('index')).toBe('/');
    expect(pageUrl('events/index')).toBe('/events/');
    expect(pageUrl('guides/errors')).toBe('/guides/errors/');
    expect(twinUrl('/')).toBe('/index.md');
    expect(twinUrl('/guides/errors/')).toBe('/guides/errors.md');
    expect(twinUrl('/reference/')).toBe('/reference.md');
  });

  it('points links at twins outside code only, keeping anchors, leaving other links alone', () => {
    const twins = new Map([['/guides/errors/', '/guides/errors.md']]);
    expect(
      linkToTwins('[E](/guides/errors/#codes), [J](/openapi.json), `[c](/guides/errors/)`\n\n```md\n[k](/guides/errors/)\n```\n', twins),
    ).toBe('[E](/guides/errors.md#codes), [J](/openapi.json), `[c](/guides/errors/)`\n\n```md\n[k](/guides/errors/)\n```\n');
  });

  it('describes a page by its first sentence of prose', () => {
    expect(firstSentence('## Heading\n\n- a list\n\nThe [first](/x/) one. The second.\n')).toBe('The first one.');
    expect(firstSentence('```sh\nnpm i\n```\n\nAfter code.')).toBe('After code.');
  });

  it('finds the text every webhook description ends with', () => {
    expect(sharedWebhookText(['A.\n\nAck.\n\nVerify.', 'B.\n\nAck.\n\nVerify.'])).toBe('Ack.\n\nVerify.');
    expect(sharedWebhookText(['A.', 'B.'])).toBe('');
  });
});
