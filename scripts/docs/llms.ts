// The docs site for a reader that takes text, a coding assistant first (llmstxt.org):
//
//   site/<page>.md     the markdown twin of every page: `/guides/errors/` -> `/guides/errors.md`, `/` ->
//                      `/index.md`, the reference -> `/reference.md`, the simulation API's page ->
//                      `/reference/simulation.md`; each page's HTML names its twin
//                      (`<link rel="alternate" type="text/markdown">`)
//   site/llms.txt      the index: the site's summary and every twin, by the sidebar's groups
//   site/llms-full.txt every page in one file, in the same order (the package ships it too: dist/llms-full.txt,
//                      which its MCP server searches)
//
// Written here rather than by starlight-llms-txt: the site's pages are markdown this build writes (guides.ts,
// events-page.ts ...), so a twin is that markdown as it is, not Starlight's HTML turned back into markdown; the
// plugin makes no per-page twins; and it sees only Starlight's pages, while the two reference pages are Redoc's,
// whose markdown has to be written from their bundles (reference-markdown.ts) in any case.
import fs from 'node:fs';
import path from 'node:path';
import { outsideCode } from './guides.ts';
import { referenceMarkdown, type ReferenceSource } from './reference-markdown.ts';
import { docsDocument } from './reference.ts';
import { SIMULATION_ROUTE, simulationDocsDocument } from './simulation-reference.ts';
import type { SiteContent } from './site.ts';
import type { SidebarGroup, Page } from './starlight.ts';
import { isObject, type JsonObject } from '../lib/pointer.ts';

export interface MarkdownPage {
  /** The page's address on the site: `/guides/errors/`, `/` for the home page, `/reference/`. */
  url: string;
  /** Its markdown twin's address: `/guides/errors.md`, `/index.md`, `/reference.md`. */
  twin: string;
  title: string;
  /** One sentence: what the page holds (llms.txt's line for it). */
  description: string;
  /** The markdown after the title, its links to other pages pointing at their twins. */
  body: string;
}

/** The address of a Starlight page id (`guides/errors` -> `/guides/errors/`, `events/index` -> `/events/`, `index` -> `/`). */
export function pageUrl(id: string): string {
  const route = id.replace(/(^|\/)index$/, '');
  return route === '' ? '/' : `/${route}/`;
}

/** The address of a page's markdown twin: the page's address with `.md` instead of its final slash (`/` -> `/index.md`). */
export function twinUrl(url: string): string {
  return url === '/' ? '/index.md' : `${url.replace(/\/$/, '')}.md`;
}

/** The front matter (`key: <JSON>` lines, as starlightPage writes it) and the body of a Starlight page. */
export function readStarlightPage(markdown: string): { frontMatter: Record<string, unknown>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(markdown);
  if (!match) return { frontMatter: {}, body: markdown };
  const frontMatter = Object.fromEntries(
    match[1]!.split('\n').map((line) => {
      const at = line.indexOf(': ');
      return [line.slice(0, at), JSON.parse(line.slice(at + 2)) as unknown];
    }),
  );
  return { frontMatter, body: markdown.slice(match[0].length).replace(/^\s*\n/, '') };
}

