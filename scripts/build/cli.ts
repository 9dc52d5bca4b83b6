// npm run build             lint, bundle, validate, generate types; replace generated/ only when all passed
// npm run build -- --check  build into a temporary directory and fail if generated/ differs (drift)
// Both write (or check) the tables of the plans in docs/ from the bundle's x-plans (plans-tables.ts).
import fs from 'node:fs';
import nodeModule from 'node:module';
import path from 'node:path';
import { buildAndInstall, buildToTemp, BuildError, readBundle } from './build.ts';
import { compareOutputs } from './drift.ts';
import { writePlansGuides, type XPlans } from './plans-tables.ts';
import { CliError, parseCli, runCli } from '../lib/cli-parser.ts';
import { GENERATED_DIR, ROOT } from '../lib/paths.ts';

const USAGE = `Usage: npm run build [-- --check]
  (no option)  lint and bundle spec/, validate the bundles, generate the types, then replace generated/
               (generated/ is left as it was when any step fails), and write the plans' tables of docs/
  --check      build into a temporary directory and fail, naming the files, when generated/ or a plans'
               table of docs/ differs`;

// V8's on-disk code cache (as the Redocly CLI enables it): the build loads openapi-typescript, TypeScript
// and Ajv on use, after this line, and compiles them once. Node 22.8 and later.
nodeModule.enableCompileCache?.();

const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/** `x-plans` of the OpenAPI bundle of a build's output. */
const plansOf = (outDir: string) => (readBundle(outDir, 'openapi')['x-plans'] ?? {}) as XPlans;

async function check(): Promise<number> {
  const { dir, files } = await buildToTemp(ROOT, { lint: true, validate: true, echo: true });
  try {
    const drift = compareOutputs(dir, path.join(ROOT, GENERATED_DIR), files);
    for (const file of writePlansGuides(ROOT, plansOf(dir), { check: true }))
      drift.push(`${file}: a table of the plans differs from x-plans (run npm run build)`);
    if (drift.length > 0) throw new CliError(`generated/ is out of date:\n${drift.map((d) => `  - ${d}`).join('\n')}`);
    console.log(`generated/ is up to date (${files.length} files) in ${seconds()}`);
    return 0;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const args = parseCli(process.argv.slice(2), { usage: USAGE, options: { check: { type: 'boolean' } } });
  if (!args) return 0;
  try {
    if (args.values.check) return await check();
    const files = await buildAndInstall(ROOT, true);
    const guides = writePlansGuides(ROOT, plansOf(path.join(ROOT, GENERATED_DIR)));
    if (guides.length > 0) console.log(`Wrote the tables of the plans in ${guides.join(', ')}`);
    console.log(`Built ${files.map((f) => `${GENERATED_DIR}/${f}`).join(', ')} in ${seconds()}`);
    return 0;
  } catch (error) {
    if (!(error instanceof BuildError)) throw error;
    throw new CliError(`${error.message}\nBuild failed after ${seconds()}${args.values.check ? '' : '; generated/ was not changed'}.`);
  }
}

await runCli('build', USAGE, main);
