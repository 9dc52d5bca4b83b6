// npm run lint: `redocly lint` of both documents (redocly.yaml) as the build reads them, with the lists of
// webhook events written in (scripts/build/assemble.ts: every hand-written line keeps its spec/ file and
// number); then, on a fresh build of spec/ (the bundles the build writes to generated/), `redocly lint` of
// the bundles and Spectral (.spectral.yaml: spectral:oas, the OWASP ruleset and the house rules) on the
// OpenAPI bundle, and `redocly lint` of the Arazzo workflows (spec/workflows); then Biome on the TypeScript and
// JavaScript (biome.jsonc: `biome ci`, the formatter's check and the linter). Extra arguments pass through to
// the first Redocly run (`npm run lint -- --format github-actions`); an option Redocly's lint does not have is
// refused first, in one line with "did you mean", rather than after Redocly's whole help. Exits non-zero when
// any of them reports a problem.
import fs from 'node:fs';
import path from 'node:path';
import { assembleWorkspace } from '../build/assemble.ts';
import { buildToTemp } from '../build/build.ts';
import { closest, runCli, UsageError } from '../lib/cli-parser.ts';
import { APIS, ROOT } from '../lib/paths.ts';
import { workflowSources } from '../build/workflows.ts';
import { lint, lintBundles, redocly, type RunResult } from '../lib/redocly.ts';
import { spectralLint } from '../lib/spectral.ts';
import { biomeCi } from './biome.ts';

const USAGE = `Usage: npm run lint [-- <redocly lint options>]
  Redocly's lint of both documents, the workflows and the bundles, Spectral on the OpenAPI bundle, then Biome's
  format check and lint of the code (biome.jsonc; \`npm run format\` writes the formatting). Options go to
  \`redocly lint\` (--format github-actions, --max-problems <n>, --skip-rule <id> ...; \`npx redocly lint --help\`
  lists them).`;

/** Refuses an option that `redocly lint` does not have, naming the nearest ones (read from its own --help). */
async function checkOptions(args: string[]): Promise<void> {
  const names = args.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')[0]!);
  if (names.length === 0) return;
  const help = await redocly(['lint', '--help'], ROOT);
  const known = [...help.output.matchAll(/^\s+--([\w-]+)/gm)].map((m) => m[1]!);
  for (const name of names) {
    if (known.includes(name)) continue;
    const near = closest(name, known);
    throw new UsageError(`unknown option --${name}${near.length ? ` (did you mean ${near.map((n) => `--${n}`).join(', ')}?)` : ''}`);
  }
}

await runCli('lint', USAGE, async () => {
  const extra = process.argv.slice(2);
  if (extra.includes('-h') || extra.includes('--help')) {
    console.log(USAGE);
    return 0;
  }
  await checkOptions(extra);
  const assembled = assembleWorkspace(ROOT);
  let sources: RunResult;
  try {
    sources = await lint(assembled, APIS, extra, true);
  } finally {
    fs.rmSync(assembled, { recursive: true, force: true });
  }
  console.log('\nRedocly (redocly.yaml) on the workflows ...');
  const workflows = await redocly(['lint', ...workflowSources(ROOT), ...extra], ROOT, true);
  const { dir } = await buildToTemp(ROOT);
  let bundles: RunResult, spectral: RunResult;
  try {
    console.log('\nRedocly (redocly.yaml) on the bundles ...');
    bundles = await lintBundles(ROOT, dir, APIS, [], true);
    console.log('\nSpectral (.spectral.yaml) on the OpenAPI bundle ...');
    spectral = await spectralLint(path.join(dir, 'openapi.json'), [], true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (spectral.code === 0) console.log('Spectral: no problems.');
  console.log('\nBiome (biome.jsonc) on the code: format check and lint ...');
  const biome = await biomeCi(ROOT, true);
  return [sources, workflows, bundles, spectral, biome].some((r) => r.code !== 0) ? 1 : 0;
});
