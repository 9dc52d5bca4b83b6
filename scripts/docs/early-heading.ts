// The heading of a linked operation, shown as soon as the reference page's HTML is parsed. Redoc's server
// render (redocly build-docs) is the landing page only: an operation is rendered in the browser, once Redoc's
// script (2 MB) is evaluated and has read the whole API description, about a second after the page painted on
// a shared 2-core machine. So the page carries, for every operation and webhook, its route in Redoc's hash
// router and what its heading shows (about 10 KB); a script at the top of the content column, run while the
// HTML streams in, puts the linked one's heading (and method and path) there, and a style hides the landing
// content below it. Redoc then renders the page itself: the hydration does not match the server's HTML on an
// operation's route (Redoc renders that route from the operation on), so React replaces the whole content,
// the early heading with it, and Redoc scrolls its own heading of the operation to the same place.
// npm run bench:docs measures both; tests/browser/reference-links.test.ts checks where a link lands.
import { contractModel, type JsonObject as ContractDocument } from '../../src/contract/model.ts';

type JsonObject = { [key: string]: unknown };

/** What the early heading shows: the operation's heading (Redoc's: the summary), its method and path. */
export interface EarlyHeading {
  heading: string;
  method: string;
  /** The URL path; none for a webhook. */
  path?: string;
}

/** Redoc's slug of a tag: `Proof of address` -> `proof-of-address`. */
export const tagSlug = (tag: string): string =>
  tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * Every operation and webhook of the document by its route in Redoc's hash router (`/<tag slug>/<operationId
 * in lower case>`, as Redoc renders its links: `#/cards/withdrawfromcard`).
 */
export function earlyHeadings(doc: JsonObject): Record<string, EarlyHeading> {
  const headings: Record<string, EarlyHeading> = {};
  const model = contractModel(doc as ContractDocument);
  for (const op of [...model.operations, ...model.webhooks]) {
    if (!op.node.operationId) continue;
    headings[`/${tagSlug(op.tag)}/${String(op.node.operationId).toLowerCase()}`] = {
      heading: String(op.node.summary ?? op.node.operationId),
      method: op.method.toUpperCase(),
      ...(op.section === 'paths' ? { path: op.path } : {}),
    };
  }
  return headings;
}

/** The element the script adds; its class names the style below. */
export const EARLY_HEADING_CLASS = 'early-heading';

/**
 * Run where it stands, at the top of the server-rendered content column: when the address names an operation
 * (also with Redoc's deeper parts after it: `#/cards/withdrawfromcard/responses`), its heading goes there. The
 * script removes itself either way, so that the landing page's HTML stays the server's, which Redoc hydrates.
 */
function script(headings: Record<string, EarlyHeading>): string {
  const table = JSON.stringify(headings).replace(/</g, '\\u003c');
  return (
    `<script>(function(){var s=document.currentScript;try{var h=${table};` +
    `var m=/^#(\\/[^/?&#]+\\/[^/?&#]+)/.exec(decodeURIComponent(location.hash).toLowerCase());var o=m&&h[m[1]];` +
    `if(o){var d=document.createElement('div');d.className='${EARLY_HEADING_CLASS}';var t=document.createElement('h2');` +
    `t.textContent=o.heading;d.appendChild(t);var p=document.createElement('p');var b=document.createElement('b');` +
    `b.textContent=o.method;p.appendChild(b);p.appendChild(document.createTextNode(' '+(o.path||'to your webhook endpoint')));` +
    `d.appendChild(p);s.parentNode.insertBefore(d,s)}}catch(e){}s.remove()})()</script>`
  );
}

/**
 * Its look: Redoc's operation heading (22 px, page-style.ts) where Redoc's lands (56 px below the top of
 * the column); the landing content of the server's HTML (both columns) hidden while the early heading is there (`:has`, so that nothing needs removing when
 * React replaces the content).
 */
const STYLE =
  `<style id="early-heading-style">#api-content .${EARLY_HEADING_CLASS}{padding:56px 0 16px}` +
  `.${EARLY_HEADING_CLASS} h2{font-size:22px;line-height:36px;font-weight:600;margin:0 0 8px}` +
  `.${EARLY_HEADING_CLASS} p{margin:0;font-family:var(--font-family-monospaced,monospace);font-size:14px}` +
  `.${EARLY_HEADING_CLASS} b{margin-right:4px}` +
  `#api-content:has(.${EARLY_HEADING_CLASS}) :is([data-section-id],[data-testid="right-panel"]){display:none}</style>`;

/** The first content column of Redoc's server render, where the script goes. */
const FIRST_MIDDLE_PANEL = /<div data-testid="middle-panel"[^>]*>/;

/** The page with the early heading's script and style. */
export function withEarlyHeading(html: string, doc: JsonObject): string {
  const headings = earlyHeadings(doc);
  const sections = new Set([...html.matchAll(/data-section-id="\/([^"/]+)"/g)].map((m) => m[1]!));
  const unknown = [...new Set(Object.keys(headings).map((route) => route.split('/')[1]!))].filter((tag) => !sections.has(tag));
  if (unknown.length > 0) throw new Error(`the reference's server render has no section for the tags ${unknown.join(', ')}: check tagSlug`);
  if (!FIRST_MIDDLE_PANEL.test(html)) throw new Error('the reference\'s server render has no content column (data-testid="middle-panel")');
  return html.replace(FIRST_MIDDLE_PANEL, (panel) => `${panel}${script(headings)}`).replace('</head>', `${STYLE}</head>`);
}
