// Browser test of the docs site's pages (npm run test:browser, its own vitest config; not part of `npm test`):
// every guide, events and reference page as a reader opens it, in Debian's Chromium, offline. Each page renders
// without a console error at 1280 and 390 px, nothing in a table or code block runs out of its column, and it is
// photographed (test-results/browser/pages/<page>-<width>.png). Search for a guide's term lands on its section;
// a code block's copy button copies its code; the colour scheme chosen on a guide page holds on the reference;
// and the former site's addresses lead to the same places.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import pMap from 'p-map';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { openSiteBrowser, PAGES_AT_ONCE, SHOTS, WAIT_MS, type SiteBrowser } from './browser.ts';
import { guidePages, overflowingText, pageOverflow } from './layout.ts';
import { fullPageScreenshots } from './page-size.ts';

// The functions given to page.evaluate run in the page: its globals, which the Node typings do not declare.
declare const document: any, navigator: any, localStorage: any, location: any;

const PAGES_SHOTS = path.join(SHOTS, 'pages');
let site: SiteBrowser;

describe('docs site pages', () => {
  beforeAll(async () => {
    fs.mkdirSync(PAGES_SHOTS, { recursive: true });
    site = await openSiteBrowser();
  });

  afterAll(async () => {
    await site?.close();
  });

  test('every page renders at 1280 and 390 px without a console error, nothing in a table or code block wider than its column', async () => {
    const pages = guidePages();
    for (const expected of [
      '',
      'guides/getting-started/',
      'guides/errors/',
      'guides/client/',
      'guides/sandbox/',
      'guides/conformance/',
      'changelog/',
      'guides/provisional-parts/',
      'events/',
      'events/card-events/',
    ]) {
      assert.ok(pages.includes(expected), `the site has the page /${expected}`);
    }
    const visits = pages.flatMap((route) => [1280, 390].map((width) => ({ route, width })));
    const found = await pMap(
      visits,
      async ({ route, width }) => {
        const problems: string[] = [];
        const { page, errors } = await site.open(route, { width, height: 900 });
        await page.locator('.sl-markdown-content').first().waitFor({ timeout: WAIT_MS });
        const name = `${route.replace(/\/$/, '').replace(/\//g, '_') || 'home'}-${width}`;
        const wide = await pageOverflow(page);
        if (wide > 0) problems.push(`/${route} at ${width} px: the page is ${wide} px wider than the window`);
        for (const text of await overflowingText(page, '.sl-markdown-content')) problems.push(`/${route} at ${width} px: ${text}`);
        for (const error of errors) problems.push(`/${route} at ${width} px: console error ${error}`);
        if (width === 1280) {
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          await fullPageScreenshots(page, PAGES_SHOTS, name, height);
        } else {
          await page.screenshot({ path: path.join(PAGES_SHOTS, `${name}.png`) });
        }
        await page.close();
        return problems;
      },
      { concurrency: PAGES_AT_ONCE },
    );
    const problems = found.flat();
    assert.deepEqual(problems, []);
  }, 900_000);

  test('search for a guide term lands on its section', async () => {
    const { page } = await site.open('guides/getting-started/', { width: 1280, height: 900 });
    await page.locator('button[data-open-modal]').first().click();
    await page.locator('dialog[open] input').fill('rate limit');
    const results = page.locator('dialog[open] a[href*="#"]');
    await results.first().waitFor({ timeout: WAIT_MS });
    await page.screenshot({ path: path.join(SHOTS, 'search-rate-limit.png') });
    // The first page found is the limits guide, with its rate limit section among the sections found.
    const first = await page.locator('dialog[open] a').first().getAttribute('href');
    assert.equal(first, '/guides/limits/');
    const section = page.locator('dialog[open] a[href="/guides/limits/#rate-limit-headers"]');
    assert.equal(await section.count(), 1, 'the limits guide\'s "Rate limit headers" section is a result');
    await section.click();
    await page.waitForURL(/\/guides\/limits\/#rate-limit-headers$/);
    const heading = page.locator('h2#rate-limit-headers');
    await heading.waitFor();
    const box = await heading.boundingBox();
    assert.ok(box && box.y >= 0 && box.y < 300, `the section's heading is at the top of the window (${JSON.stringify(box)})`);
    await page.screenshot({ path: path.join(SHOTS, 'search-landed.png') });
    await page.close();
  });

  test("a code block's copy button copies its code, as shown", async () => {
    const { page } = await site.open(
      'guides/getting-started/',
      { width: 1280, height: 900 },
      { permissions: ['clipboard-read', 'clipboard-write'] },
    );
    const block = page.locator('.expressive-code').first();
    await block.hover();
    const copy = block.locator('button[data-code]');
    await copy.click();
    const copied: string = await page.evaluate(() => navigator.clipboard.readText());
    const shown: string = await block.locator('pre').innerText();
    assert.ok(copied.length > 20, 'something was copied');
    assert.equal(copied.trim(), shown.trim());
    await page.close();
  });

  test("the colour scheme chosen on a guide page is the reference's too, and back", async () => {
    const { page } = await site.open('guides/errors/', { width: 1280, height: 900 }, { colorScheme: 'light' });
    await page.locator('starlight-theme-select select').first().selectOption('dark');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    await page.goto(`${site.base}/reference/`);
    await page.locator('[data-component-name="Menu/Menu"]').first().waitFor({ timeout: WAIT_MS });
    assert.ok(await page.evaluate(() => document.documentElement.classList.contains('dark')), 'the reference is dark');
    await page.screenshot({ path: path.join(SHOTS, 'reference-dark.png') });
    await page.evaluate(() => localStorage.setItem('redoc.colorMode', 'light'));
    await page.evaluate(() => {
      document.documentElement.classList.remove('dark');
      document.documentElement.classList.add('light');
    });
    await page.goto(`${site.base}/guides/errors/`);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
    await page.close();
  });

  test("the former site's addresses lead on: an operation link to the reference, an event to its page", async () => {
    const { page } = await site.open('index.html#/cards/withdrawfromcard', { width: 1280, height: 900 });
    await page.waitForURL(/\/reference\/#\/cards\/withdrawfromcard$/);
    await page.locator('h2', { hasText: 'Withdraw from a card' }).first().waitFor({ timeout: WAIT_MS });
    await page.goto(`${site.base}/asyncapi.html#card.frozen`);
    await page.waitForURL(/\/events\/card-events\/#card\.frozen$/);
    assert.equal(await page.evaluate(() => location.hash), '#card.frozen');
    await page.locator('h2[id="card.frozen"]').waitFor();
    await page.close();
  });

  test('no request left 127.0.0.1', () => {
    assert.deepEqual(site.outside, []);
  });
});
