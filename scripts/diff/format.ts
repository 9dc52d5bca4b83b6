// Render a diff report as terminal text, a markdown PR comment, JSON, or a draft changelog entry.
import type { Bump, Change, Severity } from './classify.ts';
import { reachSummary, type ChangeGroup } from './group.ts';

export interface Report {
  base: { label: string; version: string };
  head: { label: string; version: string };
  /** Every change, once per operation and event it reaches (what the rules classify). */
  changes: Change[];
  /** The changes as a reviewer reads them: one group per change, with what it reaches. */
  groups: ChangeGroup[];
  required: Bump;
  /** How info.version moved; null when one side is not semver. */
  bump: Bump | null;
  /** false when there is a breaking change without a major bump (the CLI then exits 1). */
  ok: boolean;
  warnings: string[];
}

const TITLES: Record<Severity, string> = {
  breaking: 'Breaking changes',
  'non-breaking': 'Non-breaking changes',
  docs: 'Documentation changes',
};
const SEVERITIES: Severity[] = ['breaking', 'non-breaking', 'docs'];

const by = (groups: ChangeGroup[], s: Severity) => groups.filter((g) => g.severity === s);
const count = (r: Report, s: Severity) => by(r.groups, s).length;
const plain = (s: string) => s.replace(/`/g, '');

export function verdict(r: Report): string {
  const b = count(r, 'breaking');
  const version = `info.version ${r.base.version} → ${r.head.version}${r.bump ? ` (${r.bump === 'none' ? 'unchanged' : r.bump})` : ''}`;
  if (!r.changes.length) return `No contract changes. ${version}.`;
  if (b && r.ok) return `${b} breaking change(s), allowed by the major version bump. ${version}.`;
  if (b) return `${b} breaking change(s) without a major version bump. ${version}; required: major.`;
  const enough =
    r.bump !== null && ['none', 'patch', 'minor', 'major'].indexOf(r.bump) >= ['none', 'patch', 'minor', 'major'].indexOf(r.required);
  return `No breaking change. ${version}; suggested bump: ${r.required}${enough ? '' : ' (not yet applied)'}.`;
}

export function formatText(r: Report, color = false): string {
  const paint = (code: number, s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const marks: Record<Severity, string> = { breaking: paint(31, '✗'), 'non-breaking': paint(32, '+'), docs: paint(2, '·') };
  const out = [`Contract diff: ${r.base.label} → ${r.head.label}`, ''];
  for (const w of r.warnings) out.push(paint(33, `warning: ${w}`));
  if (r.warnings.length) out.push('');
  for (const s of SEVERITIES) {
    const list = by(r.groups, s);
    if (!list.length) continue;
    out.push(`${TITLES[s]} (${list.length})`);
    for (const g of list) {
      out.push(`  ${marks[s]} ${plain(g.message)}  [${g.rule}]`);
      for (const place of reachSummary(g.reaches)) out.push(`      in ${plain(place)}`);
    }
    out.push('');
  }
  out.push((r.ok ? paint(32, 'OK: ') : paint(31, 'FAIL: ')) + verdict(r));
  return `${out.join('\n')}\n`;
}

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Markdown text that reads as it is written: outside `code spans`, what a renderer takes for HTML (a variant
 * title in a path, `<Virtual card>.reference`, is a tag to GitHub, which drops it) becomes an entity, and the
 * characters of inline markup (`{*}` of a map's values, `[`, `~`) are escaped. Code spans are left as they are.
 */
export function markdownText(s: string): string {
  return s
    .split(/(`[^`\n]*`)/)
    .map((part, i) => (i % 2 ? part : part.replace(/[&<>]/g, (c) => HTML[c]!).replace(/[\\*[\]~]/g, '\\$&')))
    .join('');
}

/** A markdown table cell: markdownText, and no pipe or newline that would break the row. */
const cell = (s: string) => markdownText(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function formatMarkdown(r: Report): string {
  const icon = r.ok ? (count(r, 'breaking') ? ':warning:' : ':white_check_mark:') : ':x:';
  const out = [
    '## Contract diff',
    '',
    `Base \`${r.base.label}\` → \`${r.head.label}\`.`,
    '',
    `${icon} **${verdict(r)}**`,
    '',
    `| breaking | non-breaking | docs |`,
    `|---:|---:|---:|`,
    `| ${count(r, 'breaking')} | ${count(r, 'non-breaking')} | ${count(r, 'docs')} |`,
    '',
  ];
  for (const w of r.warnings) out.push(`> [!WARNING]\n> ${markdownText(w)}\n`);
  for (const s of SEVERITIES) {
    const list = by(r.groups, s);
    if (!list.length) continue;
    const reached = (g: ChangeGroup) =>
      reachSummary(g.reaches, (x) => `\`${x}\``)
        .map(cell)
        .join('<br>');
    const body = [
      `| change | reaches | rule |`,
      `|---|---|---|`,
      ...list.map((g) => `| ${cell(g.message)} | ${reached(g)} | \`${cell(g.rule)}\` |`),
    ];
    if (s === 'breaking') out.push(`### ${TITLES[s]} (${list.length})`, '', ...body, '');
    else out.push(`<details><summary>${TITLES[s]} (${list.length})</summary>`, '', ...body, '', '</details>', '');
  }
  return out.join('\n');
}

export function formatJson(r: Report): string {
  const summary = Object.fromEntries(SEVERITIES.map((s) => [s, count(r, s)]));
  return `${JSON.stringify({ ...r, summary, verdict: verdict(r) }, null, 2)}\n`;
}

/** A draft Keep a Changelog entry; the version is the head's if it was bumped enough, else the suggested one. */
export function formatChangelog(r: Report, version: string, date = new Date().toISOString().slice(0, 10)): string {
  const sections = { Added: [] as string[], Changed: [] as string[], Deprecated: [] as string[], Removed: [] as string[] };
  for (const g of r.groups) {
    if (g.severity === 'docs') continue;
    const section: keyof typeof sections = g.rename
      ? 'Changed'
      : g.rule === 'deprecated'
        ? 'Deprecated'
        : /-removed$/.test(g.rule)
          ? 'Removed'
          : g.severity === 'non-breaking' && /-added(-optional)?$/.test(g.rule)
            ? 'Added'
            : 'Changed';
    sections[section].push(
      `- ${g.severity === 'breaking' ? '**Breaking:** ' : ''}${markdownText(g.message)} (${markdownText(reachSummary(g.reaches, (x) => `\`${x}\``).join('; '))})`,
    );
  }
  const docs = count(r, 'docs');
  if (docs) sections.Changed.push(`- Documentation: ${docs} description/example change(s).`);
  const out = [`## [${version}] - ${date}`, ''];
  for (const [name, lines] of Object.entries(sections)) if (lines.length) out.push(`### ${name}`, '', ...lines, '');
  if (out.length === 2) out.push('No contract changes.', '');
  return out.join('\n');
}
