// The size of every page of the docs site as a reader gets it: bytes on disk and full rendered height at
// 1280 and 1400 px wide, with full-page screenshots (test-results/browser/<page>-<width>[-<part>].png) and
// the figures in test-results/browser/sizes.json, for the record of what the site looks like.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { openSiteBrowser, SHOTS, SITE, type SiteBrowser } from './browser.ts';
import { measurePage, sizesTable, type PageSize } from './page-size.ts';

const WIDTHS = [1280, 1400];
/** What shows that a page has rendered; `body` for a page without a known marker. */
const READY: Record<string, string> = { 'index.html': 'a[href$="/section/overview"]' };

/** Width and height of a PNG file, from its header. */
function pngSize(file: string): { width: number; height: number } {
  const header = fs.readFileSync(file).subarray(0, 24);
  assert.equal(header.toString('latin1', 1, 4), 'PNG', `${file} is a PNG`);
  return { width: header.readUInt32BE(16), height: header.readUInt32BE(20) };
}

let site: SiteBrowser;

describe('docs site sizes', () => {
  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    site = await openSiteBrowser();
  });

  afterAll(async () => {
    await site?.close();
  });

  test('every page is measured and photographed whole at 1280 and 1400 px', async () => {
    const pages = fs.readdirSync(SITE).filter((f) => f.endsWith('.html')).sort();
    assert.ok(pages.includes('index.html'), 'the site has its reference page');
    const sizes: PageSize[] = [];
    for (const file of pages) {
      for (const width of WIDTHS) {
        const size = await measurePage(site, file, width, READY[file] ?? 'body', SHOTS);
        assert.ok(size.height >= 1000, `${file} at ${width} px renders (${size.height} px high)`);
        // The screenshots cover the page: each as wide as the window, their heights add up to the page's.
        const shots = size.screenshots.map((shot) => pngSize(path.join(SHOTS, shot)));
        assert.ok(shots.every((s) => s.width === width), `${file} at ${width} px: screenshots ${JSON.stringify(shots)}`);
        assert.equal(shots.reduce((sum, s) => sum + s.height, 0), size.height, `${file} at ${width} px: screenshots cover the page`);
        sizes.push(size);
      }
    }
    const record = { site: path.relative(process.cwd(), SITE) || '.', measured: new Date().toISOString(), pages: sizes };
    fs.writeFileSync(path.join(SHOTS, 'sizes.json'), `${JSON.stringify(record, null, 2)}\n`);
    console.log(sizesTable(sizes));
    assert.deepEqual(site.outside, [], 'no request left 127.0.0.1');
  }, 600_000);
});