/** The first sentence of a page's prose (not a heading, list, table, quote, HTML or code), links as their text. */
export function firstSentence(markdown: string): string {
  const prose = outsideCode(markdown, (t) => t)
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .find((p) => p !== '' && !/^(#|[-*] |\d+\. |\||>|<|```|~~~)/.test(p));
  if (!prose) return '';
  const plain = prose.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\s+/g, ' ');
  const end = /[.!?](?=\s|$)/.exec(plain);
  return end ? plain.slice(0, end.index + 1) : plain;
}

/**
 * Points the links of a page (outside code) that land on another page of the site at that page's twin, the
 * anchor kept: `[Errors](/guides/errors/#codes)` -> `[Errors](/guides/errors.md#codes)`.
 */
export function linkToTwins(markdown: string, twins: ReadonlyMap<string, string>): string {
  return outsideCode(markdown, (t) =>
    t.replace(/(\]\()(\/[^)\s#]*)(#[^)\s]*)?\)/g, (whole, open: string, target: string, hash = '') => {
      const twin = twins.get(target) ?? twins.get(`${target}/`);
      return twin ? `${open}${twin}${hash})` : whole;
    }),
  );
}

/** The markdown pages of the site's Starlight pages; `bodies` replaces a page's body by id (the events pages' HTML-free version). */
export function markdownPages(pages: Page[], bodies: ReadonlyMap<string, string> = new Map()): MarkdownPage[] {
  return pages.map((page) => {
    const { frontMatter, body } = readStarlightPage(page.markdown);
    const url = pageUrl(page.id);
    const markdown = (bodies.get(page.id) ?? body).trim();
    const title = String(frontMatter.title ?? page.id);
    return {
      url,
      twin: twinUrl(url),
      title,
      description: String(frontMatter.description ?? '') || firstSentence(markdown),
      body: markdown,
    };
  });
}

/** Every page's links pointed at the twins of the pages among them. */
export function linkedPages(pages: MarkdownPage[]): MarkdownPage[] {
  const twins = new Map(pages.map((p) => [p.url, p.twin]));
  return pages.map((p) => ({ ...p, body: linkToTwins(p.body, twins) }));
}

/** A twin's text: the title, the page's address, then its body. */
export function twinText(page: MarkdownPage): string {
  return `# ${page.title}\n\nPage: ${page.url} (this text: ${page.twin})\n\n${page.body.trim()}\n`;
}

export interface SiteSummary {
  /** The API's name: `Partner API`. */
  title: string;
  version: string;
  /** One line: what the API is. */
  summary: string;
}

/** The pages in the sidebar's order, by its groups (a page the sidebar does not list goes last, in its own group). */
export function pagesBySidebar(pages: MarkdownPage[], sidebar: SidebarGroup[]): { label: string; pages: MarkdownPage[] }[] {
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  const listed = new Set<string>();
  const groups = sidebar.map((group) => ({
    label: group.label,
    pages: group.items.flatMap((item) => {
      const url = typeof item === 'string' ? pageUrl(item) : item.link;
      const page = byUrl.get(url);
      if (!page || listed.has(url)) return [];
      listed.add(url);
      return [page];
    }),
  }));
  const rest = pages.filter((p) => !listed.has(p.url));
  return [...groups, ...(rest.length > 0 ? [{ label: 'More', pages: rest }] : [])].filter((g) => g.pages.length > 0);
}

/** What the site holds and how to read it as text: the opening of both files. */
function preamble(site: SiteSummary): string {
  return [
    `Version ${site.version} of the contract. Every page of the docs site has a markdown twin at its address with ` +
      '`.md` in place of the final slash (`/guides/errors/` -> `/guides/errors.md`, the home page `/index.md`, the ' +
      'API reference `/reference.md`, the simulation API `/reference/simulation.md`); `/llms-full.txt` holds them ' +
      'all in one file. The contract itself: `/openapi.json` (the API), `/asyncapi.json` (the webhook events), ' +
      "`/sandbox.json` (the local sandbox's simulation API).",
    '',
    'To try the API, run the local sandbox (`npx partner-api-sandbox`, from the npm package `@partner-api/contract`), ' +
      "or let an assistant drive it through the package's MCP server (`npx -y -p @partner-api/contract partner-api-mcp`): " +
      'see [the guide for assistants](/guides/assistants.md).',
  ].join('\n');
}

/** `llms.txt`: the index (llmstxt.org's format): title, summary, then a list of twins per sidebar group. */
export function llmsTxt(site: SiteSummary, groups: { label: string; pages: MarkdownPage[] }[]): string {
  const line = (p: MarkdownPage) => `- [${p.title}](${p.twin})${p.description ? `: ${p.description}` : ''}`;
  return [
    `# ${site.title}`,
    '',
    `> ${site.summary}`,
    '',
    preamble(site),
    '',
    ...groups.flatMap((g) => [`## ${g.label}`, '', ...g.pages.map(line), '']),
    '## Optional',
    '',
    '- [llms-full.txt](/llms-full.txt): every page above in one file',
    '- [openapi.json](/openapi.json): the OpenAPI 3.1 document of the API',
    '- [asyncapi.json](/asyncapi.json): the AsyncAPI 3.0 document of the webhook events',
    "- [sandbox.json](/sandbox.json): the OpenAPI document of the sandbox's simulation API",
    '',
  ].join('\n');
}

/**
 * `llms-full.txt`: every page, in the index's order. Each page starts with its title as the only level-1
 * heading of its text (the pages' own headings are level 2 and below), then a `Page:` line with its address.
 */
export function llmsFullTxt(site: SiteSummary, groups: { label: string; pages: MarkdownPage[] }[]): string {
  const pages = groups.flatMap((g) => g.pages);
  return [
    `# ${site.title}: the whole documentation`,
    '',
    `> ${site.summary}`,
    '',
    preamble(site),
    '',
    'Pages, in order:',
    '',
    ...pages.map((p) => `- ${p.title} (${p.url})`),
    '',
    ...pages.map(twinText),
  ].join('\n');
}

/** Writes every twin into the built site `outDir`. */
export function writeTwins(outDir: string, pages: MarkdownPage[]): void {
  for (const page of pages) {
    const file = path.join(outDir, ...page.twin.split('/').filter(Boolean));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, twinText(page));
  }
}

