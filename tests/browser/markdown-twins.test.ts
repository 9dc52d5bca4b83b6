// Browser test of the docs for assistants (npm run test:browser): every page names its markdown twin
// (`<link rel="alternate" type="text/markdown">`), the twin is served as markdown, and it has the page's headings
// as the reader sees them rendered: the title, then every heading of the content, in order. The API reference
// renders one route at a time: its twin has the description's sections of the landing route, and the heading of
// every operation and webhook under its tag, checked on the rendered route for the first operation of each tag
// and a webhook. The simulation API's twin has its page's title and the heading of every operation under its tag,
// checked on the rendered route for its first operation. llms.txt lists every twin. The files' contents:
// tests/docs/llms.test.ts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import pMap from 'p-map';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openSiteBrowser, PAGES_AT_ONCE, referenceRoutes, SITE, WAIT_MS, type SiteBrowser } from './browser.ts';
import { guidePages } from './layout.ts';
import { PROVISIONAL_BADGE } from '../../scripts/docs/reference.ts';

// The functions given to page.evaluate run in the page: its globals, which the Node typings do not declare.
declare const document: any;

let site: SiteBrowser;

/** The headings of a markdown text (outside fenced code) as the page shows them: `2 Text`, inline markup removed. */
function markdownHeadings(markdown: string): string[] {
  const found: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker) fence = marker;
    else if (fence !== undefined && marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
      fence = undefined;
    else if (fence === undefined) {
      const heading = /^(#{1,6}) (.+)$/.exec(line);
      if (heading) found.push(`${heading[1]!.length} ${plain(heading[2]!)}`);
    }
  }
  return found;
}

/**
 * Text as a comparison reads it: the typographic quotes, dashes and ellipsis that the pages' markdown renderer
 * makes of `'`, `"`, `--` and `...` (smartypants) back to what the markdown has, white space collapsed.
 */
const typed = (text: string) =>
  text
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/—/g, '---')
    .replace(/–/g, '--')
    .replace(/…/g, '...')
    .replace(/\s+/g, ' ')
    .trim();

/** A heading's text without markdown or HTML: links as their text, no code ticks, emphasis or tags. */
const plain = (text: string) =>
  typed(
    text
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*]/g, '')
      .replace(/\\(.)/g, '$1'),
  );

/** The twin a page's HTML names, and its text as the site serves it. */
async function twinOf(base: string, html: string, route: string): Promise<{ twin: string; text: string; type: string }> {
  const twin = /<link rel="alternate" type="text\/markdown" href="([^"]+)">/.exec(html)?.[1];
  assert.ok(twin, `/${route} names no markdown twin`);
  const response = await fetch(`${base}${twin}`);
  assert.equal(response.status, 200, `${twin} is served`);
  return { twin, text: await response.text(), type: response.headers.get('content-type') ?? '' };
}

/** The tag of a Redoc route: `#/cards/createcard` -> `cards`. */
const tagOf = (route: string) => route.split('/')[1]!;

/** The routes whose heading is not a `###` of the twin under the `##` of its tag (Redoc's slug of the tag's name). */
function routesNotUnderTag(routes: { route: string; heading: string }[], headings: string[]): string[] {
  const underTag = (heading: string, tag: string) => {
    const at = headings.indexOf(`3 ${heading}`);
    const section = headings
      .slice(0, at)
      .reverse()
      .find((h) => h.startsWith('2 '));
    return (
      at >= 0 &&
      section !== undefined &&
      section
        .slice(2)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-') === tag
    );
  };
  return routes.filter((r) => !underTag(r.heading, tagOf(r.route))).map((r) => r.route);
}

/**
 * The heading Redoc renders at `url` (a route of a reference page) for an operation titled `heading`, without
 * Redoc's tags beside it ("Provisional", "Webhook"): the twin says those in the line after the heading.
 */
async function renderedHeading(page: Page, url: string, heading: string): Promise<string> {
  await page.goto(url);
  const shown = page.locator('[data-testid="middle-panel"] h2', { hasText: heading }).first();
  await shown.waitFor({ timeout: WAIT_MS });
  const tags = await shown.locator('[data-component-name="Tag/Tag"]').allTextContents();
  assert.ok(
    tags.every((t) => ['Webhook', PROVISIONAL_BADGE.name].includes(t.trim())),
    `${url}: tags ${JSON.stringify(tags)}`,
  );
  return typed(
    await shown.evaluate((h: any) => {
      const copy = h.cloneNode(true);
      for (const tag of copy.querySelectorAll('[data-component-name="Tag/Tag"]')) tag.remove();
      return copy.textContent ?? '';
    }),
  );
}

