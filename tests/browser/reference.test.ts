// Browser test of the API reference (site/reference/) as a reader sees it: no raw markdown in any rendered
// text, the servers (production and the local sandbox) explained, each copied as a real URL, and a usable
// layout at 1280 px wide under the site's header, and at 390 px.
// Screenshots: test-results/browser/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import pMap from 'p-map';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openSiteBrowser, pageLanes, redocRendered, referenceRoutes, SHOTS, SITE, WAIT_MS, type SiteBrowser } from './browser.ts';
import { overflowingText, pageOverflow } from './layout.ts';
import { contractModel } from '../../src/contract/model.ts';

// The functions given to page.evaluate run in the page: its globals, which the Node typings do not declare.
declare const document: any, window: any, NodeFilter: any, getComputedStyle: any, requestAnimationFrame: any;

type Json = Record<string, any>;
const openapi: Json = JSON.parse(fs.readFileSync(path.join(SITE, 'openapi.json'), 'utf8'));

let site: SiteBrowser;

/**
 * Rendered text nodes (outside code, pre, script and style) that show markdown syntax: a backtick, a `**`
 * or the `](` of a link, each as "<tag>: <text>". With `operation` (its heading), each response tab (200,
 * 4XX ...) of that operation is chosen in turn too: a response's text is rendered only while its tab is.
 */
