// npm run build             lint, bundle, validate, generate types into generated/
// npm run build -- --check  build into a temporary directory and fail if generated/ differs (drift)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, BuildError } from './build.ts';
import { compareOutputs } from './drift.ts';
import { GENERATED_DIR, ROOT } from '../lib/paths.ts';

const check = process.argv.includes('--check');
const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

try {
  if (check) {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-check-'));
    try {
      const files = await build({ workspace: ROOT, outDir, echo: true });
      const drift = compareOutputs(outDir, path.join(ROOT, GENERATED_DIR), files);
      if (drift.length > 0) {
        console.error(`generated/ is out of date:\n${drift.map((d) => `  - ${d}`).join('\n')}`);
        process.exitCode = 1;
      } else {
        console.log(`generated/ is up to date (${files.length} files) in ${seconds()}`);
      }
    } finally {
      fs.rmSync(outDir, { recursive: true, force: true });
    }
  } else {
    const outDir = path.join(ROOT, GENERATED_DIR);
    const files = await build({ workspace: ROOT, outDir, echo: true });
    console.log(`Built ${files.map((f) => `${GENERATED_DIR}/${f}`).join(', ')} in ${seconds()}`);
  }
} catch (error) {
  console.error(error instanceof BuildError ? error.message : error);
  console.error(`Build failed after ${seconds()}`);
  process.exitCode = 1;
}
