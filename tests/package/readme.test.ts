// The package README (docs/package-readme.md, the tarball's README.md) is all a partner has after
// `npm install`: it names every export of every entry of package.json `exports` in its section of "Every
// export" (read from the entry modules with the TypeScript compiler), every option of the client and of the
// sandbox, every operation of the simulation API and every bin; and every page it links to is a page the docs
// site publishes (scripts/docs/guides.ts, the events pages, the reference) or a file in the tarball, never a
// guide of the repository that the package does not hold. The bins' help links to published pages too.
import { contractModel } from '../../src/contract/model.ts';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { eventsPages } from '../../scripts/docs/events-page.ts';
import { GUIDES, workflowSources } from '../../scripts/docs/guides.ts';
import { guideUrl } from '../../src/package-info.ts';
import { USAGE as MCP_USAGE } from '../../src/mcp/mcp-flags.ts';
import { USAGE as SANDBOX_USAGE } from '../../src/sandbox/sandbox-flags.ts';
import { USAGE as TRIGGER_USAGE } from '../../src/trigger/trigger-flags.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const PACKAGE = JSON.parse(read('package.json')) as {
  name: string;
  homepage: string;
  repository: { url: string };
  files: string[];
  bin: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
};
const README = read('docs/package-readme.md');

/** The text of a markdown section: from its heading to the next heading of the same level or higher. */
function section(markdown: string, heading: string): string {
  const level = /^#+/.exec(heading)![0].length;
  const start = markdown.split('\n').findIndex((line) => line.trim() === heading);
  if (start < 0) return '';
  const lines = markdown.split('\n').slice(start + 1);
  const end = lines.findIndex((line) => new RegExp(`^#{1,${level}} `).test(line));
  return lines.slice(0, end < 0 ? undefined : end).join('\n');
}

/** The code of a markdown text: inline code spans and fenced blocks, where an export is named as code. */
function code(markdown: string): string {
  const fenced = [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  const inline = [...markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
  return [...fenced, ...inline].join('\n');
}

const named = (text: string, name: string) => new RegExp(`(^|[^\\w$])${name.replace(/\$/g, '\\$')}([^\\w$]|$)`).test(text);

/** The source module of each entry of package.json `exports` (`./dist/testing/index.d.ts` -> `src/testing/index.ts`). */
const ENTRIES = Object.entries(PACKAGE.exports)
  .filter(([, target]) => typeof target === 'object')
  .map(([entry, target]) => ({
    specifier: entry === '.' ? PACKAGE.name : `${PACKAGE.name}/${entry.slice(2)}`,
    source: (target as { types: string }).types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'),
  }));

const program = ts.createProgram(
  ENTRIES.map((e) => path.join(ROOT, e.source)),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  },
);
const checker = program.getTypeChecker();

function moduleSymbol(source: string): ts.Symbol {
  const file = program.getSourceFile(path.join(ROOT, source));
  const symbol = file && checker.getSymbolAtLocation(file);
  if (!symbol) throw new Error(`${source}: not a module the compiler can read`);
  return symbol;
}

/** The names an entry module exports, values and types alike. */
const exportsOf = (source: string) =>
  checker
    .getExportsOfModule(moduleSymbol(source))
    .map((s) => s.name)
    .sort();

/** The property names of an exported interface. */
function propertiesOf(source: string, name: string): string[] {
  const symbol = checker.getExportsOfModule(moduleSymbol(source)).find((s) => s.name === name);
  if (!symbol) throw new Error(`${source} exports no ${name}`);
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(target)).map((p) => p.name);
}

describe('the package README names everything a partner uses', () => {
  const everyExport = section(README, '## Every export');

  it('reads the entries of package.json exports from src/', () => {
    expect(ENTRIES.map((e) => e.specifier)).toEqual([
      PACKAGE.name,
      `${PACKAGE.name}/webhooks`,
      `${PACKAGE.name}/types`,
      `${PACKAGE.name}/sandbox`,
      `${PACKAGE.name}/testing`,
    ]);
    for (const entry of ENTRIES) expect(fs.existsSync(path.join(ROOT, entry.source)), entry.source).toBe(true);
    expect(exportsOf('src/index.ts')).toContain('createPartnerClient');
  });

  it.each(ENTRIES)('every export of $specifier, in its section of "Every export"', ({ specifier, source }) => {
    const text = code(section(everyExport, `### \`${specifier}\``));
    expect(text, `docs/package-readme.md has no "### \`${specifier}\`" under "## Every export"`).not.toBe('');
    const missing = exportsOf(source).filter((name) => !named(text, name));
    expect(missing, `exported by ${specifier} (${source}) and not named in its section of docs/package-readme.md`).toEqual([]);
  });

  it('every option of createPartnerClient (and of its retry) and of startSandbox', () => {
    const text = code(README);
    const options = [
      ...propertiesOf('src/index.ts', 'PartnerClientOptions'),
      ...propertiesOf('src/index.ts', 'RetryOptions'),
      ...propertiesOf('src/sandbox/index.ts', 'SandboxOptions'),
      ...propertiesOf('src/sandbox/index.ts', 'RunningSandbox').filter((p) => !['core', 'server'].includes(p)),
    ];
    expect(options).toContain('freezeClock');
    expect(options.filter((name) => !named(text, name))).toEqual([]);
  });

  it('every operation of the simulation API', () => {
    const model = contractModel(JSON.parse(read('generated/sandbox.json')));
    const operations = model.operations.map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(operations.length).toBeGreaterThan(20);
    const text = code(section(README, '## The sandbox'));
    expect(operations.filter((op) => !text.includes(op))).toEqual([]);
  });

  it('covers install, the client, webhooks, the sandbox and the test kit, with an import of each entry', () => {
    for (const heading of ['## Install', '## The client', '## Webhooks', '## The sandbox', '## The test kit'])
      expect(README).toContain(heading);
    for (const { specifier } of ENTRIES.filter((e) => !e.specifier.endsWith('/types'))) expect(README).toContain(`from '${specifier}'`);
    expect(README).toContain(`from '${PACKAGE.name}/types'`);
  });

  it('every bin, and how to run it', () => {
    const text = code(README);
    for (const bin of Object.keys(PACKAGE.bin)) {
      expect(named(code(section(everyExport, '### Bins')), bin), bin).toBe(true);
      expect(text).toContain(`npx ${bin} `);
    }
  });
});

