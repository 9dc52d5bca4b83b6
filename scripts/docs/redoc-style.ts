// The reference's own style rules, added to Redoc's page (site/index.html). Redoc's renderer is styled through
// CSS variables on :root; the theme options of redocly.yaml (`theme.sidebar.width` ...) are not read by it, so
// the rules go in a <style> of the page. `html:root` outranks Redoc's own `:root`, which it injects later.
//
// - The sidebar is wider (370 px instead of 285) with 13 px labels (instead of 14), so that the longest event
//   name, `virtual_account.transfer_completed`, fits on one line beside its POST badge: Redoc breaks a label
//   that does not fit anywhere, mid-word ("balance.deposit_confir med").
// - An operation's heading takes the whole width of its column when it needs it (the Copy button moves below)
//   and h2 headings are 22 px instead of 28: at 1280 px, 4 of the 33 event names still break in their heading
//   (19 before), which only markup could split at their dots.
export const REDOC_CSS = `html:root { --sidebar-width: 370px; --sidebar-font-size: 13px; --h2-font-size: 22px; }
[data-testid='middle-panel'] > div:has(> div > [data-testid='page-actions']) { flex-wrap: wrap; }`;

/** Adds the rules to Redoc's page, at the end of its head. */
export function withRedocStyle(html: string): string {
  if (!html.includes('</head>')) throw new Error('Redoc page without </head>: cannot add its style');
  return html.replace('</head>', `<style data-partner-api>${REDOC_CSS}</style></head>`);
}
