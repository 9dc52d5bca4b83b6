// The GitHub workflows (.github/workflows/), which cannot run here: each is parsed and checked with GitHub's
// own parser (@actions/workflow-parser: the schema and expressions of the Actions runner), and every step
// that runs a command runs an npm script that CI here (.ci/run) runs too, so that a workflow step cannot
// fail on GitHub for a reason no run here would show. `npm publish` is the one exception: it packs what the
// pack test packs (tests/package/pack.test.ts) and only the registry can accept it.
import fs from 'node:fs';
import path from 'node:path';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIR = path.join(ROOT, '.github', 'workflows');
const CI = fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
const SCRIPTS = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const FILES = fs
  .readdirSync(DIR)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();

/** The npm scripts .ci/run runs: those it names, and those they run in turn (`docs` runs `build`). */
function scriptsRunByCi(): Set<string> {
  const named = (command: string) => [...command.matchAll(/(?:^|[\s;&|('])npm (?:run ([\w:-]+)|(test)\b)/gm)].map((m) => m[1] ?? m[2]!);
  const found = new Set(named(CI));
  for (const name of found) for (const next of named(SCRIPTS[name] ?? '')) found.add(next);
  return found;
}

type Step = { name?: string; run?: string; uses?: string; with?: Record<string, unknown>; env?: Record<string, string> };
type Job = { steps: Step[]; permissions?: Record<string, string>; needs?: string | string[] };
type Workflow = { on: Record<string, any>; jobs: Record<string, Job> };

const text = (file: string) => fs.readFileSync(path.join(DIR, file), 'utf8');
const workflow = (file: string) => YAML.parse(text(file)) as Workflow;
const steps = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps);
const runs = (w: Workflow) => steps(w).flatMap((s) => (s.run ? [s.run.trim()] : []));

/** The problems GitHub's parser finds in a workflow: its schema, its expressions, then the conversion. */
async function parserErrors(name: string, content: string): Promise<string[]> {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((e) => e.message);
  if (errors.length > 0 || !parsed.value) return errors.length ? errors : [`${name}: nothing parsed`];
  const template = await convertWorkflowTemplate(parsed.context, parsed.value);
  return [...(template.errors ?? []).map((e) => e.Message), ...parsed.context.errors.getErrors().map((e) => e.message)];
}

describe('the workflow files', () => {
  it('are the pull request workflow and the release workflow', () => {
    expect(FILES).toEqual(['pull-request.yml', 'release.yml']);
  });

  it.each(FILES)('%s: GitHub’s parser finds no problem', async (file) => {
    expect(await parserErrors(file, text(file))).toEqual([]);
  });

  it('a broken workflow is reported by the parser (the check can fail)', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub Actions expressions, one the parser reads and one it refuses.
    const [expression, unparsable] = ['${{ github.event.pull_request.number }}', '${{ github.event.( }}'];
    const broken = text('pull-request.yml').replace('runs-on:', 'runs-onn:').replace(expression, unparsable);
    const errors = await parserErrors('broken.yml', broken);
    expect(errors.some((e) => /runs-onn/.test(e))).toBe(true);
    expect(errors.some((e) => /Unexpected symbol/.test(e))).toBe(true);
  });

  it('reads what .ci/run runs, with the scripts those run', () => {
    const ci = scriptsRunByCi();
    for (const name of ['test', 'lint', 'check:generated', 'diff:comment', 'test:browser:site', 'docs', 'ci:chromium'])
      expect(ci.has(name), name).toBe(true);
    for (const name of ['bench', 'start', 'mock']) expect(ci.has(name), name).toBe(false);
  });

  it.each(FILES)('%s: every command is npm ci, npm test or an npm script that .ci/run runs too', (file) => {
    for (const run of runs(workflow(file))) {
      expect(run, `one command per step: ${run}`).not.toMatch(/\n|&&|;|\|/);
      if (run === 'npm publish') {
        expect(file).toBe('release.yml');
        continue;
      }
      const script = /^npm (?:run ([\w:-]+)(?: -- .*)?|(test|ci))$/.exec(run);
      expect(script, `${run}: npm ci, npm test or npm run <script>`).not.toBeNull();
      const name = script![1] ?? script![2]!;
      if (name !== 'ci') expect(SCRIPTS[name], `${name} is a script of package.json`).toBeDefined();
      const inCi = name === 'ci' ? /^npm ci\b/m.test(CI) : scriptsRunByCi().has(name);
      expect(inCi, `.ci/run runs ${run.split(' -- ')[0]}`).toBe(true);
    }
  });
});

describe('on a pull request', () => {
  const w = workflow('pull-request.yml');

  it('runs the lint, the drift check, the tests, and builds the docs site as an artifact', () => {
    expect(Object.keys(w.on)).toEqual(['pull_request']);
    const commands = runs(w);
    for (const c of [
      'npm run lint -- --format github-actions',
      'npm run check:generated',
      'npm test',
      'npm run test:e2e',
      'npm run typecheck',
      'npm run docs',
      'npm run test:browser:site',
    ])
      expect(commands).toContain(c);
    const artifact = steps(w).find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(String(artifact?.with?.path)).toContain('site/');
  });

  it('posts npm run diff against the base branch as one comment, with the history and the right to comment', () => {
    const job = Object.values(w.jobs).find((j) => j.steps.some((s) => s.run?.startsWith('npm run diff:comment')))!;
    expect(job.permissions).toMatchObject({ 'pull-requests': 'write' });
    expect(job.steps.find((s) => s.uses?.startsWith('actions/checkout@'))?.with).toMatchObject({ 'fetch-depth': 0 });
    const step = job.steps.find((s) => s.run?.startsWith('npm run diff:comment'))!;
    expect(step.run).toBe('npm run diff:comment -- "origin/$GITHUB_BASE_REF"');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, in the workflow's own syntax.
    expect(step.env).toEqual({ GITHUB_TOKEN: '${{ secrets.GITHUB_TOKEN }}' });
  });
});

describe('on a version tag', () => {
  const w = workflow('release.yml');

  it('checks the tag against the version, then publishes the package with provenance and the docs', () => {
    expect(w.on).toEqual({ push: { tags: ['v*.*.*'] } });
    const commands = runs(w);
    expect(commands.indexOf('npm run check:version -- --tag "$GITHUB_REF_NAME"')).toBeLessThan(commands.indexOf('npm publish'));
    expect(w.jobs.publish!.permissions).toMatchObject({ 'id-token': 'write' });
    expect(commands).toContain('npm run docs');
    expect(steps(w).some((s) => s.uses?.startsWith('actions/deploy-pages@'))).toBe(true);
    expect(steps(w).find((s) => s.uses?.startsWith('actions/upload-pages-artifact@'))?.with).toEqual({ path: 'site/' });
  });
});
