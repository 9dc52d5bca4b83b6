// npm run lint: `redocly lint` of both documents (redocly.yaml), then Spectral (.spectral.yaml: spectral:oas,
// the OWASP ruleset and the house rules) on a fresh OpenAPI bundle of spec/, the same bundle the build
// writes to generated/openapi.json. Extra arguments pass through to Redocly
// (`npm run lint -- --format github-actions`); an option Redocly's lint does not have is refused first, in one
// line with "did you mean", rather than after Redocly's whole help. Exits non-zero when either reports a problem.
import fs from 'node:fs';
import path from 'node:path';
import { buildToTemp } from '../build/build.ts';
import { closest, runCli, UsageError } from '../lib/cli-args.ts';
import { APIS, ROOT } from '../lib/paths.ts';
import { lint, redocly } from '../lib/redocly.ts';
import { spectralLint } from '../lib/spectral.ts';

const USAGE = `Usage: npm run lint [-- <redocly lint options>]
  Redocly's lint of both documents, then Spectral on the OpenAPI bundle. Options go to \`redocly lint\`
  (--format github-actions, --max-problems <n>, --skip-rule <id> ...; \`npx redocly lint --help\` lists them).`;

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
  const result = await lint(ROOT, APIS, extra, true);
  console.log('\nSpectral (.spectral.yaml) on the OpenAPI bundle ...');
  const { dir } = await buildToTemp(ROOT);
  let spectral;
  try {
    spectral = await spectralLint(path.join(dir, 'openapi.json'), [], true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (spectral.code === 0) console.log('Spectral: no problems.');
  return result.code !== 0 || spectral.code !== 0 ? 1 : 0;
});
