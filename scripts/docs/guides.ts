// The guides of the docs site: which markdown files of the repository are published, at which address, and
// how their markdown is adapted to the site (Starlight pages) at build time. The files stay where they are
// (docs/*.md, CHANGELOG.md), the one source; the site reads them when it is built.
//
// Text only the repository's contributors need is marked in the file and left out (partnerText).
//
// Links between guides are written as on GitHub (`errors.md`, `./limits.md#plans`, `#the-raw-body-pitfall`,
// `docs/contract-diff.md#versioning`); here they become the pages' addresses (`/guides/errors/`). Heading
// anchors are GitHub's slugs (github-slugger), as Starlight makes them, so an anchor that works on GitHub works
// on the site; tests/docs/site.test.ts checks that every link of every page lands on a heading.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/paths.ts';

export interface GuideSource {
  /** The file, relative to the repository root. */
  file: string;
  /** The page's address on the site, without the leading slash: `guides/errors/`. */
  route: string;
  /** Sidebar group. */
  group: 'Start here' | 'Guides' | 'Tools' | 'Reference';
}

/** The published guides, in reading order within their sidebar group. */
export const GUIDES: readonly GuideSource[] = [
  { file: 'docs/getting-started.md', route: 'guides/getting-started/', group: 'Start here' },
  { file: 'docs/quickstart.md', route: 'guides/quickstart/', group: 'Start here' },
  { file: 'docs/authentication.md', route: 'guides/authentication/', group: 'Guides' },
  { file: 'docs/errors.md', route: 'guides/errors/', group: 'Guides' },
  { file: 'docs/idempotency.md', route: 'guides/idempotency/', group: 'Guides' },
  { file: 'docs/limits.md', route: 'guides/limits/', group: 'Guides' },
  { file: 'docs/webhooks.md', route: 'guides/webhooks/', group: 'Guides' },
  { file: 'docs/compatibility.md', route: 'guides/compatibility/', group: 'Guides' },
  { file: 'docs/client.md', route: 'guides/client/', group: 'Tools' },
  { file: 'docs/sandbox.md', route: 'guides/sandbox/', group: 'Tools' },
  { file: 'docs/testing.md', route: 'guides/testing/', group: 'Tools' },
  { file: 'docs/conformance.md', route: 'guides/conformance/', group: 'Tools' },
  { file: 'docs/assistants.md', route: 'guides/assistants/', group: 'Tools' },
  { file: 'CHANGELOG.md', route: 'changelog/', group: 'Reference' },
];

/**
 * Where generated markdown pages join the site: every `*.md` file of this folder becomes a page under
 * `/workflows/`, listed in the sidebar group "Workflows" (absent while the folder is empty or missing).
 * The build writes the Arazzo workflows' pages here (scripts/docs/workflows.ts).
 */
export const WORKFLOW_PAGES_DIR = path.join(ROOT, 'generated', 'workflows');

/** The workflow pages as published pages: `generated/workflows/cards.md` at `workflows/cards/`, its index at `workflows/`. */
export function workflowSources(dir = WORKFLOW_PAGES_DIR): GuideSource[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => {
      const name = path.basename(f, '.md');
      return {
        file: path.relative(ROOT, path.join(dir, f)).split(path.sep).join('/'),
        route: name === 'index' ? 'workflows/' : `workflows/${name}/`,
        group: 'Reference',
      };
    });
}

export interface Guide extends GuideSource {
  /** The first `# ` heading: the page's title. */
  title: string;
  /** The markdown after the title, links adapted to the site. */
  body: string;
}

/** The downloads served beside the pages, by the repository path that a guide may link to. */
const DOWNLOADS: Record<string, string> = {
  'tests/fixtures/webhook-vectors.json': 'webhook-vectors.json',
  'generated/sandbox.json': 'sandbox.json',
  'generated/openapi.json': 'openapi.json',
  'generated/openapi.yaml': 'openapi.yaml',
  'generated/asyncapi.json': 'asyncapi.json',
  'generated/asyncapi.yaml': 'asyncapi.yaml',
};