/** The tag by which a page's HTML names its twin, for a reader that asks for markdown. */
export const alternateLink = (twin: string) => `<link rel="alternate" type="text/markdown" href="${twin}">`;

/** Adds the alternate link of its twin to the HTML of every page of `outDir` that has one. */
export function linkTwinsFromPages(outDir: string, pages: MarkdownPage[]): void {
  for (const page of pages) {
    const file = path.join(outDir, ...page.url.split('/').filter(Boolean), 'index.html');
    if (!fs.existsSync(file)) throw new Error(`${path.relative(outDir, file)} is missing: the page ${page.url} was not built`);
    const html = fs.readFileSync(file, 'utf8');
    if (!html.includes('</head>')) throw new Error(`${path.relative(outDir, file)} has no </head>`);
    fs.writeFileSync(file, html.replace('</head>', `${alternateLink(page.twin)}</head>`));
  }
}

export interface AssistantDocs {
  /** Every page with its twin: the Starlight pages, then the reference pages. */
  pages: MarkdownPage[];
  llmsTxt: string;
  llmsFull: string;
}

/** The API reference (reference.ts) of the OpenAPI bundle. */
export const API_REFERENCE: ReferenceSource = {
  title: 'API reference',
  url: '/reference/',
  document: '/openapi.json',
  docsDocument: (openapi) => docsDocument(openapi) as JsonObject,
};

/**
 * The simulation API's page (simulation-reference.ts) of the sandbox bundle: its docs copy gives the sandbox's own
 * server, where the API reference's adds the sandbox beside production and code samples.
 */
export const SIMULATION_REFERENCE: ReferenceSource = {
  title: 'Simulation API',
  url: SIMULATION_ROUTE,
  document: '/sandbox.json',
  docsDocument: (sandbox) => simulationDocsDocument(sandbox) as JsonObject,
};

/** The bundles the docs for assistants are written from: the OpenAPI document, and the sandbox's when it was built. */
export interface AssistantBundles {
  openapi: Record<string, unknown>;
  sandbox?: Record<string, unknown>;
}

/** The twins, llms.txt and llms-full.txt of the site's content and the bundles. */
export function assistantDocs(content: SiteContent, bundles: AssistantBundles): AssistantDocs {
  const openapi = bundles.openapi as JsonObject;
  const info = isObject(openapi.info) ? openapi.info : {};
  const site: SiteSummary = {
    title: String(info.title ?? 'API'),
    version: String(info.version ?? ''),
    summary: String(info.summary ?? ''),
  };
  const eventPage = new Map(content.events.flatMap((page) => page.events.map((name) => [name, twinUrl(pageUrl(page.id))] as const)));
  const references = [
    { source: API_REFERENCE, document: openapi },
    ...(bundles.sandbox ? [{ source: SIMULATION_REFERENCE, document: bundles.sandbox as JsonObject }] : []),
  ].map(({ source, document }): MarkdownPage => {
    const page = referenceMarkdown(document, source, (name) => eventPage.get(name));
    return { url: source.url, twin: twinUrl(source.url), title: page.title, description: page.description, body: page.body };
  });
  const pages = linkedPages([...markdownPages(content.pages, new Map(content.events.map((e) => [e.id, e.markdown]))), ...references]);
  const groups = pagesBySidebar(pages, content.sidebar);
  return { pages, llmsTxt: llmsTxt(site, groups), llmsFull: llmsFullTxt(site, groups) };
}

/** Writes the twins, llms.txt and llms-full.txt into the built site `outDir`, and names each twin in its page's HTML. */
export function writeAssistantDocs(outDir: string, docs: AssistantDocs): void {
  writeTwins(outDir, docs.pages);
  linkTwinsFromPages(outDir, docs.pages);
  fs.writeFileSync(path.join(outDir, 'llms.txt'), docs.llmsTxt);
  fs.writeFileSync(path.join(outDir, 'llms-full.txt'), docs.llmsFull);
}
