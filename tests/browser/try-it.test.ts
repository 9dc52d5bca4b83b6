// Browser test of "Try it" (scripts/docs/try-it.ts, try-it-console.js) against a sandbox started in-process on
// a free port, the page pointed at it with `?sandbox=`: from the API reference, a write (POST /customers, with
// the fresh Idempotency-Key the console fills) and a refusal (a malformed key, 401 in the envelope); a gift card
// operation at its own base address (/api/v1); and the simulation API's page (GET /sandbox/clock). The page
// crosses origins (the site and the sandbox are two ports), so the sandbox's CORS answers are part of what is
// tested. Screenshots of the console open at 1280 and 390 px: test-results/browser/try-it-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { openSiteBrowser, referenceRoutes, SHOTS, SITE, type SiteBrowser } from './browser.ts';
import { contractModel } from '../../src/contract/model.ts';

type Json = Record<string, any>;
const openapi: Json = JSON.parse(fs.readFileSync(path.join(SITE, 'openapi.json'), 'utf8'));
const simulation: Json = JSON.parse(fs.readFileSync(path.join(SITE, 'sandbox.json'), 'utf8'));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let site: SiteBrowser;
let sandbox: RunningSandbox;

/** Opens a reference page at an operation's route, pointed at the test's sandbox; resolves once its Try it button shows. */
async function openOperation(file: string, route: string, width = 1280): Promise<{ page: Page; errors: string[] }> {
  const opened = await site.open(`${file}?sandbox=${encodeURIComponent(sandbox.url)}${route}`, { width, height: 900 });
  await opened.page.locator(`button.try-it-open[data-operation="${route.slice(1)}"]`).waitFor();
  return opened;
}

/** Opens the console of the operation at `route`, sends it as filled in, and returns the answer's status and body. */
async function send(page: Page, route: string): Promise<{ status: number; body: Json; text: string }> {
  const dialog = page.locator('dialog.try-it');
  if (!(await dialog.isVisible())) await page.locator(`button.try-it-open[data-operation="${route.slice(1)}"]`).click();
  await dialog.locator('.try-it-answer').evaluate((answer: any) => answer.replaceChildren());
  await dialog.locator('button.try-it-send').click();
  // The answer of this send (the previous one was emptied above).
  await dialog.locator('.try-it-status').waitFor();
  const status = Number(await dialog.locator('.try-it-status').getAttribute('data-status'));
  const text = await dialog.locator('.try-it-answer').innerText();
  return { status, body: JSON.parse(await dialog.locator('.try-it-body').innerText()), text };
}

