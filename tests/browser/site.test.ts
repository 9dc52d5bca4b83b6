// Browser test of the rendered docs site (npm run test:browser, its own vitest config; not part of `npm test`).
// Serves site/ on 127.0.0.1, opens it in Debian's Chromium through playwright-core with every request not
// addressed to 127.0.0.1 blocked, and checks that every operation, every event, the guides and the
// events page render, with no console error and no outside request. Screenshots: test-results/browser/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { readGuides } from '../../scripts/docs/site.ts';
import { openSiteBrowser, referenceRoutes, SHOTS, SITE, slug, type SiteBrowser } from './browser.ts';

type Json = Record<string, any>;
const readJson = (file: string): Json => JSON.parse(fs.readFileSync(path.join(SITE, file), 'utf8'));

let site: SiteBrowser;
let base: string;
const open = (file: string) => site.open(file);

describe('docs site', () => {
  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    site = await openSiteBrowser();
    base = site.base;
  });

  afterAll(async () => {
    await site?.close();
  });

  test('the API reference renders every operation, every webhook event and the guides', async () => {
    const openapi = readJson('openapi.json');
    const { page, errors } = await open('index.html');
    await page.locator('a[href$="/section/overview"]').first().waitFor({ timeout: 30_000 });
    const sidebar = (await page.locator('a[href*="/section/"]').allInnerTexts()).map((t) => t.trim());
    const guides = readGuides().guides.map((g) => g.title);
    assert.ok(guides.length >= 4, 'the guides of docs/ are found');
    for (const section of ['Overview', ...guides, 'Provisional parts']) {
      assert.ok(sidebar.includes(section), `the sidebar has the "${section}" section`);
    }
    await page.screenshot({ path: path.join(SHOTS, 'index.png') });

    // Redoc renders one page at a time: visit every operation and every webhook by its route and wait for
    // its heading (the summary; a webhook's summary is its event name).
    const targets = referenceRoutes(openapi);
    const events = Object.keys(openapi.webhooks ?? {});
    assert.ok(events.length > 0, 'the bundle has webhooks');
    assert.ok(targets.length > events.length, 'the bundle has operations');
    const missing: string[] = [];
    for (const { route, heading } of targets) {
      await page.goto(`${base}/index.html${route}`);
      const found = await page.locator('h2', { hasText: heading }).first().waitFor({ timeout: 10_000 }).then(() => true, () => false);
      if (!found) missing.push(`${heading} (${route})`);
    }
    assert.deepEqual(missing, [], 'operations or events that did not render');
    await page.goto(`${base}/index.html#/cards/withdrawfromcard`);
    const withdraw = page.locator('h2', { hasText: 'Withdraw from a card' }).first();
    await withdraw.waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'operation-withdraw.png') });
    // A documented operation has no "Provisional" badge; a provisional one shows it beside its heading.
    assert.equal(openapi.paths['/cards/{code}/withdraw'].post['x-provisional'], undefined, 'withdraw is documented');
    assert.equal(await withdraw.locator('xpath=..').getByText('Provisional', { exact: true }).count(), 0,
      'no badge on POST /cards/{code}/withdraw');
    assert.equal(openapi.paths['/cards/{code}'].get['x-provisional'], true, 'GET /cards/{code} is provisional');
    await page.goto(`${base}/index.html#/cards/getcard`);
    const getCard = page.locator('h2', { hasText: openapi.paths['/cards/{code}'].get.summary }).first();
    await getCard.waitFor();
    await getCard.locator('xpath=..').getByText('Provisional', { exact: true }).first().waitFor({ timeout: 5_000 });
    await page.screenshot({ path: path.join(SHOTS, 'operation-provisional-badge.png') });
    const event = events.includes('card.frozen') ? 'card.frozen' : events[0]!;
    const webhook = openapi.webhooks[event].post;
    await page.goto(`${base}/index.html#/${slug(webhook.tags[0])}/${String(webhook.operationId).toLowerCase()}`);
    await page.locator('h2', { hasText: event }).first().waitFor();
    await page.screenshot({ path: path.join(SHOTS, `webhook-${event}.png`) });

    // The guides and the generated list of provisional parts.
    await page.goto(`${base}/index.html#/section/provisional-parts`);
    await page.locator('h2', { hasText: 'Provisional parts' }).first().waitFor();
    const text = await page.locator('body').innerText();
    assert.match(text, /generated from those marks/);
    await page.screenshot({ path: path.join(SHOTS, 'provisional-parts.png') });
    await page.goto(`${base}/index.html#/section/authentication`);
    await page.locator('h2', { hasText: 'Authentication' }).first().waitFor();
    assert.match(await page.locator('body').innerText(), /sk_test_/);
    await page.screenshot({ path: path.join(SHOTS, 'guide-authentication.png') });
    assert.deepEqual(errors, [], 'console errors on index.html');
    await page.close();
  });

  test('the events page (asyncapi.html) renders every message', async () => {
    const asyncapi = readJson('asyncapi.json');
    const { page, errors } = await open('asyncapi.html');
    await page.locator('nav.sidebar').waitFor({ timeout: 30_000 });
    const text = await page.locator('main').innerText();
    const messages = [
      ...Object.entries<Json>(asyncapi.components?.messages ?? {}),
      ...Object.values<Json>(asyncapi.channels ?? {}).flatMap((c) => Object.entries<Json>(c.messages ?? {})),
    ].map(([key, m]) => String(m.name ?? m.title ?? key));
    const expected = [...new Set(messages)];
    assert.ok(expected.length > 0, 'the AsyncAPI document has messages');
    assert.deepEqual(expected.filter((name) => !text.includes(name)), [], 'messages missing from the events page');
    await page.screenshot({ path: path.join(SHOTS, 'asyncapi.png') });
    assert.deepEqual(errors, [], 'console errors on asyncapi.html');
    await page.close();
  });

  test('no request left 127.0.0.1', () => {
    assert.deepEqual(site.outside, []);
  });
});
