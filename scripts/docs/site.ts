// Builds the rendered docs site (site/ by default, gitignored) from the bundles in generated/ and the
// guides in docs/. Works offline: Redoc is inlined into its page, and the events page is static HTML.
//
//   site/index.html       Redoc (redocly build-docs --inlineBundle) of a docs-only copy of openapi.json whose
//                         info.description carries the guides and the generated list of provisional parts
//   site/asyncapi.html    the events, from the AsyncAPI document, as static HTML (events-page.ts)
//   site/openapi.json|yaml, site/asyncapi.json|yaml   the bundles, for download
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addCodeSamples, redocCodeSamplesOption } from './code-samples.ts';
import { eventsPage } from './events-page.ts';
import { findProvisional, provisionalMarkdown } from './provisional.ts';
import { withPageStyle } from './page-style.ts';
import { ROOT } from '../lib/paths.ts';
import { redocly } from '../lib/redocly.ts';

export const SITE_DIR = path.join(ROOT, 'site');
const GENERATED = path.join(ROOT, 'generated');
const DOCS = path.join(ROOT, 'docs');

/** The guides rendered into the site, in reading order. `webhooks.md` is the webhook toolkit's guide. */
export const GUIDES = ['getting-started.md', 'quickstart.md', 'authentication.md', 'errors.md', 'idempotency.md', 'limits.md', 'compatibility.md', 'webhooks.md'] as const;

type JsonObject = { [key: string]: unknown };

export interface Guide {
  file: string;
  /** The first `# ` heading of the file. */
  title: string;
  markdown: string;
}

