// The guides as the site publishes them (scripts/docs/guides.ts, site.ts): links adapted to the site's
// addresses, contributor passages left out, titles, and generated pages joining the site from a folder (generated/workflows/).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adaptLinks, GUIDES, partnerText, readGuides, siteHref, splitTitle } from '../../scripts/docs/guides.ts';
import { workflowPages } from '../../scripts/docs/site.ts';

describe('the guides of the site', () => {
  it('publishes the guides, the client, sandbox and conformance guides and the changelog, each read from its file', () => {
    const { guides, missing } = readGuides();
    expect(missing).toEqual([]);
    expect(guides.map((g) => g.file)).toEqual(GUIDES.map((g) => g.file));
    for (const file of ['docs/client.md', 'docs/sandbox.md', 'docs/conformance.md', 'CHANGELOG.md']) {
      expect(
        guides.some((g) => g.file === file),
        file,
      ).toBe(true);
    }
    for (const guide of guides) {
      const source = fs.readFileSync(path.resolve(import.meta.dirname, '../..', guide.file), 'utf8');
      expect(source.startsWith(`# ${guide.title}\n`), guide.file).toBe(true);
      expect(guide.body).not.toMatch(/^# /m);
    }
  });

  it("turns links between guides into the pages' addresses, keeps anchors, and unlinks unpublished files", () => {
    expect(siteHref('errors.md', 'docs/webhooks.md')).toBe('/guides/errors/');
    expect(siteHref('./limits.md#plans', 'docs/errors.md')).toBe('/guides/limits/#plans');
    expect(siteHref('#the-raw-body-pitfall', 'docs/webhooks.md')).toBe('#the-raw-body-pitfall');
    expect(siteHref('docs/sandbox.md#simulations', 'CHANGELOG.md')).toBe('/guides/sandbox/#simulations');
    expect(siteHref('../CHANGELOG.md', 'docs/client.md')).toBe('/changelog/');
    expect(siteHref('../generated/openapi.json', 'docs/errors.md')).toBe('/openapi.json');
    expect(siteHref('https://example.com/x.md', 'docs/errors.md')).toBe('https://example.com/x.md');
    expect(siteHref('structure.md', 'docs/errors.md')).toBeUndefined();
    const text = 'See [Errors](errors.md), [the layout](structure.md) and `[not](a-link.md)`.\n\n```md\n[kept](errors.md)\n```\n';
    expect(adaptLinks(text, 'docs/limits.md')).toBe(
      'See [Errors](/guides/errors/), the layout and `[not](a-link.md)`.\n\n```md\n[kept](errors.md)\n```\n',
    );
  });

  it('leaves out what only contributors need, marked in the file, and keeps the rest', () => {
    const text = 'For you.\n\n<!-- contributors -->\nRun `npm run bench`.\n\nMore.\n<!-- /contributors -->\nAlso for you.\n';
    expect(partnerText(text)).toBe('For you.\n\nAlso for you.\n');
    expect(partnerText('No marks.\n')).toBe('No marks.\n');
  });

  it('publishes a table of the plans without the markers npm run build writes it between', () => {
    const text = 'Limits.\n\n<!-- x-plans: limits -->\n| Limit | Value |\n|---|---|\n<!-- /x-plans -->\n\nAfter.\n';
    expect(partnerText(text)).toBe('Limits.\n\n| Limit | Value |\n|---|---|\n\nAfter.\n');
    const page = readGuides().guides.find((g) => g.file === 'docs/limits.md')!;
    expect(page.body).toContain('| Limit | Value |');
    expect(page.body).not.toContain('x-plans:');
  });

  it('takes the first heading as the title', () => {
    expect(splitTitle('# Errors\n\nBody.\n', 'x')).toEqual({ title: 'Errors', body: 'Body.\n' });
    expect(splitTitle('No heading.\n', 'fallback')).toEqual({ title: 'fallback', body: 'No heading.\n' });
  });

  it('publishes each markdown page of the workflows folder under /workflows/, titled by its heading', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'workflow-pages-'));
    try {
      expect(workflowPages(dir)).toEqual([]);
      expect(workflowPages(path.join(dir, 'absent'))).toEqual([]);
      fs.writeFileSync(path.join(dir, 'cards.md'), '# Card workflows\n\n## Freeze a card\n\nSteps.\n');
      fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a page');
      const pages = workflowPages(dir);
      expect(pages.map((p) => p.id)).toEqual(['workflows/cards']);
      expect(pages[0]!.markdown).toBe('---\ntitle: "Card workflows"\n---\n\n## Freeze a card\n\nSteps.\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
