// Builds the docs site (site/ by default, gitignored) from the bundles in generated/ and the guides. Works
// offline and is served as static files (npm start serves it; any static server will do):
//
//   site/index.html, site/guides/<guide>/, site/changelog/   the guides (guides.ts), pages built by Starlight
//   site/events/, site/events/<group>/                         the webhook events, from the AsyncAPI bundle
//   site/guides/provisional-parts/                              the provisional parts, from the x-provisional marks
//   site/workflows/<page>/                                      the workflow pages of generated/workflows/ (guides.ts)
//   site/pagefind/                                              the search index of all of the above
//   site/reference/                                             the API reference, Redoc (reference.ts), with a
//                                                               "Try it" console per operation (try-it.ts)
//   site/reference/simulation/                                  the simulation API (sandbox.json), the same way
//                                                               (simulation-reference.ts)
//   site/openapi.json|yaml, site/asyncapi.json|yaml             the bundles, for download (and sandbox.json, the
//                                                               simulation API; webhook-vectors.json, the signature's
//                                                               test vectors)
//   site/partner-api.postman_collection.json                    a collection for API clients (collection.ts)
//   site/asyncapi.html                                          the former events page's address, sent on
//   site/<page>.md, site/llms.txt, site/llms-full.txt           every page as markdown, for assistants (llms.ts)
import fs from 'node:fs';
import path from 'node:path';
import { postmanCollection, COLLECTION_FILE } from './collection.ts';
import { eventsPages, legacyEventsRedirect, type EventsPage } from './events-page.ts';
import {
  adaptLinks,
  GUIDES,
  partnerText,
  readGuides,
  splitTitle,
  starlightPage,
  WORKFLOW_PAGES_DIR,
  workflowSources,
  type Guide,
  type GuideSource,
} from './guides.ts';
import { assistantDocs, writeAssistantDocs } from './llms.ts';
import { findProvisional, provisionalMarkdown } from './provisional.ts';
import { buildReference } from './reference.ts';
import { buildSimulationReference } from './simulation-reference.ts';
import { buildStarlight, type Page, type SidebarGroup } from './starlight.ts';
import { ROOT } from '../lib/paths.ts';

export const SITE_DIR = path.join(ROOT, 'site');
const GENERATED = path.join(ROOT, 'generated');
/** The Starlight project the pages are written into before Astro builds them (gitignored). */
const WORK_DIR = path.join(ROOT, '.tmp', 'docs-site');

type JsonObject = { [key: string]: unknown };

export interface SiteResult {
  outDir: string;
  files: string[];
  missingGuides: string[];
  /** Pages built by Starlight (guides, events, provisional parts, workflows, home). */
  pages: number;
  provisionalCount: number;
  /** Operations and webhooks shown with the "Provisional" badge. */
  badgeCount: number;
  seconds: number;
}

function readBundle(dir: string, file: string): JsonObject {
  const full = path.join(dir, file);
  if (!fs.existsSync(full)) throw new Error(`${path.relative(ROOT, full)} is missing: run \`npm run build\` first.`);
  return JSON.parse(fs.readFileSync(full, 'utf8')) as JsonObject;
}

/** The pages the workflows' renderer wrote (see WORKFLOW_PAGES_DIR), as site pages under workflows/ (the index first), their links adapted. */
export function workflowPages(dir = WORKFLOW_PAGES_DIR): Page[] {
  const sources = workflowSources(dir);
  const id = (source: GuideSource) => source.route.replace(/\/$/, '') + (source.route === 'workflows/' ? '/index' : '');
  return [...sources]
    .sort((a, b) => Number(b.route === 'workflows/') - Number(a.route === 'workflows/'))
    .map((source) => {
      const { title, body } = splitTitle(fs.readFileSync(path.join(ROOT, source.file), 'utf8'), path.basename(source.file, '.md'));
      return { id: id(source), markdown: starlightPage({ title }, adaptLinks(partnerText(body), source.file, [...GUIDES, ...sources])) };
    });
}

