// How fast a page of the docs site paints, and what it weighs, as a reader's browser sees it: first
// contentful paint and largest contentful paint (Chromium's own PerformanceObserver entries, from the start
// of the navigation), the time the content the reader came for (a heading with a given text) is in the window,
// and the bytes of every response the page loaded. Each measurement is a new browser context (nothing
// cached), offline.
import type { Browser } from 'playwright-core';
import { keepLocal } from './chromium.ts';

// The function given to page.evaluate runs in the page: its globals, which the Node typings do not declare.
// biome-ignore lint/suspicious/noExplicitAny: the page's DOM, whose types this Node program does not load (tsconfig's lib has no DOM).
declare const performance: any, document: any, window: any, requestAnimationFrame: any;
declare const PerformanceObserver: new (
  callback: (list: { getEntries(): { startTime: number }[] }) => void,
) => { observe(options: object): void };

export interface Paint {
  url: string;
  /** First contentful paint, ms from the navigation's start. */
  fcp: number;
  /** Largest contentful paint: the last candidate once the page has been quiet for `quietMs`. */
  lcp: number;
  /** When the awaited heading was first in the window, ms from the navigation's start (0 when not awaited). */
  ready: number;
  /** Bytes of every response of the page (bodies as sent). */
  bytes: number;
  requests: number;
}

/** Time without a new largest-paint candidate after which the last one counts as the page's. */
const QUIET_MS = 1500;

/** A heading the reader came for: the first `selector` element whose text contains `text`. */
export interface Awaited {
  selector: string;
  text: string;
}

/**
 * Opens `url` in a fresh context at `width` x 900 and measures it; fails if a request leaves 127.0.0.1, or if
 * the awaited heading never shows.
 */
export async function measurePaint(browser: Browser, url: string, awaited?: Awaited, width = 1280): Promise<Paint> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  try {
    const page = await context.newPage();
    if (awaited) {
      // Checked at every frame from the start: the time the heading is first laid out inside the window.
      await page.addInitScript(({ selector, text }) => {
        const look = () => {
          const found = [...document.querySelectorAll(selector)].some((e) => {
            const r = e.getBoundingClientRect();
            return (e.textContent ?? '').includes(text) && r.height > 0 && r.top >= 0 && r.top < window.innerHeight;
          });
          if (found) window.__docsReady = performance.now();
          else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      }, awaited);
    }
    const outside: string[] = [];
    await keepLocal(page, (blocked) => outside.push(blocked));
    const responses: Promise<number>[] = [];
    page.on('requestfinished', (request) => {
      responses.push(
        request.sizes().then(
          (s) => s.responseBodySize,
          () => 0,
        ),
      );
    });
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    const paint = await page.evaluate(
      (quietMs) =>
        new Promise<{ fcp: number; lcp: number }>((resolve) => {
          let lcp = 0;
          let timer: unknown;
          const done = () => {
            const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
            resolve({ fcp, lcp });
          };
          const wait = () => {
            clearTimeout(timer as number);
            timer = setTimeout(done, quietMs);
          };
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) lcp = Math.max(lcp, entry.startTime);
            wait();
          }).observe({ type: 'largest-contentful-paint', buffered: true });
          wait();
        }),
      QUIET_MS,
    );
    if (outside.length > 0) throw new Error(`${url} sent requests outside 127.0.0.1: ${outside.slice(0, 3).join(', ')}`);
    let ready = 0;
    if (awaited) {
      await page
        .waitForFunction(() => window.__docsReady !== undefined, undefined, { timeout: 30_000 })
        .catch(() => {
          throw new Error(`${url}: no ${awaited.selector} with "${awaited.text}" in the window`);
        });
      ready = await page.evaluate(() => window.__docsReady as number);
    }
    const sizes = await Promise.all(responses);
    return {
      url,
      fcp: Math.round(paint.fcp),
      lcp: Math.round(paint.lcp),
      ready: Math.round(ready),
      bytes: sizes.reduce((a, b) => a + b, 0),
      requests: sizes.length,
    };
  } finally {
    await context.close();
  }
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
};