/** `# Title` and the markdown after it. */
export function splitTitle(markdown: string, fallback: string): { title: string; body: string } {
  const match = /^# (.+)\n/m.exec(markdown);
  if (!match) return { title: fallback, body: markdown };
  return { title: match[1]!.trim(), body: markdown.slice(match.index + match[0].length).replace(/^\s*\n/, '') };
}

/**
 * A link target of the page at `fromFile` as an address of the site: a published guide (`errors.md#codes` →
 * `/guides/errors/#codes`), a download, or an in-page anchor as written. Undefined for a repository file
 * that the site does not publish.
 */
export function siteHref(target: string, fromFile: string, pages: readonly GuideSource[] = GUIDES): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/')) return target;
  const [file = '', anchor] = target.split('#', 2);
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), file));
  const hash = anchor ? `#${anchor}` : '';
  const page = pages.find((g) => g.file === resolved);
  if (page) return `/${page.route}${hash}`;
  const download = DOWNLOADS[resolved];
  return download ? `/${download}` : undefined;
}

/**
 * Rewrites the markdown links of a guide (outside code) to the site's addresses. A link to a repository file
 * that is not published keeps its text and loses the link: the page is for partners.
 */
export function adaptLinks(markdown: string, fromFile: string, pages: readonly GuideSource[] = GUIDES): string {
  return outsideCode(markdown, (text) =>
    text.replace(/(!?)\[((?:[^\]\\]|\\.)*)\]\(([^)\s]+)\)/g, (whole, bang: string, label: string, target: string) => {
      if (bang) return whole;
      const href = siteHref(target, fromFile, pages);
      return href === undefined ? label : `[${label}](${href})`;
    }),
  );
}

/** Applies `change` to the parts of `markdown` outside fenced code blocks and inline code spans. */
export function outsideCode(markdown: string, change: (text: string) => string): string {
  const parts = markdown.split(/(^(?:```|~~~)[^\n]*\n[\s\S]*?^(?:```|~~~)[ \t]*$)/m);
  return parts
    .map((part, i) => {
      if (i % 2 === 1) return part;
      return part
        .split(/(`+[^`\n]*?`+)/)
        .map((piece, j) => (j % 2 === 1 ? piece : change(piece)))
        .join('');
    })
    .join('');
}

/**
 * What the repository's contributors need and a partner does not (running the repository's own tests and
 * benchmarks, working in a clone) is written between `<!-- contributors -->` and `<!-- /contributors -->`
 * lines: it stays in the file, for readers of the repository, and is left out of the site. The markers around a
 * table of the plans (`<!-- x-plans: limits -->`, written by npm run build) are left out too, the table kept.
 */
export function partnerText(markdown: string): string {
  return markdown
    .replace(/^<!-- contributors -->[ \t]*\n[\s\S]*?^<!-- \/contributors -->[ \t]*(?:\n|$)/gm, '')
    .replace(/^<!-- \/?x-plans(?:: [\w-]+)? -->[ \t]*(?:\n|$)/gm, '');
}

/** Reads the published guides; a missing file is reported, not fatal (another branch may remove one). */
export function readGuides(root = ROOT): { guides: Guide[]; missing: string[] } {
  const guides: Guide[] = [];
  const missing: string[] = [];
  for (const source of GUIDES) {
    const full = path.join(root, source.file);
    if (!fs.existsSync(full)) {
      missing.push(source.file);
      continue;
    }
    const { title, body } = splitTitle(fs.readFileSync(full, 'utf8'), path.basename(source.file, '.md'));
    guides.push({ ...source, title, body: adaptLinks(partnerText(body), source.file, [...GUIDES, ...workflowSources()]) });
  }
  return { guides, missing };
}

/** A page of Starlight's content: front matter (JSON is YAML) and the markdown body. */
export function starlightPage(frontMatter: Record<string, unknown>, body: string): string {
  const lines = Object.entries(frontMatter).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `---\n${lines.join('\n')}\n---\n\n${body.trim()}\n`;
}