describe('the markdown twins of the pages', () => {
  beforeAll(async () => {
    site = await openSiteBrowser();
  });

  afterAll(async () => {
    await site?.close();
  });

  test('every page has a twin with its rendered headings, in order', async () => {
    const pages = guidePages();
    assert.ok(pages.includes('guides/assistants/'), 'the guide for assistants is a page');
    assert.ok(pages.length >= 25, `the pages are found (${pages.length})`);
    const problems = await pMap(
      pages,
      async (route) => {
        const { page } = await site.open(route, { width: 1280, height: 900 });
        await page.locator('.sl-markdown-content').first().waitFor({ timeout: WAIT_MS });
        const rendered = (
          (await page.evaluate(() =>
            [
              ...[...document.querySelectorAll('main h1')].slice(0, 1),
              ...document.querySelectorAll('.sl-markdown-content :is(h1, h2, h3, h4, h5, h6)'),
            ].map((h: any) => `${h.tagName.slice(1)} ${h.textContent ?? ''}`),
          )) as string[]
        ).map(typed);
        const { twin, text, type } = await twinOf(site.base, await page.content(), route);
        await page.close();
        const found: string[] = [];
        if (!type.startsWith('text/markdown')) found.push(`${twin}: served as ${type}`);
        const expected = `/${route}`.replace(/\/$/, '') || '/index';
        if (twin !== `${expected}.md`) found.push(`/${route} names ${twin}, not ${expected}.md`);
        // The twin's own `Page:` line follows its title; its headings are the page's.
        const headings = markdownHeadings(text);
        if (JSON.stringify(headings) !== JSON.stringify(rendered)) {
          const missing = rendered.filter((h) => !headings.includes(h));
          const extra = headings.filter((h) => !rendered.includes(h));
          found.push(
            `${twin}: headings differ from /${route}'s (missing ${JSON.stringify(missing)}, extra ${JSON.stringify(extra)}${missing.length + extra.length === 0 ? ', order' : ''})`,
          );
        }
        return found;
      },
      { concurrency: PAGES_AT_ONCE },
    );
    assert.deepEqual(problems.flat(), []);
  }, 600_000);

  test("the API reference's twin has the landing route's sections and every operation and webhook, as the routes render them", async () => {
    const openapi = JSON.parse(fs.readFileSync(path.join(SITE, 'openapi.json'), 'utf8'));
    const { page } = await site.open('reference/', { width: 1400, height: 1000 });
    await page.locator('a[href*="/section/"]').first().waitFor({ timeout: WAIT_MS });
    const { twin, text } = await twinOf(site.base, await page.content(), 'reference/');
    assert.equal(twin, '/reference.md');
    const headings = markdownHeadings(text);
    assert.equal(headings[0], '1 API reference');

    // The landing route: the title (with the version), then the description's sections.
    const landing = (
      (await page.evaluate(() =>
        [...document.querySelectorAll('[data-testid="middle-panel"] :is(h1, h2)')].map(
          (h: any) => `${h.tagName.slice(1)} ${h.textContent ?? ''}`,
        ),
      )) as string[]
    ).map(typed);
    const [title, ...sections] = landing;
    assert.match(title ?? '', /^1 .+ \(\d+\.\d+\.\d+\)$/, 'the landing route starts with the title and version');
    assert.ok(text.includes(title!.slice(2)), `the twin names ${title!.slice(2)}`);
    assert.ok(sections.length >= 5, `the description's sections are rendered (${sections.length})`);
    assert.deepEqual(
      sections.filter((s) => !headings.includes(s)),
      [],
      'sections of the landing route missing from the twin',
    );

    // Every route's heading, under its tag; each tag's first operation and one webhook as rendered.
    const routes = referenceRoutes(openapi);
    assert.deepEqual(routesNotUnderTag(routes, headings), [], 'routes whose heading is not under its tag in the twin');
    const sampled = [...new Map(routes.filter((r) => !r.webhook).map((r) => [tagOf(r.route), r])).values(), routes.find((r) => r.webhook)!];
    for (const { route, heading } of sampled) {
      const rendered = await renderedHeading(page, `${site.base}/reference/${route}`, heading);
      assert.ok(headings.includes(`3 ${rendered}`), `${route}: the rendered heading "${rendered}" is a heading of the twin`);
    }
    await page.close();
  }, 300_000);

  test("the simulation API's twin has its page's title and every operation, as the routes render them", async () => {
    const sandbox = JSON.parse(fs.readFileSync(path.join(SITE, 'sandbox.json'), 'utf8'));
    const { page } = await site.open('reference/simulation/', { width: 1400, height: 1000 });
    await page.locator('[data-testid="middle-panel"] h1').first().waitFor({ timeout: WAIT_MS });
    const { twin, text, type } = await twinOf(site.base, await page.content(), 'reference/simulation/');
    assert.equal(twin, '/reference/simulation.md');
    assert.ok(type.startsWith('text/markdown'), `${twin}: served as ${type}`);
    const headings = markdownHeadings(text);
    assert.equal(headings[0], '1 Simulation API');
    const title = typed(await page.locator('[data-testid="middle-panel"] h1').first().innerText());
    assert.match(title, /\(\d+\.\d+\.\d+\)$/, 'the landing route starts with the title and version');
    assert.ok(text.includes(title), `the twin names ${title}`);

    // Every route's heading, under its tag; the first operation of the first tag as rendered.
    const routes = referenceRoutes(sandbox);
    assert.ok(routes.length >= 30, `the operations are found (${routes.length})`);
    assert.deepEqual(routesNotUnderTag(routes, headings), [], 'routes whose heading is not under its tag in the twin');
    const [first] = routes;
    const rendered = await renderedHeading(page, `${site.base}/reference/simulation/${first!.route}`, first!.heading);
    assert.ok(headings.includes(`3 ${rendered}`), `${first!.route}: the rendered heading "${rendered}" is a heading of the twin`);
    await page.close();
  }, 300_000);

  test('llms.txt lists every twin, and each is served', async () => {
    const index = await (await fetch(`${site.base}/llms.txt`)).text();
    const twins = [...index.matchAll(/^- \[[^\]]+\]\((\/[^)]+\.md)\)/gm)].map((m) => m[1]!);
    const pages = guidePages().map((route) => `${`/${route}`.replace(/\/$/, '') || '/index'}.md`);
    assert.deepEqual([...twins].sort(), [...pages, '/reference.md', '/reference/simulation.md'].sort());
    for (const twin of twins) assert.equal((await fetch(`${site.base}${twin}`, { method: 'HEAD' })).status, 200, twin);
    const full = await fetch(`${site.base}/llms-full.txt`);
    assert.equal(full.status, 200);
    assert.ok((await full.text()).length > 100_000, 'llms-full.txt holds every page');
  });
});
