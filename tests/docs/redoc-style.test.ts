// The reference's own style rules (scripts/docs/redoc-style.ts) are added to Redoc's page head, once; a page
// without a head is refused. The browser test (tests/browser/sidebar.test.ts) checks what they do.
import { describe, expect, it } from 'vitest';
import { REDOC_CSS, withRedocStyle } from '../../scripts/docs/redoc-style.ts';

describe('withRedocStyle', () => {
  it("adds the rules at the end of the page's head, before the body", () => {
    const html = withRedocStyle('<html><head><title>x</title></head><body><script>"<head></head>"</script></body></html>');
    expect(html).toBe(`<html><head><title>x</title><style data-partner-api>${REDOC_CSS}</style></head><body><script>"<head></head>"</script></body></html>`);
    expect(REDOC_CSS).toMatch(/--sidebar-width: 370px/);
  });

  it('refuses a page without </head>', () => {
    expect(() => withRedocStyle('<html><body></body></html>')).toThrow(/without <\/head>/);
  });
});
