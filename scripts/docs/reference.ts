// The API reference of the docs site (site/reference/), rendered from the contract by Redocly (Redoc 3,
// `redocly build-docs`), apart from the guides:
// - the page is Redoc's server-rendered HTML with the docs copy of the OpenAPI bundle; Redoc's script is a file
//   of its own beside it (reference/redoc.standalone.js, the copy the Redocly CLI ships, so nothing is fetched
//   from a CDN): the browser compiles it while the page streams in, instead of parsing 3 MB of inline script
//   first, which is what makes an operation link paint in under a second instead of two to three;
// - the docs copy (docsDocument) carries the "Provisional" badges, the code samples and the local sandbox's
//   servers; the guides are pages of their own;
// - the site's header bar (the same links as on the guide pages) sits above Redoc, and the colour scheme
//   chosen on either side is the other's too.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addCodeSamples, redocCodeSamplesOption } from './code-samples.ts';
import { withEarlyHeading } from './early-heading.ts';
import { withPageStyle } from './page-style.ts';
import { findProvisional } from './provisional.ts';
import { addSandboxServers } from './servers.ts';
import { SITE_LINKS } from './site-links.ts';
import { tryItData, withTryIt, writeTryItAssets } from './try-it.ts';
import { ROOT } from '../lib/paths.ts';
import { redocly } from '../lib/redocly.ts';
import { contractModel, type JsonObject as ContractDocument, type Operation } from '../../src/contract/model.ts';

type JsonObject = { [key: string]: unknown };

/** The Redoc bundle the Redocly CLI inlines with `--inlineBundle`; served beside the page instead. */
export const REDOC_BUNDLE = path.join(ROOT, 'node_modules', '@redocly', 'cli', 'lib', 'chunks', 'redoc.standalone.js');
const REDOC_CDN = /https:\/\/cdn\.redocly\.com\/redoc\/v[\d.]+\/bundles\/redoc\.standalone\.js/g;

/**
 * Redoc's sidebar shows a "docs by" logo loaded from Redocly's CDN; offline that is a failed request and a
 * console error. The page keeps the link and text, and the image becomes a local, inline one.
 */
const CDN_LOGOS = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const LOCAL_LOGO =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='48' height='12'%3E%3Ctext x='0' y='10' " +
  "font-family='sans-serif' font-size='10'%3ERedoc%3C/text%3E%3C/svg%3E";

export function offlineRedoc(text: string): string {
  return text.replace(CDN_LOGOS, LOCAL_LOGO);
}

/** Redoc's badge on an operation (`x-badges`), shown beside its heading. */
export const PROVISIONAL_BADGE = { name: 'Provisional', color: '#b45309' } as const;

/**
 * Gives every operation (and webhook) marked `x-provisional: true` the "Provisional" badge, in the docs copy
 * only: spec/ keeps `x-provisional` as the one source.
 */
export function addProvisionalBadges(doc: JsonObject): void {
  for (const { node: op, provisional } of operationsAndWebhooks(doc)) {
    if (!provisional) continue;
    const badges = Array.isArray(op['x-badges']) ? op['x-badges'] : [];
    op['x-badges'] = [...badges, { ...PROVISIONAL_BADGE }];
  }
}

/** The operations of `paths`, then those of `webhooks`, in document order. */
function operationsAndWebhooks(doc: JsonObject): Operation[] {
  const model = contractModel(doc as ContractDocument);
  return [...model.operations, ...model.webhooks];
}

export function countBadges(doc: JsonObject): number {
  return operationsAndWebhooks(doc).filter(
    ({ node }) =>
      Array.isArray(node['x-badges']) && (node['x-badges'] as { name?: string }[]).some((b) => b.name === PROVISIONAL_BADGE.name),
  ).length;
}

/**
 * The docs-only copy of the OpenAPI bundle: the API's description with links to the guides and the downloads
 * (its list of provisional parts is a page of the site), the "Provisional" badges, the code samples on every
 * operation, and the servers as a reader can use them (servers.ts).
 */
