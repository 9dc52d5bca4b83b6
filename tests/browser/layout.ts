// Layout checks the browser tests share: text that runs out of its column, and the pages of the built site.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { SITE } from './browser.ts';

// The function given to page.evaluate runs in the page: its globals, which the Node typings do not declare.
declare const document: any, NodeFilter: any, getComputedStyle: any;

/**
 * Text inside `selector` (each element matched is a column) that sticks out of the column's right edge,
 * unless a box that scrolls (a table or code block with `overflow: auto`) clips it inside the column, as
 * "+<px> px: <text>". `within` limits the text checked to tables and code blocks, or takes all of it.
 */
export function overflowingText(page: Page, selector: string, within = 'table, pre'): Promise<string[]> {
  return page.evaluate(
    ({ selector, within }) => {
      const found: string[] = [];
      for (const column of document.querySelectorAll(selector)) {
        const box = column.getBoundingClientRect();
        if (box.width === 0) continue;
        const edge = box.right;
        for (const holder of within === '*' ? [column] : column.querySelectorAll(within)) {
          const walker = document.createTreeWalker(holder, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!(node.textContent ?? '').trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            const right = range.getBoundingClientRect().right;
            if (right <= edge + 1) continue;
            let clipped = false;
            for (let up = node.parentElement; up && up !== column.parentElement && !clipped; up = up.parentElement) {
              clipped = getComputedStyle(up).overflowX !== 'visible' && up.getBoundingClientRect().right <= edge + 1;
            }
            if (!clipped) found.push(`+${Math.round(right - edge)} px: ${(node.textContent ?? '').trim().slice(0, 80)}`);
          }
        }
      }
      return found;
    },
    { selector, within },
  );
}

/** Horizontal overflow of the whole page, in px (0 when it fits the window). */
export const pageOverflow = (page: Page): Promise<number> =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Every page Starlight built (`guides/errors/`, `events/card-events/`, `` for the home page), in order. */
export function guidePages(dir = SITE, prefix = ''): string[] {
  const here = fs.readdirSync(path.join(dir, prefix), { withFileTypes: true });
  const pages = here.some((e) => e.isFile() && e.name === 'index.html') && prefix !== 'reference' ? [prefix ? `${prefix}/` : ''] : [];
  for (const entry of here) {
    if (!entry.isDirectory() || ['_astro', 'pagefind', 'reference'].includes(entry.name)) continue;
    pages.push(...guidePages(dir, path.posix.join(prefix, entry.name)));
  }
  return pages.sort();
}
