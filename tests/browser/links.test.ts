// The built site's pages, read as files (npm run test:browser builds them first): every internal link of every
// page lands on a page that exists and, when it names an anchor, on a heading (or element) with that id; a link
// into the API reference names an operation or event it renders; and the partner pages say nothing of the
// repository's internals. The links of the former one-page site that the issue found broken are among them
// (Getting started -> Quickstart, Webhooks -> quickstart, Errors -> Reasons).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'vitest';
import { referenceRoutes, SITE } from './browser.ts';

/** Every HTML file of the site, relative to it. */
function htmlFiles(dir = SITE, prefix = ''): string[] {
  return fs.readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(prefix, entry.name);
    if (entry.isDirectory()) return entry.name === '_astro' || entry.name === 'pagefind' ? [] : htmlFiles(dir, rel);
    return entry.name.endsWith('.html') ? [rel] : [];
  });
}

const decode = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"');

/** The file a site address is served from (`/guides/errors/` -> guides/errors/index.html), if it exists. */
function fileOf(pathname: string): string | undefined {
  const rel = decodeURIComponent(pathname).replace(/^\//, '');
  for (const candidate of [rel, path.posix.join(rel, 'index.html')]) {
    const full = path.join(SITE, candidate);
    if (candidate !== '' && fs.existsSync(full) && fs.statSync(full).isFile()) return candidate;
  }
  return rel === '' ? 'index.html' : undefined;
}

const pages = htmlFiles().filter((f) => !f.startsWith('reference/') && f !== 'asyncapi.html' && f !== '404.html');
const html = new Map(pages.map((f) => [f, fs.readFileSync(path.join(SITE, f), 'utf8')]));
const idsOf = (file: string) =>
  new Set([...(html.get(file) ?? fs.readFileSync(path.join(SITE, file), 'utf8')).matchAll(/\sid="([^"]+)"/g)].map((m) => decode(m[1]!)));

/** The readable text of a page's content (its article), tags removed. */
function contentText(page: string): string {
  const main = /<main[\s\S]*?<\/main>/.exec(page)?.[0] ?? page;
  return decode(main.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, ' ').replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');
}

describe('the pages of the site', () => {
  test('every internal link lands on a page that exists, at a heading or element with its id', () => {
    assert.ok(pages.length >= 20, `the site's pages are found (${pages.length})`);
    const openapi = JSON.parse(fs.readFileSync(path.join(SITE, 'openapi.json'), 'utf8'));
    const routes = new Set(referenceRoutes(openapi).map((r) => r.route));
    const broken: string[] = [];
    let checked = 0;
    for (const [file, page] of html) {
      const here = `/${file.replace(/index\.html$/, '')}`;
      for (const match of page.matchAll(/<a\s[^>]*?href="([^"]+)"/g)) {
        const href = decode(match[1]!);
        if (/^[a-z]+:/i.test(href) && !href.startsWith('http://127.0.0.1')) continue; // outside the site
        const url = new URL(href, `http://site.test${here}`);
        const target = fileOf(url.pathname);
        checked++;
        if (!target) {
          broken.push(`${file}: ${href} (no such page)`);
          continue;
        }
        const anchor = decodeURIComponent(url.hash.slice(1));
        if (!anchor) continue;
        if (target === 'reference/index.html') {
          if (!routes.has(`#${anchor}`)) broken.push(`${file}: ${href} (no operation or event at #${anchor})`);
        } else if (!idsOf(target).has(anchor)) {
          broken.push(`${file}: ${href} (no #${anchor} on ${target})`);
        }
      }
    }
    assert.ok(checked > 1000, `internal links checked: ${checked}`);
    assert.deepEqual(broken, [], 'internal links that land nowhere');
  });

  test('the links the former site broke land on their headings', () => {
    const link = (file: string, text: RegExp) => {
      const match = [...html.get(file)!.matchAll(/<a\s[^>]*?href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)].find((m) =>
        text.test(m[2]!.replace(/<[^>]+>/g, '')),
      );
      assert.ok(match, `${file} has a link ${text}`);
      return decode(match[1]!);
    };
    assert.equal(link('guides/getting-started/index.html', /^Quickstart$/), '/guides/quickstart/');
    assert.equal(link('guides/webhooks/index.html', /^quickstart$/), '/guides/quickstart/');
    assert.equal(link('guides/errors/index.html', /^Reasons$/), '#reasons-refusals-a-program-can-act-on');
    assert.ok(idsOf('guides/errors/index.html').has('reasons-refusals-a-program-can-act-on'));
  });

  test('the partner pages say nothing of the repository: its paths, its npm scripts, "this repository", its machine', () => {
    const internals: [RegExp, string][] = [
      [/(?<![\w/.-])(?:tests|src|scripts)\/[\w.-]/, 'a path of the repository'],
      [/\bthis repository\b/i, '"this repository"'],
      [/\bshared 2-core machine\b/, "the repository's machine"],
      // The conformance suite is the one tool a partner runs from a clone of the contract's repository.
      [/\bnpm (?:start|test|run (?!conformance\b))/, 'an npm script of the repository'],
    ];
    const found: string[] = [];
    for (const [file, page] of html) {
      const text = contentText(page);
      for (const [pattern, what] of internals) {
        const match = pattern.exec(text);
        if (match) found.push(`${file}: ${what}: "…${text.slice(Math.max(0, match.index - 60), match.index + 60)}…"`);
      }
    }
    assert.deepEqual(found, []);
  });
});