export function docsDocument(openapi: JsonObject): JsonObject {
  const copy = structuredClone(openapi);
  const info = (copy.info ?? {}) as JsonObject;
  const description = String(info.description ?? '')
    .replace(/^## Provisional parts[\s\S]*?(?=^## |(?![\s\S]))/m, '')
    .trim();
  info.description = [
    'The guides (getting started, authentication, errors, webhooks ...), the events and the changelog are on the ' +
      '[guide pages](/guides/getting-started/); the ' +
      `[${findProvisional(openapi as never).length} provisional parts](/guides/provisional-parts/) are listed there too. ` +
      'Downloads: [openapi.json](/openapi.json), [openapi.yaml](/openapi.yaml), [asyncapi.json](/asyncapi.json), ' +
      '[asyncapi.yaml](/asyncapi.yaml), and a [Postman collection](/partner-api.postman_collection.json) for the local sandbox.',
    '',
    description,
  ].join('\n');
  copy.info = info;
  addProvisionalBadges(copy);
  addCodeSamples(copy);
  addSandboxServers(copy);
  return copy;
}

/** The bar above Redoc: the site's title and links, as in the guide pages' header. */
function siteHeader(title: string): string {
  const links = SITE_LINKS.map(
    ({ label, href }) => `<a href="${href}"${href === '/reference/' ? ' aria-current="page"' : ''}>${label}</a>`,
  ).join('');
  return `<header class="site-nav"><a class="site-title" href="/">${title}</a><nav aria-label="Site">${links}</nav></header>`;
}

/**
 * The colour scheme: the guide pages (Starlight) keep the reader's choice in localStorage `starlight-theme`
 * (`light`, `dark`, or empty for the system's), Redoc in `redoc.colorMode`. Before Redoc reads its own, the
 * page copies Starlight's; when the reader switches Redoc's, Starlight's follows.
 */
const THEME_SYNC = `<script>try{var t=localStorage.getItem('starlight-theme');if(t==='light'||t==='dark')localStorage.setItem('redoc.colorMode',t);else localStorage.removeItem('redoc.colorMode');new MutationObserver(function(){var c=document.documentElement.classList;var m=c.contains('dark')?'dark':c.contains('light')?'light':'';if(m&&localStorage.getItem('redoc.colorMode')===m)localStorage.setItem('starlight-theme',m)}).observe(document.documentElement,{attributes:true,attributeFilter:['class']})}catch(e){}</script>`;

/** The header's look, in the guide pages' colours (Starlight's defaults), light and dark. */
const HEADER_STYLE = `<style id="site-nav-style">
.site-nav{position:fixed;top:0;left:0;right:0;z-index:100;height:56px;display:flex;align-items:center;gap:24px;padding:0 24px;box-sizing:border-box;background:#fff;border-bottom:1px solid #e2e8f0;font:600 14px/1 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
.site-nav a{color:#545861;text-decoration:none;white-space:nowrap}
.site-nav a:hover,.site-nav a[aria-current=page]{color:#17181c}
.site-nav .site-title{font-size:20px;color:#17181c;margin-right:auto}
.site-nav nav{display:flex;gap:20px;overflow-x:auto}
html.dark .site-nav{background:#17181c;border-color:#353841}
html.dark .site-nav a{color:#c0c2c7}
html.dark .site-nav a:hover,html.dark .site-nav a[aria-current=page],html.dark .site-nav .site-title{color:#fff}
html:root #redoc>div{--navbar-height:56px!important;--navbar-stack-height:56px!important}
body{padding-top:56px}
@media (max-width:600px){.site-nav{gap:12px;padding:0 12px}.site-nav .site-title{font-size:16px}.site-nav nav{gap:12px}}
</style>`;

/** Redoc's script as served beside the page, and its Subresource Integrity value. */
export function redocScript(): { text: string; integrity: string } {
  const text = offlineRedoc(fs.readFileSync(REDOC_BUNDLE, 'utf8'));
  return { text, integrity: `sha384-${createHash('sha384').update(text).digest('base64')}` };
}

/**
 * Redoc's links to its own sections and operations (react-router's, marked `data-discover`), as its browser
 * code writes them, in its hash router's form: `#/section/envelopes`, `#/cards`. Its server render writes them as
 * paths from the site's root (`/section/envelopes`), which no file answers when a link is opened on its own, in
 * a new tab; and React keeps an attribute of the server's HTML that differs from its own render, so on the
 * landing page, which hydrates as rendered, those paths would be the links. Redoc has no option for it: its
 * `router: history` makes every link a path (each would need a copy of the page), and its server render ignores
 * the option anyway.
 */
export function hashLinks(html: string): string {
  return html.replace(/(<a\b[^>]*?\shref=")(\/[^"#]*)("[^>]*\sdata-discover="true")/g, '$1#$2$3');
}

/**
 * The built page, made to work offline (Redoc's script from beside it, with the integrity of that copy) and
 * given the site's header and colour-scheme link.
 */
export function finishReferencePage(html: string, title: string, integrity: string): string {
  if (!html.match(REDOC_CDN))
    throw new Error('the rendered reference does not import Redoc from where it was expected; check redocly build-docs');
  const page = offlineRedoc(html.replace(REDOC_CDN, './redoc.standalone.js'))
    .replace(/(<link rel="modulepreload" href="\.\/redoc\.standalone\.js" integrity=")[^"]*"/, `$1${integrity}"`)
    .replace('<head>', `<head>\n${THEME_SYNC}`)
    .replace('</head>', `${HEADER_STYLE}</head>`)
    .replace(/<body>/, `<body>\n${siteHeader(title)}`);
  return withPageStyle(page);
}

export interface ReferenceOptions {
  /** The heading of a linked operation before Redoc renders (early-heading.ts); off for npm run bench:docs's "before". */
  earlyHeading?: boolean;
}

export interface ReferenceResult {
  badgeCount: number;
}

/** Builds site/reference/ (index.html and Redoc's script) from the OpenAPI bundle. */
export async function buildReference(
  openapi: JsonObject,
  outDir: string,
  { earlyHeading = true }: ReferenceOptions = {},
): Promise<ReferenceResult> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-reference-'));
  try {
    const docsJson = path.join(work, 'openapi.docs.json');
    const docs = docsDocument(openapi);
    fs.writeFileSync(docsJson, JSON.stringify(docs));
    // Redoc's options, in the redocly.yaml that build-docs reads from its working directory (JSON is YAML):
    // `--openapi.*` flags would replace the file's options, and `codeSamples.languages` is a list.
    const options = { hideDownloadButtons: false, jsonSamplesExpandLevel: 3, ...redocCodeSamplesOption() };
    fs.writeFileSync(path.join(work, 'redocly.yaml'), JSON.stringify({ openapi: options }, null, 2));
    const info = (openapi.info ?? {}) as JsonObject;
    const title = `${String(info.title ?? 'API')} ${String(info.version ?? '')}`.trim();
    const index = path.join(outDir, 'index.html');
    const result = await redocly(['build-docs', docsJson, '--output', index, '--title', `${title}: API reference`], work);
    if (result.code !== 0) throw new Error(`redocly build-docs failed:\n${result.output}`);
    const script = redocScript();
    const page = hashLinks(finishReferencePage(fs.readFileSync(index, 'utf8'), String(info.title ?? 'API'), script.integrity));
    // The "Try it" console (try-it.ts): a button per operation that sends it to the local sandbox.
    fs.writeFileSync(index, withTryIt(earlyHeading ? withEarlyHeading(page, docs) : page, tryItData(docs)));
    fs.writeFileSync(path.join(outDir, 'redoc.standalone.js'), script.text);
    writeTryItAssets(outDir);
    return { badgeCount: countBadges(docs) };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
