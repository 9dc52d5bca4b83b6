// Browser test of the code samples (scripts/docs/code-samples.ts) in the rendered reference
// (npm run test:browser): every operation shows its curl and its TypeScript sample in Redoc's right panel,
// reachable through the panel's language selector, with the text the generator wrote. Offline, like
// tests/browser/site.test.ts; screenshots of both samples in test-results/browser/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { codeSamples, SAMPLE_LANGUAGES } from '../../scripts/docs/code-samples.ts';
import { serveStatic } from '../../scripts/docs/static-site.ts';
import { findFreePort } from '../../scripts/lib/port-check.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SITE = path.resolve(process.env.SITE_DIR ?? path.join(ROOT, 'site'));
const SHOTS = path.join(ROOT, 'test-results', 'browser');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];

let server: Server;
let browser: Browser;
let base: string;

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
/** Code as shown: lines without trailing blanks, no empty lines (the comparison ignores layout only). */
const normalise = (code: string) => code.split('\n').map((l) => l.trimEnd()).filter((l) => l !== '').join('\n');

describe('code samples in the reference', () => {
  beforeAll(async () => {
    assert.ok(fs.existsSync(path.join(SITE, 'index.html')), `${SITE}/index.html is missing: run npm run docs`);
    assert.ok(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium`);
    fs.mkdirSync(SHOTS, { recursive: true });
    const port = await findFreePort();
    server = await serveStatic(SITE, '127.0.0.1', port);
    base = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** The language selector of an operation's request samples, and the code it shows. */
  function samplesPanel(section: Locator) {
    const selector = section.locator('button[aria-haspopup="menu"]').filter({ hasText: new RegExp(`^(${SAMPLE_LANGUAGES.map((l) => l.label).join('|')})$`) }).first();
    const code = section.locator('[data-component-name="CodeBlock/CodeBlock"]').first();
    return { selector, code };
  }

  /** Chooses a language in the operation's selector (if not already shown); the code then shown. */
  async function choose(page: Page, section: Locator, label: string): Promise<string> {
    const { selector, code } = samplesPanel(section);
    if ((await selector.innerText()).trim() !== label) {
      await selector.click();
      const items = page.getByRole('menuitem'); // the open menu's items (hidden menus are not listed)
      await items.first().waitFor();
      const labels = (await items.allInnerTexts()).map((t) => t.trim());
      assert.ok(labels.includes(label), `the language menu lists ${label} (it lists ${labels.join(', ')})`);
      await items.filter({ hasText: new RegExp(`^${label}$`) }).first().click();
      await section.locator('button[aria-haspopup="menu"]').filter({ hasText: new RegExp(`^${label}$`) }).first().waitFor();
    }
    return code.innerText();
  }

  test('code samples: every operation shows its curl and TypeScript samples in the right panel', async () => {
    const openapi = JSON.parse(fs.readFileSync(path.join(SITE, 'openapi.json'), 'utf8')) as JsonObject;
    const operations = codeSamples(openapi);
    assert.equal(operations.length, 57, 'the bundle has 57 operations');
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      return url.hostname === '127.0.0.1' || url.protocol === 'data:' ? route.continue() : route.abort('blockedbyclient');
    });
    await page.goto(`${base}/index.html`, { waitUntil: 'load' });

    const paths = openapi.paths as Record<string, Record<string, JsonObject>>;
    const wrong: string[] = [];
    let shown = 0;
    for (const op of operations) {
      const raw = paths[op.path]![op.method.toLowerCase()]!;
      const id = `/${slug(String((raw.tags as string[])[0]))}/${op.operationId.toLowerCase()}`;
      await page.goto(`${base}/index.html#${id}`);
      const section = page.locator(`[data-section-id="${id}"]`);
      const found = await section.locator('h2').first().waitFor({ timeout: 10_000 }).then(() => true, () => false);
      if (!found) {
        wrong.push(`${op.operationId}: no section ${id}`);
        continue;
      }
      if (wrong.length >= 5) break; // a site without samples fails in seconds, not after every timeout
      const hasSelector = await samplesPanel(section).selector.waitFor({ timeout: 5_000 }).then(() => true, () => false);
      if (!hasSelector) {
        wrong.push(`${op.operationId}: no curl/TypeScript language selector in the right panel`);
        continue;
      }
      // Both languages, in whichever order the selector is in (Redoc keeps the last language chosen).
      const current = (await samplesPanel(section).selector.innerText()).trim();
      const order = current === 'TypeScript' ? ['TypeScript', 'curl'] : ['curl', 'TypeScript'];
      for (const label of order) {
        const expected = op.samples.find((s) => s.label === label)!.source;
        const text = await choose(page, section, label).catch((error: Error) => `(not shown: ${error.message.split('\n')[0]})`);
        if (normalise(text) !== normalise(expected)) wrong.push(`${op.operationId} ${label}: shows ${JSON.stringify(text.slice(0, 120))}`);
        else shown++;
      }
      if (op.operationId === 'withdrawFromCard') {
        await choose(page, section, 'curl');
        await page.screenshot({ path: path.join(SHOTS, 'code-samples-curl.png') });
        await samplesPanel(section).selector.click();
        await page.getByRole('menuitem').first().waitFor();
        await page.screenshot({ path: path.join(SHOTS, 'code-samples-menu.png') });
        await page.getByRole('menuitem').filter({ hasText: /^TypeScript$/ }).first().click();
        await section.locator('button[aria-haspopup="menu"]').filter({ hasText: /^TypeScript$/ }).first().waitFor();
        await page.screenshot({ path: path.join(SHOTS, 'code-samples-typescript.png') });
      }
    }
    assert.deepEqual(wrong, [], 'operations whose samples are missing or differ');
    assert.equal(shown, operations.length * 2, 'two samples shown per operation');
    assert.deepEqual(errors, [], 'page errors');
    await page.close();
  });
});
