// npm run diff -- [base-ref] [--format text|markdown|json|changelog] [--changelog]
// Compares the contract at base-ref (default: the merge base with main) with the working tree.
// Exit codes: 0 no breaking change (or a major bump), 1 breaking change without a major bump, 2 error.
import { atLeast, nextVersion } from './classify.ts';
import { formatChangelog, formatJson, formatMarkdown, formatText } from './format.ts';
import { defaultBaseRef, repoRoot } from './load.ts';
import { buildReport } from './report.ts';
import { parseCli, reportCliError, UsageError } from '../lib/cli-parser.ts';

const USAGE = `Usage: npm run diff -- [base-ref] [--format text|markdown|json|changelog] [--changelog]
  base-ref     git ref of the base contract (default: merge base of HEAD and main)
  --format     text (default), markdown (PR comment), json, or changelog (draft CHANGELOG.md entry)
  --changelog  print the draft changelog entry after the text report
Exits 1 on a breaking change unless info.version has a major bump, 2 on an error.`;
const FORMATS = ['text', 'markdown', 'json', 'changelog'];

async function main(argv: string[]): Promise<number> {
  const args = parseCli(argv, {
    usage: USAGE,
    options: { format: { type: 'string', default: 'text' }, changelog: { type: 'boolean', default: false } },
    positionals: { max: 1, name: 'base-ref' },
  });
  if (!args) return 0;
  const { values, positionals } = args;
  const format = values.format ?? 'text';
  if (!FORMATS.includes(format)) throw new UsageError(`unknown --format ${format} (expected ${FORMATS.join(', ')})`);
  const repo = repoRoot(process.cwd());
  const baseRef = positionals[0] ?? defaultBaseRef(repo);
  const report = await buildReport(repo, baseRef);
  const draftVersion =
    atLeast(report.bump, report.required) && report.bump !== 'none'
      ? report.head.version
      : nextVersion(report.base.version, report.required);
  const out =
    format === 'markdown'
      ? formatMarkdown(report)
      : format === 'json'
        ? formatJson(report)
        : format === 'changelog'
          ? formatChangelog(report, draftVersion)
          : formatText(report, process.stdout.isTTY) +
            (values.changelog ? `\nDraft changelog entry:\n\n${formatChangelog(report, draftVersion)}` : '');
  process.stdout.write(out);
  return report.ok ? 0 : 1;
}

// Every error exits 2 (1 means a breaking change): a usage error with the usage, any other in one line.
main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    reportCliError('contract diff', USAGE, error);
    process.exitCode = 2;
  },
);