/** The site's address of every page it publishes (scripts/docs/site.ts): home, guides, events, reference, workflows. */
function publishedPages(): Map<string, string | undefined> {
  const site = PACKAGE.homepage.endsWith('/') ? PACKAGE.homepage : `${PACKAGE.homepage}/`;
  const pages = new Map<string, string | undefined>([
    [site, undefined],
    [`${site}reference/`, undefined],
  ]);
  for (const guide of [...GUIDES, ...workflowSources()]) pages.set(`${site}${guide.route}`, guide.file);
  for (const page of eventsPages(JSON.parse(read('generated/asyncapi.json'))))
    pages.set(`${site}${page.id.replace(/(^|\/)index$/, '')}/`, undefined);
  return pages;
}

/** GitHub's slug of a heading, as the site makes them too (scripts/docs/guides.ts). */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** Why `link` is not a published page (or a heading of one), or undefined when it is. */
function notPublished(link: string, pages: Map<string, string | undefined>): string | undefined {
  const [page = '', anchor] = link.split('#', 2);
  if (!pages.has(page)) return `${link}: not a page of the docs site`;
  const file = pages.get(page);
  if (anchor === undefined || file === undefined) return undefined;
  const headings = [...read(file).matchAll(/^#{2,6} (.+)$/gm)].map((m) => slug(m[1]!));
  return headings.includes(anchor) ? undefined : `${link}: ${file} has no heading #${anchor}`;
}

/** True when `file` is in the tarball: package.json `files` names it or a folder holding it (npm adds package.json and README.md). */
const inTarball = (file: string) =>
  ['package.json', 'README.md'].includes(file) || PACKAGE.files.some((entry) => file === entry || file.startsWith(`${entry}/`));

describe('every guide the package README links to is published or in the tarball', () => {
  const pages = publishedPages();
  const repository = PACKAGE.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  const links = [...README.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);

  it('knows the published pages', () => {
    expect(pages.has(`${PACKAGE.homepage}guides/testing/`)).toBe(true);
    expect(pages.has(`${PACKAGE.homepage}events/`)).toBe(true);
    expect(notPublished(`${PACKAGE.homepage}guides/nope/`, pages)).toBeDefined();
    expect(notPublished(`${PACKAGE.homepage}guides/webhooks/#no-such-heading`, pages)).toBeDefined();
    expect(inTarball('generated/openapi.json') && !inTarball('docs/testing.md') && !inTarball('CHANGELOG.md')).toBe(true);
  });

  it('links to pages of the docs site, files of the tarball, or the repository itself (its source and issues)', () => {
    expect(links.length).toBeGreaterThan(10);
    const problems = links.flatMap((link) => {
      if (link.startsWith(PACKAGE.homepage)) return notPublished(link, pages) ?? [];
      if (!/^[a-z][a-z0-9+.-]*:/i.test(link))
        return inTarball(path.posix.normalize(link.split('#')[0]!)) ? [] : [`${link}: not a file of the tarball`];
      if (link === repository || link === `${repository}/issues`) return [];
      return [`${link}: neither a page of the docs site (${PACKAGE.homepage}) nor a file of the tarball`];
    });
    expect(problems).toEqual([]);
  });

  it("guideUrl (the bins' help) gives each guide's published page", () => {
    for (const guide of GUIDES.filter((g) => g.file.startsWith('docs/'))) {
      expect(guideUrl(path.basename(guide.file))).toBe(`${PACKAGE.homepage}${guide.route}`);
    }
    const helpLinks = [SANDBOX_USAGE, TRIGGER_USAGE, MCP_USAGE].flatMap((usage) => [...usage.matchAll(/https:\/\/\S+/g)].map((m) => m[0]));
    expect(helpLinks).toHaveLength(3);
    expect(helpLinks.flatMap((link) => notPublished(link, pages) ?? [])).toEqual([]);
  });
});
