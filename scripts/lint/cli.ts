// npm run lint: `redocly lint` of both documents (redocly.yaml) as the build reads them, with the lists of
// webhook events written in (scripts/build/assemble.ts: every hand-written line keeps its spec/ file and
// number); then, on a fresh build of spec/ (the bundles the build writes to generated/), `redocly lint` of
// the bundles and Spectral (.spectral.yaml: spectral:oas, the OWASP ruleset and the house rules) on the
// OpenAPI bundle. Extra arguments pass through to the first Redocly run
// (`npm run lint -- --format github-actions`). Exits non-zero when any of them reports a problem.
import fs from 'node:fs';
import path from 'node:path';
import { assembleWorkspace } from '../build/assemble.ts';
import { buildToTemp } from '../build/build.ts';
import { APIS, ROOT } from '../lib/paths.ts';
import { lint, lintBundles } from '../lib/redocly.ts';
import { spectralLint } from '../lib/spectral.ts';

const assembled = assembleWorkspace(ROOT);
let redocly;
try {
  redocly = await lint(assembled, APIS, process.argv.slice(2), true);
} finally {
  fs.rmSync(assembled, { recursive: true, force: true });
}
const { dir } = await buildToTemp(ROOT);
let bundles, spectral;
try {
  console.log('\nRedocly (redocly.yaml) on the bundles ...');
  bundles = await lintBundles(ROOT, dir, APIS, [], true);
  console.log('\nSpectral (.spectral.yaml) on the OpenAPI bundle ...');
  spectral = await spectralLint(path.join(dir, 'openapi.json'), [], true);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
if (spectral.code === 0) console.log('Spectral: no problems.');
process.exitCode = [redocly, bundles, spectral].some((r) => r.code !== 0) ? 1 : 0;
