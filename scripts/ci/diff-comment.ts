// npm run diff:comment -- [base-ref] [--out <file>]
// The contract diff of a pull request as one comment: `npm run diff -- <base-ref> --format markdown`, under a
// marker, posted on the pull request and edited in place on every push (scripts/ci/github.ts). On GitHub
// (GITHUB_TOKEN, GITHUB_REPOSITORY and a pull_request event in GITHUB_EVENT_PATH) it posts, and writes the
// report to the job summary too; elsewhere (CI here, your machine) it prints the comment and posts nothing.
// Exits with the diff's code, after posting: 1 for a breaking change without a major bump, 2 on an error.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CliError, parseCli, runCli } from '../lib/cli-parser.ts';
import { ROOT } from '../lib/paths.ts';
import { upsertComment, type CommentTarget } from './github.ts';

const USAGE = `Usage: npm run diff:comment -- [base-ref] [--out <file>]
  base-ref      git ref of the base contract (default: as npm run diff, the merge base with main)
  --out <file>  also write the comment to this file
On GitHub Actions (a pull_request event), posts it as one comment of the pull request, updated in place.`;

/** The first line of the comment: how the comment is found again on the next push. */
const MARKER = '<!-- partner-api: contract diff -->';

/** Where to post, from the environment of a GitHub Actions job on a pull request; undefined elsewhere. */
function githubTarget(env: NodeJS.ProcessEnv): CommentTarget | undefined {
  const { GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_EVENT_PATH, GITHUB_API_URL } = env;
  if (!GITHUB_TOKEN || !GITHUB_REPOSITORY || !GITHUB_EVENT_PATH || !fs.existsSync(GITHUB_EVENT_PATH)) return undefined;
  const event = JSON.parse(fs.readFileSync(GITHUB_EVENT_PATH, 'utf8')) as { pull_request?: { number?: number } };
  const pullRequest = event.pull_request?.number;
  if (pullRequest === undefined) return undefined;
  return { api: GITHUB_API_URL ?? 'https://api.github.com', repository: GITHUB_REPOSITORY, pullRequest, token: GITHUB_TOKEN };
}

await runCli('diff:comment', USAGE, async () => {
  const args = parseCli(process.argv.slice(2), {
    usage: USAGE,
    options: { out: { type: 'string' } },
    positionals: { max: 1, name: 'base-ref' },
  });
  if (!args) return 0;
  const diff = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'diff', 'cli.ts'), ...args.positionals, '--format', 'markdown'], {
    cwd: process.cwd(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (diff.status !== 0 && diff.status !== 1) throw new CliError(`npm run diff failed (exit ${diff.status ?? diff.signal}); see above`, 2);
  const sha = process.env.GITHUB_SHA ?? spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  const body = `${MARKER}\n${diff.stdout.trimEnd()}\n\n<sub>\`npm run diff\` at ${sha.slice(0, 12)}; this comment is updated on every push.</sub>\n`;
  process.stdout.write(body);
  if (args.values.out) fs.writeFileSync(args.values.out, body);
  if (process.env.GITHUB_STEP_SUMMARY) fs.appendFileSync(process.env.GITHUB_STEP_SUMMARY, body);
  const target = githubTarget(process.env);
  if (target) {
    const result = await upsertComment(target, MARKER, body);
    if (result.action === 'refused')
      console.error(
        `diff:comment: GitHub refused the comment (HTTP ${result.status}: a pull request from a fork gets a read-only token); the report is in the job summary`,
      );
    else console.error(`diff:comment: ${result.action} ${result.url}`);
  }
  return diff.status;
});
