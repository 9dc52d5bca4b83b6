// The markdown report reads as it is written: a variant title in a path (`<Virtual card>.reference`) is not a
// tag to a markdown renderer, which would drop it and leave two rows that read the same.
import { describe, expect, it } from 'vitest';
import { formatChangelog, formatMarkdown, markdownText } from '../../scripts/diff/format.ts';
import { diffFixture } from './helpers.ts';

describe('markdown', () => {
  it('escapes what a renderer reads as HTML or inline markup, outside code spans only', () => {
    expect(markdownText('<Virtual card>.reference: maxLength 64 → 32')).toBe('&lt;Virtual card&gt;.reference: maxLength 64 → 32');
    expect(markdownText('data{*}.a & [b] ~c~ \\d')).toBe('data{\\*}.a &amp; \\[b\\] \\~c\\~ \\\\d');
    expect(markdownText('enum value `<x> & *y*` added')).toBe('enum value `<x> & *y*` added');
  });

  it('the report and the changelog name each variant of a changed field', async () => {
    const report = await diffFixture('markdown');
    const md = formatMarkdown(report);
    expect(md).toContain(
      '| &lt;Virtual card&gt;.reference: maxLength 64 → 32 | request body (application/json) of `POST /cards` | `constraint-tightened` |',
    );
    expect(md).toContain('| &lt;Physical card&gt;.reference: maxLength 64 → 48 |');
    expect(md).not.toMatch(/<(Virtual|Physical) card>/);
    const changelog = formatChangelog(report, '2.0.0', '2026-11-24');
    expect(changelog).toContain(
      '- **Breaking:** &lt;Virtual card&gt;.reference: maxLength 64 → 32 (request body (application/json) of `POST /cards`)',
    );
    expect(changelog).not.toMatch(/<(Virtual|Physical) card>/);
  });
});
