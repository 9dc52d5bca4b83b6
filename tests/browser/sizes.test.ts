// The size of the docs site's main pages as a reader gets them: bytes on disk and full rendered height at
// 1280 px wide, with full-page screenshots (test-results/browser/<page>-<width>[-<part>].png) and
// the figures in test-results/browser/sizes.json, for the record of what the site looks like (every page is
// photographed by site.test.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { openSiteBrowser, SHOTS, SITE, type SiteBrowser } from './browser.ts';
import { measurePage, sizesTable, type PageSize } from './page-size.ts';

const WIDTHS = [1280];
/** The pages measured, and what shows that each has rendered. */
const PAGES: Record<string, string> = {
  'index.html': '.sl-markdown-content',
  'guides/errors/index.html': '.sl-markdown-content',
  'events/card-events/index.html': '.sl-markdown-content',
  'reference/index.html': 'a[href*="/section/"]',
};

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

  test('the main pages are measured and photographed whole at 1280 px', async () => {
    const sizes: PageSize[] = [];
    for (const [file, ready] of Object.entries(PAGES)) {
      assert.ok(fs.existsSync(path.join(SITE, file)), `the site has ${file}`);
      for (const width of WIDTHS) {
        const size = await measurePage(site, file, width, ready, SHOTS);
        assert.ok(size.height >= 1000, `${file} at ${width} px renders (${size.height} px high)`);
        // The screenshots cover the page: each as wide as the window, their heights add up to the page's.
        const shots = size.screenshots.map((shot) => pngSize(path.join(SHOTS, shot)));
        assert.ok(
          shots.every((s) => s.width === width),
          `${file} at ${width} px: screenshots ${JSON.stringify(shots)}`,
        );
        assert.equal(
          shots.reduce((sum, s) => sum + s.height, 0),
          size.height,
          `${file} at ${width} px: screenshots cover the page`,
        );
        sizes.push(size);
      }
    }
    const record = { site: path.relative(process.cwd(), SITE) || '.', measured: new Date().toISOString(), pages: sizes };
    fs.writeFileSync(path.join(SHOTS, 'sizes.json'), `${JSON.stringify(record, null, 2)}\n`);
    console.log(sizesTable(sizes));
    assert.deepEqual(site.outside, [], 'no request left 127.0.0.1');
  }, 600_000);
});
