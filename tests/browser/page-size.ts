// The size of a rendered page of the docs site: its bytes on disk, its full rendered height at a given width,
// and full-page screenshots of it. Chromium cannot capture one image taller than about 16,000 px, so a
// longer page is saved as several images, top to bottom (`index-1280-1.png`, `index-1280-2.png`, ...).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { SiteBrowser } from './browser.ts';

// The functions given to page.evaluate run in the page: its globals, which the Node typings do not declare.
declare const document: any, window: any;

/** The tallest single screenshot taken; a longer page is cut into parts of this height. */
export const SHOT_PART_HEIGHT = 15_000;

export interface PageSize {
  file: string;
  /** Viewport width, CSS pixels. */
  width: number;
  /** Size of the file as served. */
  bytes: number;
  /** `document.scrollingElement.scrollHeight` once rendered to the bottom, CSS pixels. */
  height: number;
  /** Screenshot files, relative to the directory they were saved in, top to bottom. */
  screenshots: string[];
}

/** Rounds of 500 ms without growth after which a page counts as rendered to the bottom. */
const STABLE_ROUNDS = 3;

/**
 * Scrolls to the bottom until the height has stopped growing for a few rounds (Redoc adds the following
 * content when the bottom comes into view, later on a busy machine), then back to the top; returns the height.
 */
export async function renderedHeight(page: Page): Promise<number> {
  const height = () => page.evaluate(() => document.scrollingElement?.scrollHeight ?? 0);
  let current = await height();
  for (let round = 0, stable = 0; round < 60 && stable < STABLE_ROUNDS; round++) {
    await page.evaluate(() => window.scrollTo(0, document.scrollingElement?.scrollHeight ?? 0));
    await page.waitForTimeout(500);
    const next = await height();
    stable = next === current ? stable + 1 : 0;
    current = next;
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return current;
}

/** Saves the whole page as `<name>.png`, or as `<name>-1.png` ... when it is taller than one part. */
export async function fullPageScreenshots(page: Page, dir: string, name: string, height: number): Promise<string[]> {
  const width = page.viewportSize()?.width ?? 1280;
  if (height <= SHOT_PART_HEIGHT) {
    await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
    return [`${name}.png`];
  }
  const files: string[] = [];
  for (let top = 0, part = 1; top < height; top += SHOT_PART_HEIGHT, part++) {
    const file = `${name}-${part}.png`;
    const clip = { x: 0, y: top, width, height: Math.min(SHOT_PART_HEIGHT, height - top) };
    await page.screenshot({ path: path.join(dir, file), fullPage: true, clip });
    files.push(file);
  }
  return files;
}

/**
 * Opens `file` of the site at `width` px, waits for `ready` (a selector that shows it rendered), and
 * measures and photographs it into `dir` as `<file's name>-<width>`.
 */
export async function measurePage(site: SiteBrowser, file: string, width: number, ready: string, dir: string): Promise<PageSize> {
  const { page } = await site.open(file, { width, height: 1000 });
  try {
    await page.locator(ready).first().waitFor({ timeout: 60_000 });
    const height = await renderedHeight(page);
    const name = file.replace(/(^|\/)index\.html$/, '').replace(/\//g, '_') || 'home';
    const screenshots = await fullPageScreenshots(page, dir, `${name}-${width}`, height);
    return { file, width, bytes: fs.statSync(path.join(site.dir, file)).size, height, screenshots };
  } finally {
    await page.close();
  }
}

/** The sizes as a markdown table. */
export function sizesTable(sizes: PageSize[]): string {
  const rows = sizes.map(
    (s) =>
      `| ${s.file} | ${s.bytes.toLocaleString('en-US')} | ${s.width} | ${s.height.toLocaleString('en-US')} | ${s.screenshots.join(', ')} |`,
  );
  return ['| Page | Bytes | Width (px) | Rendered height (px) | Screenshots |', '|---|---:|---:|---:|---|', ...rows].join('\n');
}
