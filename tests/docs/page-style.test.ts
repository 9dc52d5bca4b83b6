// The style added to the rendered reference page (scripts/docs/page-style.ts).
import { describe, expect, it } from 'vitest';
import { withPageStyle } from '../../scripts/docs/page-style.ts';

describe('the page style of the reference', () => {
  it('adds one style element at the end of the head, once', () => {
    const page = '<html><head><title>x</title></head><body><script>"</head>"</script></body></html>';
    const styled = withPageStyle(page);
    expect(styled).toMatch(/<title>x<\/title><style id="docs-page-style">[^<]*overflow-wrap:break-word[^<]*<\/style><\/head><body>/);
    expect(styled.match(/docs-page-style/g)).toHaveLength(1);
    expect(withPageStyle(styled)).toBe(styled);
  });

  it('refuses a page without a head', () => {
    expect(() => withPageStyle('<p>no head</p>')).toThrow(/no <\/head>/);
  });
});
