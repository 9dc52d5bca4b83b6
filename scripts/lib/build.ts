// The build: lint both documents, bundle them, validate the bundles, generate the TypeScript types.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { APIS, type ApiName } from './paths.ts';
import { bundle, lint } from './redocly.ts';
import { externalRefs, validateAsyncApi, validateOpenApi } from './validate.ts';
import { generateTypes, typesOutput } from './types.ts';

export interface BuildOptions {
  /** Directory holding redocly.yaml and spec/. */
  workspace: string;
  /** Directory the outputs are written to (created if missing). */
  outDir: string;
  /** Run `redocly lint` first (default true). */
  lint?: boolean;
  /** Validate the bundles with swagger-parser and @asyncapi/parser (default true). */
  validate?: boolean;
  /** Print the tools' output and each step as it runs (default false). */
  echo?: boolean;
}

/** Thrown when a build step fails; `problems` lists what went wrong, one message each. */
export class BuildError extends Error {
  readonly problems: string[];
  constructor(step: string, problems: string[]) {
    super(`${step} failed:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/** Builds a workspace into outDir. Returns the files written, relative to outDir. */
export async function build(options: BuildOptions): Promise<string[]> {
  const { workspace, outDir, echo = false } = options;
  const log = (message: string) => echo && console.log(message);
  fs.mkdirSync(outDir, { recursive: true });
  const written: string[] = [];

  if (options.lint ?? true) {
    log('Linting spec/openapi.yaml, spec/asyncapi.yaml and spec/sandbox.yaml ...');
    const result = await lint(workspace, APIS, [], echo);
    if (result.code !== 0) throw new BuildError('redocly lint', [result.output.trim() || 'see the lint output above']);
  }

  for (const api of APIS) {
    log(`Bundling ${api} ...`);
    const yamlFile = path.join(outDir, `${api}.yaml`);
    const result = await bundle(workspace, api, yamlFile, false);
    if (result.code !== 0 || !fs.existsSync(yamlFile)) {
      throw new BuildError(`redocly bundle ${api}`, [result.output.trim()]);
    }
    const doc: unknown = parse(fs.readFileSync(yamlFile, 'utf8'));
    const unresolved = externalRefs(doc);
    if (unresolved.length > 0) throw new BuildError(`redocly bundle ${api}`, unresolved.map((p) => `${api}: ${p}`));
    fs.writeFileSync(path.join(outDir, `${api}.json`), `${JSON.stringify(doc, null, 2)}\n`);
    written.push(`${api}.json`, `${api}.yaml`);
  }

  if (options.validate ?? true) {
    log('Validating the bundles ...');
    const problems = [
      ...(await validateOpenApi(path.join(outDir, 'openapi.json'))),
      ...(await validateAsyncApi(path.join(outDir, 'asyncapi.json'))),
      ...(await validateOpenApi(path.join(outDir, 'sandbox.json'))),
    ];
    if (problems.length > 0) throw new BuildError('validation', problems);
  }

  log('Generating TypeScript types ...');
  const dts = path.basename(typesOutput(workspace));
  fs.writeFileSync(path.join(outDir, dts), await generateTypes(path.join(outDir, 'openapi.json')));
  written.push(dts);
  // The sandbox's simulation API (spec/sandbox.yaml), typed for src/sandbox/simulation.
  fs.writeFileSync(path.join(outDir, 'sandbox.d.ts'), await generateTypes(path.join(outDir, 'sandbox.json')));
  written.push('sandbox.d.ts');
  return written;
}

/** Builds a workspace into a fresh temporary directory (bundles and types only, by default). */
export async function buildToTemp(
  workspace: string,
  options: Partial<BuildOptions> = {},
): Promise<{ dir: string; files: string[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-build-'));
  try {
    const files = await build({ lint: false, validate: false, ...options, workspace, outDir: dir });
    return { dir, files };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Reads a bundle written by the build. */
export function readBundle(outDir: string, api: ApiName): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(outDir, `${api}.json`), 'utf8')) as Record<string, unknown>;
}
