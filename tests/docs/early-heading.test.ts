// The reference page's links as the build writes them: the early heading of a linked operation
// (scripts/docs/early-heading.ts) and Redoc's links in its hash router's form (hashLinks of
// scripts/docs/reference.ts). tests/browser/reference-links.test.ts opens them in Chromium.
import { describe, expect, it } from 'vitest';
import { earlyHeadings, withEarlyHeading } from '../../scripts/docs/early-heading.ts';
import { hashLinks } from '../../scripts/docs/reference.ts';
import { built } from '../contract/helpers.ts';
import { contractModel } from '../../src/contract/model.ts';

const { openapi } = built();
const model = contractModel(openapi);

/** A server render's shape: the sections Redoc writes, then the first content column. */
const page = (tags: string[]) =>
  `<html><head></head><body><div id="redoc">${tags.map((t) => `<div data-section-id="/${t}"></div>`).join('')}` +
  '<div data-testid="middle-panel" class="x"><h1>API</h1></div></div></body></html>';

describe('the early heading', () => {
  it("gives every operation and webhook its heading at its route in Redoc's hash router", () => {
    const headings = earlyHeadings(openapi);
    const operations = [...model.operations, ...model.webhooks].filter((o) => o.node['operationId']);
    expect(Object.keys(headings)).toHaveLength(operations.length);
    expect(headings['/cards/withdrawfromcard']).toEqual({
      heading: 'Withdraw from a card',
      method: 'POST',
      path: '/cards/{code}/withdraw',
    });
    // A tag of several words: its slug.
    expect(headings['/proof-of-address/getpoastatus']?.heading).toBe(model.byPath('GET', '/poa/{customerCode}/status')?.summary);
    const webhook = Object.entries(headings).find(([, h]) => h.path === undefined);
    expect(webhook?.[0]).toMatch(/^\/[a-z-]+-events\/on[a-z]+$/);
  });

  it('puts its script at the top of the first content column, and its style in the head', () => {
    const tags = [...new Set(Object.keys(earlyHeadings(openapi)).map((r) => r.split('/')[1]!))];
    const html = withEarlyHeading(page(tags), openapi);
    expect(html).toMatch(/<div data-testid="middle-panel" class="x"><script>\(function\(\)\{var s=document\.currentScript;/);
    expect(html).toContain('"/cards/withdrawfromcard":{"heading":"Withdraw from a card"');
    expect(html).toMatch(/<style id="early-heading-style">[^<]*<\/style><\/head>/);
  });

  it("fails the build when a route's tag is not a section of Redoc's render (its slug differs)", () => {
    expect(() => withEarlyHeading(page(['cards']), openapi)).toThrow(/no section for the tags .*customers/);
  });
});

describe("Redoc's links", () => {
  it("are written in the hash router's form, and no other link is touched", () => {
    const html =
      '<a class="c" href="/section/envelopes" data-discover="true">Envelopes</a><a href="/cards" data-discover="true">Cards</a>' +
      '<a href="/guides/getting-started/">Guides</a><a class="site-title" href="/">Partner API</a>';
    expect(hashLinks(html)).toBe(
      '<a class="c" href="#/section/envelopes" data-discover="true">Envelopes</a><a href="#/cards" data-discover="true">Cards</a>' +
        '<a href="/guides/getting-started/">Guides</a><a class="site-title" href="/">Partner API</a>',
    );
  });
});