/** Redoc's route for a top-level description heading: `#/section/getting-started`. */
export function sectionAnchor(title: string): string {
  return `#/section/${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}

/**
 * Redoc's sidebar shows a "docs by" logo loaded from Redocly's CDN; offline that is a failed request and a
 * console error. The page keeps the link and text, and the image becomes a local, inline one.
 */
const CDN_LOGOS = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const LOCAL_LOGO =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='48' height='12'%3E%3Ctext x='0' y='10' " +
  "font-family='sans-serif' font-size='10'%3ERedoc%3C/text%3E%3C/svg%3E";

export function offlineRedoc(html: string): string {
  return html.replace(CDN_LOGOS, LOCAL_LOGO);
}

/** Reads the guides that exist; returns them and the names of those missing. */
export function readGuides(dir = DOCS): { guides: Guide[]; missing: string[] } {
  const guides: Guide[] = [];
  const missing: string[] = [];
  for (const file of GUIDES) {
    const full = path.join(dir, file);
    if (!fs.existsSync(full)) {
      missing.push(file);
      continue;
    }
    const markdown = fs.readFileSync(full, 'utf8');
    const title = /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? file.replace(/\.md$/, '');
    guides.push({ file, title, markdown });
  }
  return { guides, missing };
}

/**
 * Adapts a guide to Redoc's description: links to another guide (`errors.md`, `./limits.md#x`) become
 * anchors of its section, and links to repository files point at the bundles shipped with the site.
 */
export function adaptGuide(markdown: string, guides: Guide[]): string {
  const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  const own = sectionAnchor(/^# (.+)$/m.exec(markdown)?.[1] ?? '');
  const subsections = new Set([...markdown.matchAll(/^## (.+)$/gm)].map((m) => slug(m[1] ?? '')));
  // In-page links (`#the-raw-body-pitfall`) become Redoc routes of this guide's subsections.
  const local = markdown.replace(/\]\(#([\w-]+)\)/g, (_, anchor: string) =>
    `](${subsections.has(anchor) ? `${own}/${anchor}` : own})`,
  );
  return local.replace(/\]\((?:\.\/)?([\w.-]+\.md)(#[^)]*)?\)/g, (whole, file: string) => {
    const target = guides.find((g) => g.file === file);
    return target ? `](${sectionAnchor(target.title)})` : whole;
  }).replace(/\]\((?:\.\.\/)?generated\/((?:open|async)api\.(?:json|yaml))\)/g, ']($1)');
}

/**
 * The docs-only copy of the OpenAPI bundle: guides and the provisional list in info.description, the
 * "Provisional" badges, and a curl and a TypeScript sample on every operation (scripts/docs/code-samples.ts).
 */
export function docsDocument(openapi: JsonObject, guides: Guide[]): JsonObject {
  const copy = structuredClone(openapi);
  const info = (copy.info ?? {}) as JsonObject;
  const intro = [
    '# Overview',
    '',
    'Downloads: [openapi.json](openapi.json), [openapi.yaml](openapi.yaml), [asyncapi.json](asyncapi.json), ' +
      '[asyncapi.yaml](asyncapi.yaml). The events are also rendered from the AsyncAPI document: ' +
      '[AsyncAPI reference](asyncapi.html).',
    '',
    String(info.description ?? '').replace(/^## Provisional parts[\s\S]*?(?=^## |(?![\s\S]))/m, ''),
  ].join('\n');
  const sections = guides.map((g) => adaptGuide(g.markdown, guides).trim());
  sections.push(provisionalMarkdown(findProvisional(openapi as never)).trim());
  info.description = [intro.trim(), ...sections].join('\n\n');
  copy.info = info;
  addProvisionalBadges(copy);
  addCodeSamples(copy);
  return copy;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Redoc's badge on an operation (`x-badges`), shown beside its heading. */
export const PROVISIONAL_BADGE = { name: 'Provisional', color: '#b45309' } as const;

/**
 * Gives every operation (and webhook) marked `x-provisional: true` the "Provisional" badge, in the docs copy
 * only: spec/ keeps `x-provisional` as the one source.
 */
export function addProvisionalBadges(doc: JsonObject): void {
  for (const group of ['paths', 'webhooks']) {
    for (const item of Object.values((doc[group] ?? {}) as Record<string, JsonObject>)) {
      for (const method of METHODS) {
        const op = item[method] as JsonObject | undefined;
        if (!op || op['x-provisional'] !== true) continue;
        const badges = Array.isArray(op['x-badges']) ? (op['x-badges'] as unknown[]) : [];
        op['x-badges'] = [...badges, { ...PROVISIONAL_BADGE }];
      }
    }
  }
}

function countBadges(doc: JsonObject): number {
  return ['paths', 'webhooks'].flatMap((group) => Object.values((doc[group] ?? {}) as Record<string, JsonObject>))
    .flatMap((item) => METHODS.map((m) => item[m] as JsonObject | undefined))
    .filter((op) => Array.isArray(op?.['x-badges']) && (op['x-badges'] as { name?: string }[]).some((b) => b.name === PROVISIONAL_BADGE.name)).length;
}

function readBundle(dir: string, file: string): JsonObject {
  const full = path.join(dir, file);
  if (!fs.existsSync(full)) throw new Error(`${path.relative(ROOT, full)} is missing: run \`npm run build\` first.`);
  return JSON.parse(fs.readFileSync(full, 'utf8')) as JsonObject;
}

export interface SiteResult {
  outDir: string;
  files: string[];
  missingGuides: string[];
  provisionalCount: number;
  /** Operations and webhooks shown with the "Provisional" badge. */
  badgeCount: number;
  seconds: number;
}

/** Builds the whole site into `outDir` (emptied first) from the bundles in `generatedDir`. */
export async function buildSite(outDir = SITE_DIR, generatedDir = GENERATED): Promise<SiteResult> {
  const started = performance.now();
  const openapi = readBundle(generatedDir, 'openapi.json');
  const asyncapi = readBundle(generatedDir, 'asyncapi.json');
  const { guides, missing } = readGuides();

  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-site-'));
  let badgeCount = 0;
  try {
    const docsJson = path.join(work, 'openapi.docs.json');
    const docs = docsDocument(openapi, guides);
    badgeCount = countBadges(docs);
    fs.writeFileSync(docsJson, JSON.stringify(docs, null, 2));
    // Redoc's options, in the redocly.yaml that build-docs reads from its working directory (JSON is YAML):
    // `--openapi.*` flags would replace the file's options, and `codeSamples.languages` is a list.
    const options = { hideDownloadButtons: false, jsonSamplesExpandLevel: 3, ...redocCodeSamplesOption() };
    fs.writeFileSync(path.join(work, 'redocly.yaml'), JSON.stringify({ openapi: options }, null, 2));
    const info = (openapi.info ?? {}) as JsonObject;
    const result = await redocly(
      ['build-docs', docsJson, '--inlineBundle', '--output', path.join(outDir, 'index.html'),
        '--title', `${String(info.title ?? 'API')} ${String(info.version ?? '')}`.trim()],
      work,
    );
    if (result.code !== 0) throw new Error(`redocly build-docs failed:\n${result.output}`);
    const index = path.join(outDir, 'index.html');
    fs.writeFileSync(index, withPageStyle(offlineRedoc(fs.readFileSync(index, 'utf8'))));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  fs.writeFileSync(path.join(outDir, 'asyncapi.html'), eventsPage(asyncapi));
  for (const file of ['openapi.json', 'openapi.yaml', 'asyncapi.json', 'asyncapi.yaml']) {
    const from = path.join(generatedDir, file);
    if (fs.existsSync(from)) fs.copyFileSync(from, path.join(outDir, file));
  }
  return {
    outDir,
    files: fs.readdirSync(outDir).sort(),
    missingGuides: missing,
    provisionalCount: findProvisional(openapi as never).length,
    badgeCount,
    seconds: (performance.now() - started) / 1000,
  };
}
