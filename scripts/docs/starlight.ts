// The guide pages of the docs site, built with Astro Starlight: static HTML per page, full width, with
// highlighted code and copy buttons (Expressive Code), linkable headings, local search by section (Pagefind),
// dark mode, and one sidebar. It works offline: no font, script or image is fetched from elsewhere.
//
// The pages are written as markdown into a work folder (a Starlight project of its own: `src/content/docs/`),
// then Astro builds them into the site's folder. The API reference (reference.ts) and the downloads are added
// beside them afterwards.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'astro';
import starlight from '@astrojs/starlight';
import { unified } from '@astrojs/markdown-remark';

export interface Page {
  /** Path of the page under `src/content/docs/`, without `.md`: `guides/errors`, `events/card-events`. */
  id: string;
  /** The page's markdown with its front matter (guides.ts `starlightPage`). */
  markdown: string;
}

export interface SidebarGroup {
  label: string;
  /** Page ids, or links elsewhere on the site. */
  items: (string | { label: string; link: string })[];
}

export interface StarlightSite {
  title: string;
  description: string;
  pages: Page[];
  sidebar: SidebarGroup[];
}

const THEME = path.join(import.meta.dirname, 'theme');

/**
 * A heading that is an event name (`card.frozen`, `virtual_account.transfer_completed`) keeps the name as its
 * anchor, `#card.frozen`, as the events page always had; other headings get Starlight's slugs.
 */
export function rehypeEventAnchors() {
  type Node = { type: string; tagName?: string; value?: string; properties?: Record<string, unknown>; children?: Node[] };
  const text = (node: Node): string => (node.type === 'text' ? (node.value ?? '') : (node.children ?? []).map(text).join(''));
  const visit = (node: Node) => {
    if (node.type === 'element' && /^h[23]$/.test(node.tagName ?? '')) {
      const name = text(node).trim();
      if (/^[a-z0-9_]+(\.[a-z0-9_]+)+$/.test(name)) node.properties = { ...node.properties, id: name };
    }
    for (const child of node.children ?? []) visit(child);
  };
  return (tree: Node) => visit(tree);
}

/** Reloads a legacy link of the old one-page site (`/#/cards/withdrawfromcard`) at the API reference. */
const LEGACY_HASH_REDIRECT =
  "if(/^#\\/./.test(location.hash)&&/^\\/(index\\.html)?$/.test(location.pathname))location.replace('/reference/'+location.hash)";

/** Builds the pages into `outDir` (emptied first), through a Starlight project in `workDir`. */
export async function buildStarlight(site: StarlightSite, workDir: string, outDir: string): Promise<void> {
  fs.rmSync(workDir, { recursive: true, force: true });
  const content = path.join(workDir, 'src', 'content', 'docs');
  for (const page of site.pages) {
    const file = path.join(content, `${page.id}.md`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, page.markdown);
  }
  fs.mkdirSync(path.join(workDir, 'public'), { recursive: true });
  fs.copyFileSync(path.join(THEME, 'favicon.svg'), path.join(workDir, 'public', 'favicon.svg'));
  fs.writeFileSync(
    path.join(workDir, 'src', 'content.config.ts'),
    [
      "import { defineCollection } from 'astro:content';",
      "import { docsLoader } from '@astrojs/starlight/loaders';",
      "import { docsSchema } from '@astrojs/starlight/schema';",
      'export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };',
      '',
    ].join('\n'),
  );
  await build({
    root: workDir,
    outDir,
    configFile: false,
    logLevel: 'error',
    telemetry: { enabled: false },
    markdown: { processor: unified({ rehypePlugins: [rehypeEventAnchors] }) },
    // The server-side prerender imports js-yaml as Astro's and Starlight's own 4.x; left external, it would
    // resolve to the repository's 5.x, which has no default export.
    vite: { environments: { prerender: { resolve: { noExternal: ['js-yaml'] } } } },
    integrations: [
      starlight({
        title: site.title,
        description: site.description,
        customCss: [path.join(THEME, 'site.css')],
        components: { SocialIcons: path.join(THEME, 'SiteLinks.astro') },
        sidebar: site.sidebar.map((group) => ({ label: group.label, items: group.items })),
        head: [{ tag: 'script', content: LEGACY_HASH_REDIRECT }],
        tableOfContents: { minHeadingLevel: 2, maxHeadingLevel: 3 },
        pagination: false,
        lastUpdated: false,
        credits: false,
      }),
    ],
  } as never);
  if (!fs.existsSync(path.join(outDir, 'index.html'))) throw new Error(`the guide pages were not built into ${outDir}`);
}
