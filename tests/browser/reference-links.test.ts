// Browser test of the API reference's links (site/reference/), as a reader opens them:
// - an operation's link lands on its heading: at once the early heading (scripts/docs/early-heading.ts, shown
//   here with Redoc's script held back), then Redoc's own, in the window at the same place; how fast is
//   npm run bench:docs's figure, not this test's;
// - every href of the page, resolved against the page's address, answers 200 when fetched on its own (as a new
//   tab would open it) from the static server, which serves the files as published; Redoc's server render
//   wrote its links as paths from the site's root (`/section/envelopes`, `/cards`) that only its router knew;
// - a link of Redoc's opened on its own lands on the section that clicking it shows.
// Screenshots: test-results/browser/reference-link-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openSiteBrowser, redocRendered, referenceRoutes, SHOTS, SITE, WAIT_MS, type SiteBrowser } from './browser.ts';

// The functions given to page.evaluate run in the page: its globals, which the Node typings do not declare.
declare const document: any, window: any;

type Json = Record<string, any>;
const openapi: Json = JSON.parse(fs.readFileSync(path.join(SITE, 'openapi.json'), 'utf8'));

/** The height of the site's header above Redoc (scripts/docs/reference.ts). */
const HEADER = 56;

let site: SiteBrowser;

/**
 * The text of the topmost heading (h1, h2) that is in the window below the header, and where it stands;
 * the early heading counts as one.
 */
function headingInView(page: Page): Promise<{ text: string; top: number; early: boolean } | null> {
  return page.evaluate((header) => {
    let best: { text: string; top: number; early: boolean } | null = null;
    for (const h of document.querySelectorAll('#redoc h1, #redoc h2')) {
      const r = h.getBoundingClientRect();
      if (r.height === 0 || r.top < header - 1 || r.top >= window.innerHeight) continue;
      if (!best || r.top < best.top)
        best = { text: (h.textContent ?? '').trim(), top: Math.round(r.top), early: !!h.closest('.early-heading') };
    }
    return best;
  }, HEADER);
}

/** Waits until the topmost heading in the window starts with `text` (Redoc scrolls after it renders). */
async function waitForHeadingInView(page: Page, text: string): Promise<{ text: string; top: number; early: boolean }> {
  try {
    await page.waitForFunction(
      ({ header, text }) =>
        [...document.querySelectorAll('#redoc h1, #redoc h2')]
          .map((h: any) => ({ h, r: h.getBoundingClientRect() }))
          .filter(({ r }) => r.height > 0 && r.top >= header - 1 && r.top < window.innerHeight)
          .sort((a, b) => a.r.top - b.r.top)[0]
          ?.h.textContent.trim()
          .startsWith(text),
      { header: HEADER, text },
      { timeout: WAIT_MS },
    );
  } catch {
    assert.fail(`no heading "${text}" at the top of the window: ${JSON.stringify(await headingInView(page))}`);
  }
  return (await headingInView(page))!;
}

/** Every href of the page's links, resolved against its address, without the fragment. */
function hrefsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found = new Set<string>();
    for (const a of document.querySelectorAll('a[href]')) {
      const url = new URL(a.getAttribute('href'), document.baseURI);
      url.hash = '';
      found.add(url.href);
    }
    return [...found];
  });
}

describe('API reference links', () => {
  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    site = await openSiteBrowser();
  });

  afterAll(async () => {
    await site?.close();
  });

  test("an operation's link shows its heading in the window at once, and Redoc's at the same place", async () => {
    const routes = referenceRoutes(openapi);
    const cases = [routes.find((r) => r.route === '#/cards/withdrawfromcard')!, routes.find((r) => r.webhook)!];
    assert.ok(cases.every(Boolean), 'the operation and a webhook have routes');
    for (const { route, heading } of cases) {
      const name = route.split('/').pop();
      // The page as it is before Redoc's script has run: the server's HTML, and the early heading.
      const early = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const held = await early.newPage();
      await held.route('**/redoc.standalone.js', (r) => r.abort());
      await held.goto(`${site.base}/reference/${route}`, { waitUntil: 'load' });
      const first = await headingInView(held);
      assert.equal(first?.text, heading, `${route}: the heading in view before Redoc renders`);
      assert.ok(first.early, `${route}: it is the early heading`);
      await held.screenshot({ path: path.join(SHOTS, `reference-link-early-${name}.png`) });
      await early.close();

      const { page, errors } = await site.open(`reference/${route}`, { width: 1280, height: 900 });
      await redocRendered(page);
      // Redoc's heading, which may carry a badge after the text ("Webhook").
      const shown = await waitForHeadingInView(page, heading);
      assert.equal(shown.early, false, `${route}: Redoc's own`);
      assert.ok(Math.abs(shown.top - first.top) <= 8, `${route}: at the place of the early one (${first.top} px, then ${shown.top} px)`);
      await page.screenshot({ path: path.join(SHOTS, `reference-link-${name}.png`) });
      assert.deepEqual(errors, [], `${route}: console errors`);
      await page.close();
    }
  });

  test('the landing page has no early heading and keeps the server-rendered overview', async () => {
    const { page } = await site.open('reference/', { width: 1280, height: 900 });
    await redocRendered(page);
    assert.equal(await page.locator('.early-heading').count(), 0);
    assert.match((await headingInView(page))?.text ?? '', new RegExp(`^${openapi.info.title}`));
    await page.close();
  });

  test('every href on the reference pages answers 200 when opened on its own', async () => {
    const routes = referenceRoutes(openapi);
    const checked = new Set<string>();
    const failing: string[] = [];
    for (const route of [
      '',
      routes.find((r) => r.route === '#/cards/withdrawfromcard')!.route,
      routes.find((r) => r.webhook)!.route,
      // The simulation API's page, rendered the same way.
      'simulation/',
    ]) {
      const { page } = await site.open(`reference/${route}`, { width: 1280, height: 900 });
      await redocRendered(page);
      const hrefs = (await hrefsOf(page)).filter((href) => href.startsWith(`${site.base}/`) && !checked.has(href));
      for (const href of hrefs) {
        checked.add(href);
        const response = await fetch(href);
        await response.body?.cancel();
        if (response.status !== 200) failing.push(`${response.status} ${href.slice(site.base.length)} (on reference/${route})`);
      }
      await page.close();
    }
    assert.ok(checked.size >= 10, `the page's links are found (${checked.size})`);
    assert.deepEqual(failing, [], 'hrefs that do not answer 200');
  });

  test("a link of Redoc's opened on its own lands on the section that clicking it shows", async () => {
    for (const label of ['Envelopes', 'Cards']) {
      const { page } = await site.open('reference/', { width: 1280, height: 900 });
      await redocRendered(page);
      const link = page.locator('.menu-content a', { hasText: new RegExp(`^${label}$`) }).first();
      const href = new URL((await link.getAttribute('href'))!, page.url()).href;
      assert.match(href, /\/reference\/#\//, `${label}: a route of the reference page (${href})`);
      await link.click();
      await page.waitForURL(href);
      const clicked = await waitForHeadingInView(page, label);
      await page.close();

      const { page: opened } = await site.open(href.slice(site.base.length + 1), { width: 1280, height: 900 });
      await redocRendered(opened);
      const landed = await waitForHeadingInView(opened, label);
      assert.deepEqual(landed, clicked, `${label}: opening ${href} shows what clicking it does`);
      await opened.close();
    }
  });

  test('no request left 127.0.0.1', () => {
    assert.deepEqual(site.outside, []);
  });
});
