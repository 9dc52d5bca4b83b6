// How fast a page of the docs site paints, and what it weighs, as a reader's browser sees it: first
// contentful paint and largest contentful paint (Chromium's own PerformanceObserver entries, from the start
// of the navigation), and the bytes of every response the page loaded. Each measurement is a new browser
// context (nothing cached), offline.
import type { Browser } from 'playwright-core';
import { keepLocal } from './chromium.ts';

// The function given to page.evaluate runs in the page: its globals, which the Node typings do not declare.
declare const PerformanceObserver: any, performance: any;

export interface Paint {
  url: string;
  /** First contentful paint, ms from the navigation's start. */
  fcp: number;
  /** Largest contentful paint: the last candidate once the page has been quiet for `quietMs`. */
  lcp: number;
  /** Bytes of every response of the page (bodies as sent). */
  bytes: number;
  requests: number;
}

/** Time without a new largest-paint candidate after which the last one counts as the page's. */
const QUIET_MS = 1500;

/** Opens `url` in a fresh context at `width` x 900 and measures it; fails if a request leaves 127.0.0.1. */
export async function measurePaint(browser: Browser, url: string, width = 1280): Promise<Paint> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  try {
    const page = await context.newPage();
    const outside: string[] = [];
    await keepLocal(page, (blocked) => outside.push(blocked));
    const responses: Promise<number>[] = [];
    page.on('requestfinished', (request) => {
      responses.push(request.sizes().then((s) => s.responseBodySize, () => 0));
    });
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    const paint = await page.evaluate((quietMs) => new Promise<{ fcp: number; lcp: number }>((resolve) => {
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
      new PerformanceObserver((list: any) => {
        for (const entry of list.getEntries()) lcp = Math.max(lcp, entry.startTime);
        wait();
      }).observe({ type: 'largest-contentful-paint', buffered: true });
      wait();
    }), QUIET_MS);
    if (outside.length > 0) throw new Error(`${url} sent requests outside 127.0.0.1: ${outside.slice(0, 3).join(', ')}`);
    const sizes = await Promise.all(responses);
    return { url, fcp: Math.round(paint.fcp), lcp: Math.round(paint.lcp), bytes: sizes.reduce((a, b) => a + b, 0), requests: sizes.length };
  } finally {
    await context.close();
  }
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
};
