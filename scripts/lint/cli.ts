// npm run lint: `redocly lint` of both documents (redocly.yaml) and of the workflows (spec/workflows), then Spectral (.spectral.yaml: spectral:oas,
// the OWASP ruleset and the house rules) on a fresh OpenAPI bundle of spec/, the same bundle the build
// writes to generated/openapi.json. Extra arguments pass through to Redocly
// (`npm run lint -- --format github-actions`). Exits non-zero when either reports a problem.
import fs from 'node:fs';
import path from 'node:path';
import { buildToTemp } from '../build/build.ts';
import { APIS, ROOT } from '../lib/paths.ts';
import { lint, redocly as runRedocly } from '../lib/redocly.ts';
import { workflowSources } from '../build/workflows.ts';
import { spectralLint } from '../lib/spectral.ts';

const documents = await lint(ROOT, APIS, process.argv.slice(2), true);
const workflows = await runRedocly(['lint', ...workflowSources(ROOT), ...process.argv.slice(2)], ROOT, true);
const redocly = { code: documents.code || workflows.code };
console.log('\nSpectral (.spectral.yaml) on the OpenAPI bundle ...');
const { dir } = await buildToTemp(ROOT);
let spectral;
try {
  spectral = await spectralLint(path.join(dir, 'openapi.json'), [], true);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
if (spectral.code === 0) console.log('Spectral: no problems.');
process.exitCode = redocly.code !== 0 || spectral.code !== 0 ? 1 : 0;
