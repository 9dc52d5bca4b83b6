// Style added to the rendered reference page (site/index.html) after Redoc built it.
// - A word longer than the content column (an example secret, a long identifier in an example's title)
//   wraps inside the column instead of running under the right panel, which it does at 1280 px wide.
//   `break-word` breaks such a word only where it would overflow, and leaves the width of table columns
//   as Redoc computes it.

const STYLE = '<style id="docs-page-style">[data-testid="middle-panel"]{overflow-wrap:break-word}</style>';

/** The page with the style above added at the end of its head. */
export function withPageStyle(html: string): string {
  if (html.includes('id="docs-page-style"')) return html;
  if (!html.includes('</head>')) throw new Error('the rendered page has no </head> to add the style to');
  return html.replace('</head>', `${STYLE}</head>`);
}
