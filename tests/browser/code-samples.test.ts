// Browser test of the code samples (scripts/docs/code-samples.ts) in the rendered reference
// (npm run test:browser): every operation shows its curl and its TypeScript sample in Redoc's right panel,
// reachable through the panel's language selector, with the text the generator wrote; three operations show
// every language; the panel's copy button sits clear of the code. Offline, like tests/browser/site.test.ts;
// screenshots of the samples in test-results/browser/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import pMap from 'p-map';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { codeSamples, SAMPLE_LANGUAGES } from '../../scripts/docs/code-samples.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';
import { openSiteBrowser, pageLanes, SHOTS, SITE, slug, WAIT_MS, type SiteBrowser } from './browser.ts';
import { contractModel } from '../../src/contract/model.ts';

let site: SiteBrowser;

/** Code as shown: lines without trailing blanks, no empty lines (the comparison ignores layout only). */
const normalise = (code: string) =>
  code
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '')
    .join('\n');

describe('code samples in the reference', () => {
  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    site = await openSiteBrowser();
  });

  afterAll(async () => {
    await site?.close();
  });

  /** The language selector of an operation's request samples, and the code it shows. */
  function samplesPanel(section: Locator) {
    const labels = SAMPLE_LANGUAGES.map((l) => l.label.replace(/[()]/g, '\\$&')).join('|');
    const selector = section
      .locator('button[aria-haspopup="menu"]')
      .filter({ hasText: new RegExp(`^(${labels})$`) })
      .first();
    const code = section.locator('[data-component-name="CodeBlock/CodeBlock"]').first();
    return { selector, code };
  }

  /** Closes a language menu left open, and waits until none is (an open menu covers the next selector). */
  async function closeMenus(page: Page): Promise<void> {
    const items = page.getByRole('menuitem');
    if (await items.count()) await page.keyboard.press('Escape');
    await items.first().waitFor({ state: 'hidden' });
  }

  /** Chooses a language in the operation's selector (if not already shown); the code then shown. */
  async function choose(page: Page, section: Locator, label: string): Promise<string> {
    const { selector, code } = samplesPanel(section);
    if ((await selector.innerText()).trim() !== label) {
      const before = await code.innerText();
      await closeMenus(page);
      await selector.scrollIntoViewIfNeeded();
      await selector.click();
      const items = page.getByRole('menuitem'); // the open menu's items (hidden menus are not listed)
      await items.first().waitFor();
      const labels = (await items.allInnerTexts()).map((t) => t.trim());
      assert.ok(labels.includes(label), `the language menu lists ${label} (it lists ${labels.join(', ')})`);
      const exact = new RegExp(`^${label.replace(/[()#]/g, '\\$&')}$`);
      await items.filter({ hasText: exact }).first().click();
      await section.locator('button[aria-haspopup="menu"]').filter({ hasText: exact }).first().waitFor();
      await closeMenus(page);
      // The selector's label changes before the code block re-renders: on a loaded machine, reading at once
      // could still give the previous language's sample.
      const deadline = Date.now() + WAIT_MS;
      while ((await code.innerText()) === before && Date.now() < deadline) await page.waitForTimeout(100);
    }
    return code.innerText();
  }

  /**
   * `choose`, tried a second time from a fresh view of the section when the first try's click does not land
   * (a re-render of the long page under load can move the selector); otherwise why it was not shown, with the
   * end of Playwright's call log.
   */
  async function chooseOrSayWhy(page: Page, section: Locator, route: string, label: string): Promise<string> {
    try {
      return await choose(page, section, label);
    } catch {
      await page.keyboard.press('Escape');
      await page.goto(route);
      await section.locator('h2').first().waitFor({ timeout: WAIT_MS });
      return choose(page, section, label).catch((error: Error) => {
        const lines = error.message
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean);
        return `(not shown: ${[lines[0], ...lines.slice(-3)].join(' / ')})`;
      });
    }
  }

  test('code samples: every operation shows its curl and TypeScript samples in the right panel, three every language', async () => {
    const openapi = JSON.parse(fs.readFileSync(path.join(SITE, 'openapi.json'), 'utf8')) as JsonObject;
    const operations = codeSamples(openapi);
    assert.equal(operations.length, 57, 'the bundle has 57 operations');
    const model = contractModel(openapi);
    const wrong: string[] = [];
    let shown = 0;
    const errors: string[] = [];
    // The operations in a few pages at once, each page going from one operation to the next.
    const lanes = pageLanes(operations);
    await pMap(lanes, async (lane) => {
      const { page, errors: pageErrors } = await site.open('reference/');
      for (const op of lane) {
        const id = `/${slug(model.byPath(op.method, op.path)!.tag)}/${op.operationId.toLowerCase()}`;
        const route = `${site.base}/reference/#${id}`;
        await page.goto(route);
        const section = page.locator(`[data-section-id="${id}"]`);
        const found = await section
          .locator('h2')
          .first()
          .waitFor({ timeout: WAIT_MS })
          .then(
            () => true,
            () => false,
          );
        if (!found) {
          wrong.push(`${op.operationId}: no section ${id}`);
          continue;
        }
        if (wrong.length >= 5) break; // a site without samples fails in seconds, not after every timeout
        const hasSelector = await samplesPanel(section)
          .selector.waitFor({ timeout: WAIT_MS })
          .then(
            () => true,
            () => false,
          );
        if (!hasSelector) {
          wrong.push(`${op.operationId}: no curl/TypeScript language selector in the right panel`);
          continue;
        }
        // Both languages, in whichever order the selector is in (Redoc keeps the last language chosen).
        const current = (await samplesPanel(section).selector.innerText()).trim();
        const every = ['withdrawFromCard', 'listCards', 'createGiftCardOrder'].includes(op.operationId);
        const labels: string[] = every ? SAMPLE_LANGUAGES.map((l) => l.label) : ['curl', 'TypeScript'];
        const order = [...labels.filter((l) => l === current), ...labels.filter((l) => l !== current)];
        for (const label of order) {
          const expected = op.samples.find((s) => s.label === label)!.source;
          const text = await chooseOrSayWhy(page, section, route, label);
          if (normalise(text) !== normalise(expected))
            wrong.push(`${op.operationId} ${label}: shows ${JSON.stringify(text.startsWith('(not shown') ? text : text.slice(0, 120))}`);
          else shown++;
        }
        if (op.operationId === 'withdrawFromCard') {
          await choose(page, section, 'curl');
          // The copy button is above the code, not over its first line (where it hid the sample's URL).
          const overlap = await section
            .locator('[data-component-name="CodeBlock/CodeBlock"]')
            .first()
            .evaluate((block: any) => {
              const button = block.querySelector('button').getBoundingClientRect();
              const code = block.querySelector('pre, code');
              const range = (globalThis as any).document.createRange();
              range.selectNodeContents(code);
              const first = range.getClientRects()[0];
              return button.bottom > first.top && button.top < first.bottom && button.left < first.right && button.right > first.left;
            });
          assert.equal(overlap, false, 'the copy button covers the first line of the sample');
          await page.screenshot({ path: path.join(SHOTS, 'code-samples-curl.png') });
          await samplesPanel(section).selector.click();
          await page.getByRole('menuitem').first().waitFor();
          await page.screenshot({ path: path.join(SHOTS, 'code-samples-menu.png') });
          await page
            .getByRole('menuitem')
            .filter({ hasText: /^TypeScript$/ })
            .first()
            .click();
          await section
            .locator('button[aria-haspopup="menu"]')
            .filter({ hasText: /^TypeScript$/ })
            .first()
            .waitFor();
          await page.screenshot({ path: path.join(SHOTS, 'code-samples-typescript.png') });
        }
      }
      errors.push(...pageErrors);
      await page.close();
    });
    assert.deepEqual(wrong, [], 'operations whose samples are missing or differ');
    assert.equal(
      shown,
      operations.length * 2 + 3 * (SAMPLE_LANGUAGES.length - 2),
      'curl and TypeScript on every operation, every language on three',
    );
    assert.deepEqual(errors, [], 'page errors');
    // 57 operations, two or more languages each: about a minute on two shared cores, but a click that a re-render
    // moves is tried again from a fresh view, each wait up to WAIT_MS; the budget leaves room for a few of those.
  }, 480_000);
});
