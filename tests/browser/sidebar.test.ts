// Browser test of the Redoc reference's sidebar (npm run test:browser) at 1280 px: every label, with every
// group open, renders each of its words on one line. Redoc breaks a label that does not fit anywhere, so an
// event name such as `balance.deposit_confirmed` came out as "balance.deposit_confir med"; the page's own
// style (scripts/docs/page-style.ts) sizes the sidebar so that none does. Screenshot:
// test-results/browser/sidebar-1280.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openSiteBrowser, SHOTS, WAIT_MS, type SiteBrowser } from './browser.ts';

const GROUPS = '.menu-content .menu-item-type-group > a';

/**
 * The visible sidebar labels, each with its words (split at white space) whose letters do not all sit on one
 * line, measured letter by letter in the page. Runs in the page: no reference to this module.
 */
function labelsAndBrokenWords(page: Page): Promise<{ text: string; broken: string[] }[]> {
  return page.evaluate(() => {
    const { document } = globalThis as any;
    const found: { text: string; broken: string[] }[] = [];
    for (const label of document.querySelectorAll('.menu-content [data-testid=menu-item-label] span[data-text]')) {
      const node = label.firstChild;
      if (node?.nodeType !== 3 || label.offsetParent === null) continue;
      const text: string = node.textContent ?? '';
      const range = document.createRange();
      const tops: number[] = [];
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        tops.push(rect ? Math.round(rect.top) : Number.NaN);
      }
      const broken: string[] = [];
      let start = 0;
      for (let i = 0; i <= text.length; i++) {
        if (i < text.length && !/\s/.test(text[i]!)) continue;
        if (i > start && new Set(tops.slice(start, i)).size > 1) broken.push(text.slice(start, i));
        start = i + 1;
      }
      found.push({ text, broken });
    }
    return found;
  });
}

describe('the reference sidebar at 1280 px', () => {
  let site: SiteBrowser;
  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    site = await openSiteBrowser();
  });
  afterAll(() => site?.close());

  test('no label breaks a word across lines, event names included, with every group open', async () => {
    const { page, errors } = await site.open('reference/', { width: 1280, height: 900 });
    await page.locator('a[href*="/section/"]').first().waitFor({ timeout: WAIT_MS });
    const groups = await page.locator(GROUPS).count();
    assert.ok(groups >= 18, `the sidebar has its groups: a tag each, operations and events (${groups})`);
    const labels = new Set<string>();
    const broken = new Set<string>();
    // Opening a group may close another: measure after each.
    for (let i = 0; i < groups; i++) {
      await page.locator(GROUPS).nth(i).click();
      await page.waitForTimeout(100);
      for (const { text, broken: words } of await labelsAndBrokenWords(page)) {
        labels.add(text);
        for (const word of words) broken.add(`"${word}" in "${text}"`);
      }
    }
    for (const name of ['balance.deposit_confirmed', 'virtual_account.transfer_completed', 'kyc.resubmission_requested']) {
      assert.ok(labels.has(name), `the sidebar label ${name} was measured`);
    }
    assert.ok(labels.size >= 100, `every label was measured (${labels.size})`);
    assert.deepEqual([...broken], [], 'sidebar labels with a word broken across lines');

    // The last group opened is "Balance events".
    await page.locator('.menu-content [data-text="balance.deposit_confirmed"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'sidebar-1280.png') });
    assert.deepEqual(errors, [], 'console errors');
    await page.close();
  });
});