/** The home page: what the API does (the contract's own words), and where to go next. */
function homePage(openapi: JsonObject, guides: Guide[]): Page {
  const info = (openapi.info ?? {}) as JsonObject;
  const intro = String(info.description ?? '')
    .split(/^## /m)[0]!
    .trim();
  const link = (route: string) => {
    const guide = guides.find((g) => g.route === route);
    return guide ? `[${guide.title}](/${guide.route})` : undefined;
  };
  const start = ['guides/getting-started/', 'guides/quickstart/'].map(link).filter(Boolean).join(', then ');
  return {
    id: 'index',
    markdown: starlightPage(
      { title: String(info.title ?? 'API'), description: String(info.summary ?? '') },
      [
        `Version ${String(info.version ?? '')} of the contract. ${String(info.summary ?? '')}`,
        '',
        intro,
        '',
        '## Where to start',
        '',
        `- ${start ? `Read ${start}.` : 'Read the guides.'}`,
        '- The [API reference](/reference/) lists every operation, with its samples in curl, TypeScript, Python, Go, ' +
          'Java, C#, PHP and Node, and every webhook event.',
        "- The [events](/events/) pages show each event's payload, its signed headers and an example delivery you can verify.",
        '- Download the contract: [openapi.json](/openapi.json), [openapi.yaml](/openapi.yaml), ' +
          '[asyncapi.json](/asyncapi.json), [asyncapi.yaml](/asyncapi.yaml); and a ' +
          `[Postman collection](/${COLLECTION_FILE}) set up for the local sandbox (import it in Postman, Insomnia or Bruno).`,
      ].join('\n'),
    ),
  };
}

/** The sidebar: the guides by group, the reference and the events, and the workflows when there are any. */
function sidebar(guides: Guide[], events: { id: string; title: string }[], workflows: Page[]): SidebarGroup[] {
  const ids = (group: Guide['group']) => guides.filter((g) => g.group === group).map((g) => g.route.replace(/\/$/, ''));
  const groups: SidebarGroup[] = [
    { label: 'Start here', items: [{ label: 'Overview', link: '/' }, ...ids('Start here')] },
    { label: 'Guides', items: ids('Guides') },
    { label: 'Tools', items: ids('Tools') },
    {
      label: 'Reference',
      items: [
        { label: 'API reference', link: '/reference/' },
        { label: 'Simulation API', link: '/reference/simulation/' },
        ...ids('Reference'),
        'guides/provisional-parts',
      ],
    },
    { label: 'Events', items: events.map((e) => e.id.replace(/\/index$/, '')) },
  ];
  if (workflows.length > 0) groups.push({ label: 'Workflows', items: workflows.map((w) => w.id.replace(/\/index$/, '')) });
  return groups;
}

/** What the site publishes, before anything is built: its Starlight pages and sidebar, and what they were made of. */
export interface SiteContent {
  pages: Page[];
  sidebar: SidebarGroup[];
  guides: Guide[];
  missingGuides: string[];
  events: EventsPage[];
}

/** The pages and sidebar of the site, from the bundles (already read) and the guides. */
export function siteContent(openapi: JsonObject, asyncapi: JsonObject): SiteContent {
  const { guides, missing } = readGuides();
  const events = eventsPages(asyncapi);
  const workflows = workflowPages();
  const provisional = splitTitle(provisionalMarkdown(findProvisional(openapi as never)), 'Provisional parts');
  const pages: Page[] = [
    homePage(openapi, guides),
    ...guides.map((g) => ({ id: g.route.replace(/\/$/, ''), markdown: starlightPage({ title: g.title }, g.body) })),
    { id: 'guides/provisional-parts', markdown: starlightPage({ title: provisional.title }, provisional.body) },
    ...events.map((e) => ({
      id: e.id,
      markdown: starlightPage({ title: e.title, description: e.description, tableOfContents: { maxHeadingLevel: 2 } }, e.body),
    })),
    ...workflows,
  ];
  return { pages, sidebar: sidebar(guides, events, workflows), guides, missingGuides: missing, events };
}

/** Reads the bundles the site is built from: the OpenAPI and AsyncAPI documents of `generatedDir`, and the sandbox's when it was built. */
export function readBundles(generatedDir = GENERATED): { openapi: JsonObject; asyncapi: JsonObject; sandbox?: JsonObject } {
  return {
    openapi: readBundle(generatedDir, 'openapi.json'),
    asyncapi: readBundle(generatedDir, 'asyncapi.json'),
    sandbox: fs.existsSync(path.join(generatedDir, 'sandbox.json')) ? readBundle(generatedDir, 'sandbox.json') : undefined,
  };
}

/** Builds the whole site into `outDir` (emptied first) from the bundles in `generatedDir`. */
export async function buildSite(outDir = SITE_DIR, generatedDir = GENERATED): Promise<SiteResult> {
  const started = performance.now();
  const { openapi, asyncapi, sandbox } = readBundles(generatedDir);
  const content = siteContent(openapi, asyncapi);
  const { pages, missingGuides: missing } = content;
  const info = (openapi.info ?? {}) as JsonObject;
  fs.rmSync(outDir, { recursive: true, force: true });
  await buildStarlight(
    { title: String(info.title ?? 'API'), description: String(info.summary ?? ''), pages, sidebar: content.sidebar },
    WORK_DIR,
    outDir,
  );
  const { badgeCount } = await buildReference(openapi, path.join(outDir, 'reference'));
  if (sandbox) await buildSimulationReference(sandbox, path.join(outDir, 'reference', 'simulation'), String(info.title ?? 'API'));
  fs.writeFileSync(path.join(outDir, 'asyncapi.html'), legacyEventsRedirect(content.events));
  for (const file of ['openapi.json', 'openapi.yaml', 'asyncapi.json', 'asyncapi.yaml', 'sandbox.json']) {
    const from = path.join(generatedDir, file);
    if (fs.existsSync(from)) fs.copyFileSync(from, path.join(outDir, file));
  }
  fs.copyFileSync(path.join(ROOT, 'tests', 'fixtures', 'webhook-vectors.json'), path.join(outDir, 'webhook-vectors.json'));
  fs.writeFileSync(path.join(outDir, COLLECTION_FILE), `${JSON.stringify(await postmanCollection(openapi), null, 2)}\n`);
  writeAssistantDocs(outDir, assistantDocs(content, { openapi, sandbox }));
  return {
    outDir,
    files: fs.readdirSync(outDir).sort(),
    missingGuides: missing,
    pages: pages.length,
    provisionalCount: findProvisional(openapi as never).length,
    badgeCount,
    seconds: (performance.now() - started) / 1000,
  };
}
