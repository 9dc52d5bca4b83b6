// The docs the MCP server searches and quotes: llms-full.txt, every page of the docs site as markdown, which the
// package ships (dist/llms-full.txt, written by `npm run build:lib` with the docs build's own generator,
// scripts/docs/llms.ts). Each page of it starts with its title as a level-1 heading and a `Page:` line with its
// address; the API reference and the simulation API's page are two of the pages, with an `###` section per
// operation whose first line names its operationId.
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../sandbox/core/contract.js';

export interface DocSection {
  /** The page's title: `Errors`, `API reference`. */
  page: string;
  /** The page's address on the docs site: `/guides/errors/`. */
  url: string;
  /** The section's heading (the page's title for its opening, before its first `##`). */
  heading: string;
  /** The section's markdown, its heading line included. */
  text: string;
}

export interface Docs {
  /** Where the text was read from. */
  source: string;
  sections: DocSection[];
}

/** Where the docs are looked for, in order: the package's copy, then a built docs site (a clone after `npm run docs`). */
export const DEFAULT_DOCS = [path.join(PACKAGE_ROOT, 'dist', 'llms-full.txt'), path.join(PACKAGE_ROOT, 'site', 'llms-full.txt')];

/** The sections of an llms-full.txt: a section per `##` and `###` heading of each page, and each page's opening. */
export function parseSections(markdown: string): DocSection[] {
  const sections: DocSection[] = [];
  let page = '';
  let url = '';
  let current: DocSection | undefined;
  let fence: string | undefined;
  /** Between a page's title and its `Page:` line. */
  let opening = false;
  const close = () => {
    if (current && current.text.trim() !== '') sections.push({ ...current, text: current.text.trim() });
    current = undefined;
  };
  for (const line of markdown.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker) {
      fence = marker;
    } else if (fence !== undefined) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
    } else {
      const heading = /^(#{1,3}) (.+)$/.exec(line);
      if (heading) {
        close();
        if (heading[1] === '#') {
          page = heading[2]!.trim();
          url = '';
          opening = true;
        }
        current = { page, url, heading: heading[2]!.replace(/`/g, '').trim(), text: '' };
      }
      const address = /^Page: (\S+)/.exec(line);
      if (address && current && opening) {
        url = address[1]!;
        current.url = url;
        opening = false;
      }
    }
    if (current) current.text += `${line}\n`;
  }
  close();
  // The file's own opening (before the first page) is not a page of the site.
  return sections.filter((s) => s.url !== '');
}

/** Reads the docs from `file`, else from the first of DEFAULT_DOCS that exists; undefined when there is none. */
export function loadDocs(file?: string): Docs | undefined {
  const candidates = file ? [file] : DEFAULT_DOCS;
  const found = candidates.find((f) => fs.existsSync(f));
  if (!found) {
    if (file) throw new Error(`--docs ${file} does not exist`);
    return undefined;
  }
  const sections = parseSections(fs.readFileSync(found, 'utf8'));
  if (sections.length === 0) throw new Error(`${found} has no pages: give the docs site's llms-full.txt`);
  return { source: found, sections };
}

/** The address of each API's reference page on the docs site. */
export const REFERENCE_PAGES = { partner: '/reference/', simulation: '/reference/simulation/' } as const;

/** The section of a reference page (the API reference unless told) that describes an operation. */
export function operationSection(docs: Docs, operationId: string, page: string = REFERENCE_PAGES.partner): DocSection | undefined {
  return docs.sections.find((s) => s.url === page && s.text.split('\n', 4).some((line) => line.includes(`operationId \`${operationId}\``)));
}

const WORD = /[\p{L}\p{N}_]+(?:[.-][\p{L}\p{N}_]+)*/gu;
const STOP = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'do',
  'for',
  'from',
  'how',
  'i',
  'if',
  'in',
  'is',
  'it',
  'of',
  'on',
  'or',
  'the',
  'to',
  'what',
  'when',
  'with',
]);

/** A word's first five letters: `verify`, `verifying` and `verified` count as one word, as `limit` and `limits`. */
const stem = (word: string) => (word.length > 5 ? word.slice(0, 5) : word);

/**
 * The words of a text, lowercase, each cut to its stem; a dotted or dashed name (`card.frozen`,
 * `Idempotency-Key`) is kept whole and also split into its parts.
 */
export function terms(text: string): string[] {
  return [...text.toLowerCase().matchAll(WORD)]
    .flatMap((m) => {
      const word = m[0];
      const parts = word.split(/[.-]/);
      return parts.length > 1 ? [word, ...parts.map(stem)] : [stem(word)];
    })
    .filter((t) => !STOP.has(t));
}

export interface SearchHit extends DocSection {
  score: number;
}

/**
 * The sections that best match `query` (BM25 over the sections' words, a word of the heading or page title
 * counting three times, the whole query found as written counting extra), best first.
 */
export function searchDocs(docs: Docs, query: string, limit = 5): SearchHit[] {
  const wanted = [...new Set(terms(query))];
  if (wanted.length === 0) return [];
  const indexed = docs.sections.map((section) => {
    const counts = new Map<string, number>();
    const add = (words: string[], weight: number) => {
      for (const w of words) counts.set(w, (counts.get(w) ?? 0) + weight);
    };
    add(terms(section.text), 1);
    add(terms(`${section.heading} ${section.page}`), 2);
    return { section, counts, length: [...counts.values()].reduce((a, b) => a + b, 0) };
  });
  const average = indexed.reduce((a, s) => a + s.length, 0) / Math.max(1, indexed.length);
  const idf = new Map(
    wanted.map((t) => {
      const n = indexed.filter((s) => s.counts.has(t)).length;
      return [t, Math.log(1 + (indexed.length - n + 0.5) / (n + 0.5))];
    }),
  );
  const phrase = query.trim().toLowerCase();
  const k1 = 1.2;
  // Less weight than BM25's usual 0.75 on length: a long section that covers a subject beats a short one that names it.
  const b = 0.5;
  return indexed
    .map(({ section, counts, length }) => {
      let score = 0;
      for (const t of wanted) {
        const tf = counts.get(t) ?? 0;
        if (tf > 0) score += idf.get(t)! * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / average)));
      }
      if (score > 0 && phrase.length > 3 && section.text.toLowerCase().includes(phrase)) score *= 1.5;
      return { ...section, score };
    })
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