async function rawMarkdown(page: Page, operation?: string): Promise<{ found: string[]; tabs: number }> {
  return page.evaluate(async (operation) => {
    const found = new Set<string>();
    const walk = () => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        const parent = node.parentElement;
        if (!parent || !/`|\*\*|\]\(/.test(text) || parent.closest('code, pre, script, style, textarea')) continue;
        if (parent.getClientRects().length === 0) continue; // not rendered (display: none)
        found.add(`${parent.tagName.toLowerCase()}: ${text.trim().slice(0, 160)}`);
      }
    };
    walk();
    if (operation === undefined) return { found: [...found], tabs: 0 };
    // Redoc renders the neighbouring operations too: the tabs between this operation's heading and the next.
    const headings = [...document.querySelectorAll('[data-testid="middle-panel"] h2')];
    const own = headings.find((h) => (h.textContent ?? '').includes(operation));
    if (!own) return { found: [...found], tabs: 0 };
    const top = own.getBoundingClientRect().top;
    const next = Math.min(...headings.map((h) => h.getBoundingClientRect().top).filter((y) => y > top), Infinity);
    const tabs = [...document.querySelectorAll('[data-testid="middle-panel"] button')].filter((b) => {
      const y = b.getBoundingClientRect().top;
      return y > top && y < next && /^[1-5](\d\d|XX)$/.test((b.textContent ?? '').trim());
    });
    for (const tab of tabs) {
      tab.click();
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      walk();
    }
    return { found: [...found], tabs: tabs.length };
  }, operation);
}

/** The landing route, rendered (its sidebar has the description's sections). */
async function openLanding(width: number, options = {}): Promise<Page> {
  const { page } = await site.open('reference/', { width, height: 1000 }, options);
  await page.locator('a[href*="/section/"]').first().waitFor({ timeout: WAIT_MS });
  return page;
}

describe('API reference', () => {
  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    site = await openSiteBrowser();
  });

  afterAll(async () => {
    await site?.close();
  });

  test('no rendered text shows a literal backtick or other markdown, on any route', async () => {
    const found = new Map<string, string[]>();
    const landingPage = await openLanding(1400);
    const landing = (await rawMarkdown(landingPage)).found;
    if (landing.length > 0) found.set('(landing: overview and guides)', landing);
    await landingPage.close();
    const routes = referenceRoutes(openapi);
    assert.ok(routes.length > 50, 'every operation and webhook has a route');
    const lanes = pageLanes(routes);
    const tabs = await pMap(lanes, async (lane) => {
      const page = await openLanding(1400);
      let chosen = 0;
      for (const { route, heading } of lane) {
        await page.goto(`${site.base}/reference/${route}`);
        await page.locator('h2', { hasText: heading }).first().waitFor({ timeout: WAIT_MS });
        const raw = await rawMarkdown(page, heading);
        chosen += raw.tabs;
        if (raw.found.length > 0) found.set(route, raw.found);
      }
      await page.close();
      return chosen;
    });
    const total = tabs.reduce((a, b) => a + b, 0);
    assert.ok(total >= routes.length, `every operation's response tabs were chosen (${total} tabs on ${routes.length} routes)`);
    assert.deepEqual(Object.fromEntries(found), {}, 'rendered text with markdown syntax, by route');
  }, 600_000);

  test('the servers panel shows the production address and the local sandbox, each explained, as plain text, and copies real URLs', async () => {
    const page = await openLanding(1280, { permissions: ['clipboard-read', 'clipboard-write'] });
    const panel = page.locator('[data-testid="panel-servers"]');
    await panel.waitFor();
    const text = await panel.innerText();
    assert.match(text, /\{base_url\}/, 'the production placeholder is named');
    assert.match(text, /https:\/\/api\.partner-api\.test\/v1/, 'its default, as the address');
    assert.match(text, /The production service address[^\n]*sk_test_ and sk_live_ keys/, 'the production server explained');
    assert.match(text, /http:\/\/127\.0\.0\.1:4020\/v1/, 'the local sandbox');
    assert.match(text, /Local sandbox, on your machine: npx partner-api-sandbox[^\n]*sk_test_/, 'the sandbox explained');
    assert.ok(
      text.indexOf('https://api.partner-api.test/v1') < text.indexOf('http://127.0.0.1:4020/v1'),
      'production first, then the sandbox',
    );
    assert.doesNotMatch(text, /`|\*\*|\]\(/, 'no markdown syntax in the servers panel');
    assert.doesNotMatch(text, /index\.html|\/reference\//, "no server shown relative to the page's own address");
    // Each server's copy button copies an absolute URL: the address itself, not the page's plus a placeholder.
    const buttons = panel.locator('button');
    assert.equal(await buttons.count(), 2, 'a copy button per server');
    const copied: string[] = [];
    for (let i = 0; i < 2; i++) {
      await buttons.nth(i).click();
      copied.push(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText()));
    }
    assert.deepEqual(copied, ['https://api.partner-api.test/v1', 'http://127.0.0.1:4020/v1']);
    for (const url of copied) assert.ok(URL.canParse(url) && !url.includes('{'), `${url} is a real URL`);
    await panel.screenshot({ path: path.join(SHOTS, 'servers-panel.png') });
    await page.close();

    // The gift card operations have their own base address: their server menu offers it and its sandbox.
    const { page: order } = await site.open('reference/#/gift-cards/creategiftcardorder', { width: 1280, height: 1000 });
    await order
      .locator('h2', { hasText: contractModel(openapi).byPath('POST', '/gift-cards/orders')?.summary })
      .first()
      .waitFor({ timeout: WAIT_MS });
    await order
      .locator('button[aria-expanded="false"]', { hasText: /^POST\s*\/gift-cards\/orders$/ })
      .first()
      .click();
    const menu = order.locator('[data-testid="dropdown-menu"]:visible').filter({ hasText: '127.0.0.1' }).first();
    await menu.waitFor({ timeout: WAIT_MS });
    const items = await menu.innerText();
    assert.match(items, /https:\/\/api\.partner-api\.test\/api\/v1/, 'the gift card address (its default)');
    assert.match(items, /http:\/\/127\.0\.0\.1:4020\/api\/v1/, 'the sandbox at /api/v1');
    assert.match(items, /Production: the gift card base address/);
    assert.match(items, /Local sandbox, on your machine/);
    assert.doesNotMatch(items, /`|\*\*|\]\(/, 'no markdown syntax in the server menu');
    await order.screenshot({ path: path.join(SHOTS, 'servers-gift-cards-1280.png') });
    await order.close();
  });

  test('the page works at 1280 px wide: sidebar, content and right panel side by side, nothing wider than the window', async () => {
    const routes = [
      ['landing', ''],
      ['operation', '#/cards/withdrawfromcard'],
      ['webhook', referenceRoutes(openapi).find((r) => r.webhook)!.route],
    ];
    for (const [name, route] of routes) {
      const { page } = await site.open(`reference/${route}`, { width: 1280, height: 1000 });
      await redocRendered(page);
      await page.waitForTimeout(500);
      const layout = await page.evaluate(() => {
        // Redoc renders the neighbouring operations too: of each kind of panel, the one in the window.
        const box = (selector: string) => {
          for (const element of document.querySelectorAll(selector)) {
            const r = element.getBoundingClientRect();
            const style = getComputedStyle(element);
            if (r.width === 0 || r.bottom <= 0 || r.top >= window.innerHeight || style.display === 'none' || style.visibility === 'hidden')
              continue;
            return { left: r.left, right: r.right, width: r.width, visible: true };
          }
          return null;
        };
        // Text that sticks out of the right edge of its content column, unless a scrolling box clips it.
        const overflowing: string[] = [];
        for (const panel of document.querySelectorAll('[data-testid="middle-panel"]')) {
          const edge = panel.getBoundingClientRect().right;
          const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(node);
            const right = range.getBoundingClientRect().right;
            if (right <= edge + 1) continue;
            let clipped = false;
            for (let up = node.parentElement; up && up !== panel && !clipped; up = up.parentElement) {
              clipped = getComputedStyle(up).overflowX !== 'visible' && up.getBoundingClientRect().right <= edge + 1;
            }
            if (!clipped) overflowing.push(`+${Math.round(right - edge)} px: ${(node.textContent ?? '').trim().slice(0, 80)}`);
          }
        }
        return {
          overflowing,
          scrollWidth: document.scrollingElement?.scrollWidth ?? 0,
          clientWidth: document.scrollingElement?.clientWidth ?? 0,
          sidebar: box('[data-component-name="Menu/Menu"]'),
          sidebarText: document.querySelector('[data-component-name="Menu/Menu"]')?.textContent ?? '',
          header: box('header.site-nav'),
          middle: box('[data-testid="middle-panel"]'),
          right: box('[data-testid="right-panel"]'),
        };
      });
      const where = `${name} (reference/${route}) at 1280 px`;
      assert.ok(
        layout.scrollWidth <= layout.clientWidth,
        `${where}: the page is ${layout.scrollWidth} px wide in a ${layout.clientWidth} px window`,
      );
      assert.deepEqual(layout.overflowing, [], `${where}: text wider than its column`);
      assert.ok(
        layout.sidebar?.visible && layout.sidebar.left >= 0 && layout.sidebar.width >= 200,
        `${where}: the sidebar is visible (${JSON.stringify(layout.sidebar)})`,
      );
      assert.match(layout.sidebarText, /Envelopes/, `${where}: the sidebar lists the API's sections`);
      assert.ok(layout.header?.visible && layout.header.width === layout.clientWidth, `${where}: the site's header spans the window`);
      assert.ok(
        layout.middle?.visible && layout.middle.width >= 400,
        `${where}: the content column is at least 400 px (${JSON.stringify(layout.middle)})`,
      );
      assert.ok(
        layout.right?.visible && layout.right.width >= 300,
        `${where}: the right panel is visible (${JSON.stringify(layout.right)})`,
      );
      assert.ok(
        layout.sidebar!.right <= layout.middle!.left + 1 &&
          layout.middle!.right <= layout.right!.left + 1 &&
          layout.right!.right <= layout.clientWidth + 1,
        `${where}: sidebar, content and right panel side by side within the window`,
      );
      await page.screenshot({ path: path.join(SHOTS, `layout-1280-${name}.png`) });
      await page.close();
    }
  });

  test('the page works at 390 px wide: nothing wider than the window, the header on top', async () => {
    for (const [name, route] of [
      ['landing', ''],
      ['operation', '#/cards/withdrawfromcard'],
    ] as const) {
      const { page } = await site.open(`reference/${route}`, { width: 390, height: 844 });
      await redocRendered(page);
      await page.waitForTimeout(500);
      assert.equal(await pageOverflow(page), 0, `${name} at 390 px: the page is wider than the window`);
      assert.deepEqual(
        await overflowingText(page, '[data-testid="middle-panel"]', '*'),
        [],
        `${name} at 390 px: text wider than its column`,
      );
      const header = await page.locator('header.site-nav').boundingBox();
      assert.ok(header && header.y === 0 && header.width === 390, `${name} at 390 px: the header (${JSON.stringify(header)})`);
      await page.screenshot({ path: path.join(SHOTS, `layout-390-${name}.png`) });
      await page.close();
    }
  });

  test('no request left 127.0.0.1', () => {
    assert.deepEqual(site.outside, []);
  });
});