describe('Try it, against a sandbox on this machine', () => {
  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    sandbox = await startSandbox({ port: 0, seedExamples: 'sk_test_sandbox' });
    site = await openSiteBrowser();
  });

  afterAll(async () => {
    await site?.close();
    await sandbox?.close();
  });

  test('every operation of the reference and of the simulation API has a console', async () => {
    for (const [file, doc] of [
      ['reference/index.html', openapi],
      ['reference/simulation/index.html', simulation],
    ] as const) {
      const html = fs.readFileSync(path.join(SITE, file), 'utf8');
      const data = JSON.parse(/<script type="application\/json" id="try-it-data">([\s\S]*?)<\/script>/.exec(html)![1]!);
      const routes = referenceRoutes(doc)
        .filter((r) => !r.webhook)
        .map((r) => r.route.slice(1));
      assert.deepEqual(Object.keys(data.operations).sort(), routes.sort(), `${file}: a console per operation`);
    }
  });

  test('from the API reference: POST /customers with the key npm start prints, a fresh Idempotency-Key per send, and a refusal', async () => {
    const route = '#/customers/createcustomer';
    const { page, errors } = await openOperation('reference/', route);
    await page
      .locator('h2', { hasText: contractModel(openapi).byPath('POST', '/customers')?.summary })
      .first()
      .waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'try-it-button-1280.png') });
    await page.locator(`button.try-it-open[data-operation="${route.slice(1)}"]`).click();
    const dialog = page.locator('dialog.try-it');
    assert.equal(await dialog.locator('input[name="key"]').inputValue(), 'sk_test_sandbox', 'the key npm start prints');
    assert.equal(await dialog.locator('input[name="sandbox"]').inputValue(), sandbox.url, 'the address given with ?sandbox=');
    const keyField = dialog.locator('input[data-idempotency]');
    const first = await keyField.inputValue();
    assert.match(first, UUID, 'an Idempotency-Key is filled in');

    const created = await send(page, route);
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.success, true);
    assert.equal(created.body.data.first_name, 'Amina', "the request example's body was sent");
    assert.match(created.text, new RegExp(`POST ${sandbox.url}/v1/customers`));
    assert.match(created.text, new RegExp(`Sent Idempotency-Key: ${first}`), 'the key sent is shown with the answer');
    assert.match(created.text, /X-RateLimit-Remaining\s+\d+/, 'the rate limit headers are readable across origins');
    await page.screenshot({ path: path.join(SHOTS, 'try-it-console-1280.png') });

    // The sandbox has the customer: the console talked to it, not to a mock.
    const stored = await fetch(`${sandbox.baseUrl}/customers/${created.body.data.customer_code}`, {
      headers: { Authorization: 'Bearer sk_test_sandbox' },
    });
    assert.equal(stored.status, 200);

    const second = await keyField.inputValue();
    assert.match(second, UUID);
    assert.notEqual(second, first, 'the next send gets a new key');
    const again = await send(page, route);
    assert.equal(again.status, 200);
    assert.notEqual(again.body.data.customer_code, created.body.data.customer_code, 'a new key is a new write, not a replay');

    assert.deepEqual(errors, [], 'no console error on the page');

    // A malformed key: the sandbox's refusal, in the API's envelope, shown as it came.
    await dialog.locator('input[name="key"]').fill('not-a-key');
    const refused = await send(page, route);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.success, false);
    assert.equal(refused.body.error.code, 'AUTHENTICATION_FAILED');
    // Chromium logs every 4xx answer to fetch as a console error; the page itself logs none.
    assert.deepEqual(errors, ['Failed to load resource: the server responded with a status of 401 (Unauthorized)']);

    // The page remembers the key and the address it sent with: the next console, here another operation's, has them.
    await dialog.locator('button.try-it-close').click();
    await page.goto(`${site.base}/reference/#/balances/listbalances`);
    await page.locator('button.try-it-open[data-operation="/balances/listbalances"]').click();
    assert.equal(await dialog.locator('input[name="key"]').inputValue(), 'not-a-key');
    assert.equal(await dialog.locator('input[name="sandbox"]').inputValue(), sandbox.url);
    // And forgets them on request: the defaults the sandbox prints.
    await dialog.locator('button.try-it-reset').click();
    assert.equal(await dialog.locator('input[name="key"]').inputValue(), 'sk_test_sandbox');
    assert.equal(await dialog.locator('input[name="sandbox"]').inputValue(), 'http://127.0.0.1:4020');
    assert.equal(await page.evaluate(() => (globalThis as any).localStorage.getItem('try-it.key')), null);
    assert.deepEqual(site.outside, [], 'nothing requested outside 127.0.0.1');
    await page.close();
  });

  test('a gift card operation goes to its own base address, /api/v1', async () => {
    const route = '#/gift-cards/listgiftcardproducts';
    const { page, errors } = await openOperation('reference/', route);
    const answer = await send(page, route);
    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.text, new RegExp(`GET ${sandbox.url}/api/v1/gift-cards/products`));
    assert.equal(answer.body.success, true);
    assert.ok(Array.isArray(answer.body.data) && answer.body.data.length > 0, 'the catalogue');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the simulation API has its page, in the site header, with the same console: GET /sandbox/clock', async () => {
    const route = '#/clock/getclock';
    const { page, errors } = await openOperation('reference/simulation/', route);
    const current = page.locator('header.site-nav a[aria-current="page"]');
    assert.equal((await current.innerText()).trim(), 'Simulation API');
    assert.equal(await current.getAttribute('href'), '/reference/simulation/');
    const answer = await send(page, route);
    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.text, new RegExp(`GET ${sandbox.url}/sandbox/clock`));
    assert.equal(answer.body.success, true);
    assert.equal(typeof answer.body.data.now, 'string', 'the clock as the sandbox answers it');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the console in the dark colour scheme', async () => {
    const route = '#/gift-cards/creategiftcardorder';
    const opened = await site.open(
      `reference/?sandbox=${encodeURIComponent(sandbox.url)}${route}`,
      { width: 1280, height: 900 },
      { colorScheme: 'dark' },
    );
    const { page } = opened;
    await page.evaluate(() => (globalThis as any).document.documentElement.classList.add('dark'));
    await page.locator(`button.try-it-open[data-operation="${route.slice(1)}"]`).click();
    const colours = await page.locator('dialog.try-it').evaluate((d: any) => {
      const style = (globalThis as any).getComputedStyle(d);
      return { background: style.backgroundColor, color: style.color };
    });
    assert.notEqual(colours.background, 'rgb(255, 255, 255)', 'a dark dialog');
    await page.screenshot({ path: path.join(SHOTS, 'try-it-console-dark-1280.png') });
    await page.close();
  });

  test('the console fits a 390 px screen', async () => {
    const route = '#/balances/listbalances';
    const { page } = await openOperation('reference/', route, 390);
    await page.screenshot({ path: path.join(SHOTS, 'try-it-button-390.png') });
    const answer = await send(page, route);
    assert.equal(answer.status, 200, answer.text);
    assert.doesNotMatch(answer.text, /undefined/, 'no empty part shown as "undefined" (a GET sends no Idempotency-Key)');
    assert.doesNotMatch(answer.text, /Idempotency-Key/);
    const box = await page.locator('dialog.try-it').boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the dialog within the screen: ${JSON.stringify(box)}`);
    const overflow = await page.locator('dialog.try-it').evaluate((d: any) => d.scrollWidth - d.clientWidth);
    assert.equal(overflow, 0, 'nothing wider than the dialog');
    await page.screenshot({ path: path.join(SHOTS, 'try-it-console-390.png') });
    await page.close();
  });
});
