// Style added to the rendered reference page (site/index.html) after Redoc built it.
// - A word longer than the content column (an example secret, a long identifier in an example's title)
//   wraps inside the column instead of running under the right panel, which it does at 1280 px wide.
//   `break-word` breaks such a word only where it would overflow, and leaves the width of table columns
//   as Redoc computes it.
// - Redoc's renderer is styled by CSS variables on :root and does not read the theme options of redocly.yaml
//   (`theme.sidebar.width` ...): `html:root` outranks Redoc's own `:root`, which it injects later. The sidebar
//   is 370 px wide (285 by default) with 13 px labels (14), so that the longest event name,
//   `virtual_account.transfer_completed`, fits on one line beside its POST badge: Redoc breaks a label that
//   does not fit anywhere, mid-word ("balance.deposit_confir med"). tests/browser/sidebar.test.ts measures it.
// - An operation's heading takes the whole width of its column when it needs it (the Copy button moves
//   below it) and h2 headings are 22 px (28): at 1280 px, 4 of the 33 event names still break in their
//   heading (19 before); only markup could split them at their dots.
// - A code block's controls (the copy button) sit in a row of their own above the code, not over its first
//   line, where they hid the start of the sample's URL.

const RULES = [
  '[data-testid="middle-panel"]{overflow-wrap:break-word}',
  'html:root{--sidebar-width:370px;--sidebar-font-size:13px;--h2-font-size:22px}',
  '[data-testid="middle-panel"]>div:has(>div>[data-testid="page-actions"]){flex-wrap:wrap}',
  '[data-component-name="CodeBlock/CodeBlockControls"]{position:static!important;display:flex;justify-content:flex-end}',
];
const STYLE = `<style id="docs-page-style">${RULES.join('')}</style>`;

/** The page with the style above added at the end of its head. */
export function withPageStyle(html: string): string {
  if (html.includes('id="docs-page-style"')) return html;
  if (!html.includes('</head>')) throw new Error('the rendered page has no </head> to add the style to');
  return html.replace('</head>', `${STYLE}</head>`);
}
