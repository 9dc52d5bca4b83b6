// Debian's Chromium, headless and offline, through playwright-core: the browser of the docs site's browser
// tests (tests/browser/) and of its paint benchmark (npm run bench:docs). `npx playwright install` downloads a
// browser and fails here, so the system one is launched directly (/usr/bin/chromium is a wrapper script).
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/**
 * Lets the page reach 127.0.0.1 (and data: and blob: URLs) only; every other request is aborted and passed to
 * `blocked`. The site must work offline: a request that leaves the machine is a defect.
 */
export async function keepLocal(page: Page, blocked: (url: string) => void): Promise<void> {
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if ((url.protocol === 'http:' && url.hostname === '127.0.0.1') || url.protocol === 'data:' || url.protocol === 'blob:') {
      return route.continue();
    }
    blocked(route.request().url());
    return route.abort('blockedbyclient');
  });
}
