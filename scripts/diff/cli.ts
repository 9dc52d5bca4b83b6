// npm run diff -- [base-ref] [--format text|markdown|json|changelog] [--changelog]
// Compares the contract at base-ref (default: the merge base with main) with the working tree.
// Exit codes: 0 no breaking change (or a major bump), 1 breaking change without a major bump, 2 error.
import { parseArgs } from 'node:util';
import { atLeast, nextVersion } from './classify.ts';
import { formatChangelog, formatJson, formatMarkdown, formatText } from './format.ts';
import { DiffError, defaultBaseRef, repoRoot } from './load.ts';
import { buildReport } from './report.ts';

const USAGE = `Usage: npm run diff -- [base-ref] [--format text|markdown|json|changelog] [--changelog]
  base-ref     git ref of the base contract (default: merge base of HEAD and main)
  --format     text (default), markdown (PR comment), json, or changelog (draft CHANGELOG.md entry)
  --changelog  print the draft changelog entry after the text report
Exits 1 on a breaking change unless info.version has a major bump.`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { format: { type: 'string', default: 'text' }, changelog: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!['text', 'markdown', 'json', 'changelog'].includes(values.format!)) throw new DiffError(`Unknown --format ${values.format}.\n${USAGE}`);
  if (positionals.length > 1) throw new DiffError(`Expected at most one base ref.\n${USAGE}`);
  const repo = repoRoot(process.cwd());
  const baseRef = positionals[0] ?? defaultBaseRef(repo);
  const report = await buildReport(repo, baseRef);
  const draftVersion = atLeast(report.bump, report.required) && report.bump !== 'none' ? report.head.version : nextVersion(report.base.version, report.required);
  const out =
    values.format === 'markdown' ? formatMarkdown(report)
    : values.format === 'json' ? formatJson(report)
    : values.format === 'changelog' ? formatChangelog(report, draftVersion)
    : formatText(report, process.stdout.isTTY) + (values.changelog ? `\nDraft changelog entry:\n\n${formatChangelog(report, draftVersion)}` : '');
  process.stdout.write(out);
  return report.ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err) => {
    console.error(err instanceof DiffError ? `contract diff: ${err.message}` : err);
    process.exitCode = 2;
  },
);
