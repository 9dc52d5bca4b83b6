// What the browser tests share: the built site served on 127.0.0.1 (a free port), Debian's Chromium through
// playwright-core (scripts/docs/chromium.ts), and pages opened with every request not addressed to 127.0.0.1
// blocked and recorded.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { CHROMIUM, keepLocal, launchChromium } from '../../scripts/docs/chromium.ts';
import { findFreePort } from '../../scripts/lib/port-check.ts';
import { serveStatic } from '../../scripts/docs/static-site.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SITE = path.resolve(process.env.SITE_DIR ?? path.join(ROOT, 'site'));
export const SHOTS = path.join(ROOT, 'test-results', 'browser');

export interface OpenedPage {
  page: Page;
  /** Console errors and uncaught page errors. */
  errors: string[];
}

export interface SiteBrowser {
  /** The site's directory. */
  dir: string;
  /** `http://127.0.0.1:<port>`, serving `dir`. */
  base: string;
  browser: Browser;
  /** Every request a page tried to send outside 127.0.0.1 (blocked). */
  outside: string[];
  /**
   * Opens `file` of the site at the given viewport (1400 x 1000 by default), in a context of its own (with
   * `options`: a colour scheme, clipboard permissions).
   */
  open(file: string, viewport?: { width: number; height: number }, options?: BrowserContextOptions): Promise<OpenedPage>;
  close(): Promise<void>;
}

/**
 * How long a test waits for an element to appear or take a click: the ceiling of a loaded CI machine, where the
 * browser tests share two cores with the conformance runs and an apt install. What is there shows in far less;
 * what is missing fails after it.
 */
export const WAIT_MS = 30_000;

/** Pages a test may keep open at once: Chromium renders each in a process of its own. */
export const PAGES_AT_ONCE = 3;

/** `items` dealt into PAGES_AT_ONCE lanes, one for each page kept open. */
export const pageLanes = <T>(items: T[]): T[][] =>
  Array.from({ length: PAGES_AT_ONCE }, (_, lane) => items.filter((_, i) => i % PAGES_AT_ONCE === lane));

/** Serves the built site `dir` on a free port of 127.0.0.1 and launches Chromium. */
export async function openSiteBrowser(dir = SITE): Promise<SiteBrowser> {
  assert.ok(fs.existsSync(path.join(dir, 'index.html')), `${dir}/index.html is missing: run npm run docs`);
  assert.ok(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium`);
  const port = await findFreePort();
  const server: Server = await serveStatic(dir, '127.0.0.1', port);
  const base = `http://127.0.0.1:${port}`;
  const browser = await launchChromium();
  const outside: string[] = [];

  async function open(file: string, viewport = { width: 1400, height: 1000 }, options: BrowserContextOptions = {}): Promise<OpenedPage> {
    const context = await browser.newContext({ viewport, ...options });
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT_MS);
    page.on('close', () => void context.close().catch(() => undefined));
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    page.on('pageerror', (error) => errors.push(String(error)));
    await keepLocal(page, (url) => outside.push(url));
    await page.goto(`${base}/${file}`, { waitUntil: 'load' });
    return { page, errors };
  }

  async function close(): Promise<void> {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }

  return { dir, base, browser, outside, open, close };
}

type Json = Record<string, any>;

/** The slug Redoc makes of a tag or heading: `Gift cards` → `gift-cards`. */
export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * Redoc renders one route at a time: the route of every operation and every webhook of the bundle
 * (`#/<tag>/<operationid>`), with the heading it shows (its summary; a webhook's summary is its event name).
 */
export function referenceRoutes(openapi: Json): { route: string; heading: string; webhook: boolean }[] {
  const routes: { route: string; heading: string; webhook: boolean }[] = [];
  for (const group of ['paths', 'webhooks'] as const) {
    for (const item of Object.values<Json>(openapi[group] ?? {})) {
      for (const op of Object.values<Json>(item)) {
        if (typeof op !== 'object' || !op.operationId) continue;
        routes.push({
          route: `#/${slug(op.tags?.[0] ?? '')}/${String(op.operationId).toLowerCase()}`,
          heading: op.summary ?? op.operationId,
          webhook: group === 'webhooks',
        });
      }
    }
  }
  return routes;
}

/**
 * Waits until Redoc has rendered the reference page in the browser: its search box no longer says
 * "Loading..." (as the server's HTML does), no early heading (scripts/docs/early-heading.ts) stands in for it,
 * and one of its headings is shown.
 */
export async function redocRendered(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const { document } = globalThis as any;
      const loading = [...document.querySelectorAll('.menu-content span')].some((s: any) => s.textContent === 'Loading...');
      return !loading && document.querySelector('.early-heading') === null;
    },
    undefined,
    { timeout: WAIT_MS },
  );
  await page.locator('[data-testid="middle-panel"] :is(h1, h2)[data-component-name]').first().waitFor({ timeout: WAIT_MS });
}
