// The build: lint both documents, bundle them, validate the bundles, generate the TypeScript types.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';
import { parse } from 'yaml';
import { APIS, GENERATED_DIR, type ApiName } from '../lib/paths.ts';
import { bundleAll, lint } from '../lib/redocly.ts';
import { assembleWorkspace } from './assemble.ts';
import { startAsyncApiValidator } from './asyncapi-worker.ts';
import { recall, remember, stepKey } from './cache.ts';
import { SourceMap } from './source-location.ts';
import { contractFacts, factsModule } from './facts.ts';
import { generateTypesAndValues, typesOutput, type GeneratedTypes } from './types.ts';
import { EventsError } from './spec-events.ts';
import { buildWorkflows } from './workflows.ts';
import { expandPlansMarkers, hasPlansMarker, PlansTableError, type XPlans } from './plans-tables.ts';
import { danglingRefs, externalRefs, openApiProblems, type BundleProblem } from './validate.ts';
import { yamlSyntaxErrors } from './yaml-syntax.ts';

export interface BuildOptions {
  /** Directory holding redocly.yaml and spec/. */
  workspace: string;
  /** Directory the outputs are written to (created if missing). */
  outDir: string;
  /** Run `redocly lint` first (default true). */
  lint?: boolean;
  /** Validate the bundles against the OpenAPI 3.1 and AsyncAPI 3.0 JSON Schemas (default true). */
  validate?: boolean;
  /** Print each step as it runs (default false); a failing tool's output is in the BuildError. */
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

/**
 * Builds a workspace into outDir. Returns the files written, relative to outDir. The tools read the
 * workspace assembled with its event lists (assemble.ts), whose hand-written lines keep their numbers.
 */
export async function build(options: BuildOptions): Promise<string[]> {
  const { workspace, outDir, echo = false } = options;
  fs.mkdirSync(outDir, { recursive: true });
  let assembled: string;
  try {
    assembled = assembleWorkspace(workspace);
  } catch (error) {
    const syntax = yamlSyntaxErrors(workspace);
    if (syntax.length > 0) throw new BuildError('YAML parsing', syntax);
    if (error instanceof EventsError) throw new BuildError('events', error.problems);
    throw error;
  }
  try {
    return await buildAssembled({ ...options, workspace: assembled }, workspace, echo);
  } finally {
    fs.rmSync(assembled, { recursive: true, force: true });
  }
}

/** Lints and bundles the documents side by side, then writes each bundle as JSON; returns the files written. */
async function bundleApis(options: BuildOptions, source: string, log: (message: string) => void): Promise<string[]> {
  const { workspace, outDir } = options;
  // Lint and bundle run side by side, one Redocly process each (the bundle writes both APIs).
  log((options.lint ?? true) ? 'Linting and bundling spec/openapi.yaml, spec/asyncapi.yaml and spec/sandbox.yaml ...' : 'Bundling ...');
  const [linted, bundled] = await Promise.all([(options.lint ?? true) ? lint(workspace, APIS) : null, bundleAll(workspace, APIS, outDir)]);
  if ((linted && linted.code !== 0) || bundled.code !== 0) {
    const syntax = yamlSyntaxErrors(source);
    if (syntax.length > 0) throw new BuildError('YAML parsing', syntax);
    if (linted && linted.code !== 0) throw new BuildError('redocly lint', [linted.output.trim()]);
    throw new BuildError('redocly bundle', [bundled.output.trim()]);
  }

  const written: string[] = [];
  for (const api of APIS) {
    const yamlFile = path.join(outDir, `${api}.yaml`);
    if (!fs.existsSync(yamlFile)) throw new BuildError(`redocly bundle ${api}`, [`no ${api}.yaml written`, bundled.output.trim()]);
    const doc = withPlansTables(yamlFile, api);
    const unresolved = [...externalRefs(doc), ...danglingRefs(doc)];
    if (unresolved.length > 0)
      throw new BuildError(
        `redocly bundle ${api}`,
        unresolved.map((p) => `${api}: ${p}`),
      );
    fs.writeFileSync(path.join(outDir, `${api}.json`), `${JSON.stringify(doc, null, 2)}\n`);
    written.push(`${api}.json`, `${api}.yaml`);
  }
  return written;
}

/**
 * Reads a bundle, with the tables of `x-plans` in place of their markers (plans-tables.ts) written back into its
 * YAML: Redocly writes a multi-line description as a block scalar, whose lines the table's lines join.
 */
function withPlansTables(yamlFile: string, api: ApiName): unknown {
  const text = fs.readFileSync(yamlFile, 'utf8');
  // Read with js-yaml, the YAML library Redocly writes it with (core schema: no dates), ~4x faster than `yaml`.
  const doc: unknown = load(text, { schema: CORE_SCHEMA });
  if (!hasPlansMarker(text)) return doc;
  const plans = (doc as Record<string, unknown>)['x-plans'] as XPlans | undefined;
  if (!plans) throw new BuildError(`plans tables ${api}`, [`${api}: a <!-- x-plans: ... --> marker, and no x-plans at its root`]);
  let expanded: string;
  try {
    expanded = expandPlansMarkers(text, plans);
  } catch (error) {
    if (error instanceof PlansTableError) throw new BuildError(`plans tables ${api}`, [`${api}: ${error.message}`]);
    throw error;
  }
  if (hasPlansMarker(expanded))
    throw new BuildError(`plans tables ${api}`, [`${api}: a <!-- x-plans: ... --> marker not on a line of its own in a description`]);
  fs.writeFileSync(yamlFile, expanded);
  return load(expanded, { schema: CORE_SCHEMA });
}

async function buildAssembled(options: BuildOptions, source: string, echo: boolean): Promise<string[]> {
  const { workspace, outDir } = options;
  const log = (message: string) => echo && console.log(message);
  const written = await bundleApis(options, source, log);
  written.push(
    ...(await buildWorkflows(workspace, outDir, { lint: options.lint ?? true, fail: (step, problems) => new BuildError(step, problems) })),
  );

  // The slow steps run only on a bundle they have not already passed (cache.ts), side by side: the
  // AsyncAPI validator in a worker thread, the OpenAPI validator and the type generator here.
  const openapiFile = path.join(outDir, 'openapi.json');
  const asyncapiFile = path.join(outDir, 'asyncapi.json');
  // The sandbox's simulation API (spec/sandbox.yaml), validated and typed like the contract.
  const sandboxFile = path.join(outDir, 'sandbox.json');
  const keys = {
    openapi: stepKey('openapi-valid', openapiFile),
    asyncapi: stepKey('asyncapi-valid', asyncapiFile),
    sandbox: stepKey('openapi-valid', sandboxFile),
    types: stepKey('types', openapiFile),
    sandboxTypes: stepKey('types', sandboxFile),
  };
  const validate = options.validate ?? true;
  const asyncapiValidator = validate && recall(keys.asyncapi) !== 'valid' ? startAsyncApiValidator() : null;
  try {
    const dts = path.basename(typesOutput(workspace));
    const cachedTypes = recall(keys.types);
    const types =
      cachedTypes !== undefined
        ? Promise.resolve(JSON.parse(cachedTypes) as GeneratedTypes)
        : generateTypesAndValues(openapiFile, dts.replace(/\.d\.ts$/, '.js'));
    const cachedSandboxTypes = recall(keys.sandboxTypes);
    const sandboxTypes =
      cachedSandboxTypes !== undefined
        ? Promise.resolve(JSON.parse(cachedSandboxTypes) as GeneratedTypes)
        : generateTypesAndValues(sandboxFile, 'sandbox.js');
    if (validate) {
      log('Validating the bundles ...');
      const [openapi, asyncapi, sandbox] = await Promise.all([
        recall(keys.openapi) === 'valid' ? [] : openApiProblems(openapiFile),
        asyncapiValidator ? asyncapiValidator.problems(asyncapiFile) : [],
        recall(keys.sandbox) === 'valid' ? [] : openApiProblems(sandboxFile),
      ]);
      const sources = new SourceMap(workspace);
      const problems = atSources(sources, workspace, [
        ...openapi.map((p) => ({ api: 'openapi' as const, ...p })),
        ...asyncapi.map((p) => ({ api: 'asyncapi' as const, ...p })),
        ...sandbox.map((p) => ({ api: 'sandbox' as const, ...p })),
      ]);
      if (problems.length > 0) {
        types.catch(() => {}); // the validation failure is the one to report
        sandboxTypes.catch(() => {});
        throw new BuildError('validation', problems);
      }
      remember(keys.openapi, 'valid');
      remember(keys.asyncapi, 'valid');
      remember(keys.sandbox, 'valid');
    }
    log('Generating TypeScript types ...');
    const generated = await types;
    if (cachedTypes === undefined) remember(keys.types, JSON.stringify(generated));
    // The facts the runtime reads without the bundle (facts.ts), after the enum value lists.
    const facts = factsModule(contractFacts(JSON.parse(fs.readFileSync(openapiFile, 'utf8'))));
    const withFacts = { ...generated, values: { js: generated.values.js + facts.js, dts: generated.values.dts + facts.dts } };
    written.push(...writeTypes(outDir, dts, withFacts));
    const sandboxGenerated = await sandboxTypes;
    if (cachedSandboxTypes === undefined) remember(keys.sandboxTypes, JSON.stringify(sandboxGenerated));
    written.push(...writeTypes(outDir, 'sandbox.d.ts', sandboxGenerated));
    return written;
  } finally {
    await asyncapiValidator?.close();
  }
}

/** Writes `<name>.d.ts` and its enum value lists, `<name>-values.js` and `<name>-values.d.ts`; returns the files. */
function writeTypes(outDir: string, dts: string, generated: GeneratedTypes): string[] {
  const stem = dts.replace(/\.d\.ts$/, '');
  const files: [string, string][] = [
    [dts, generated.types],
    [`${stem}-values.js`, generated.values.js],
    [`${stem}-values.d.ts`, generated.values.dts],
  ];
  for (const [file, text] of files) fs.writeFileSync(path.join(outDir, file), text);
  return files.map(([file]) => file);
}

/**
 * `spec/<file>:<line>: <message>` for each problem found in a bundle, from its pointer's source. A problem
 * in a shared schema is found at every place the bundle reaches it (a validator walks the resolved document):
 * it is reported once per source line, with the first bundle place it was found at.
 */
function atSources(sources: SourceMap, workspace: string, problems: (BundleProblem & { api: ApiName })[]): string[] {
  const lines = new Map<string, string>();
  for (const problem of problems) {
    const where = problem.pointer === undefined ? null : sources.locate(rootFile(workspace, problem.api), problem.pointer);
    const bundled = `generated/${problem.api}.json${problem.pointer ? `#${problem.pointer}` : ''}`;
    const key = where ? `${where.file}:${where.line}: ${problem.message}` : `${bundled}: ${problem.message}`;
    if (!lines.has(key)) lines.set(key, where ? `${key} (in ${bundled})` : key);
  }
  return [...lines.values()];
}

/** The root file of an API, from the workspace's redocly.yaml (`apis.<api>.root`). */
function rootFile(workspace: string, api: ApiName): string {
  const config = parse(fs.readFileSync(path.join(workspace, 'redocly.yaml'), 'utf8')) as { apis?: Record<string, { root?: string }> };
  return config.apis?.[api]?.root ?? `spec/${api}.yaml`;
}

/**
 * `npm run build`: builds a workspace into a temporary directory, then replaces the files of its
 * generated/ only when every step passed; a failed build leaves generated/ as it was.
 */
export async function buildAndInstall(workspace: string, echo = false): Promise<string[]> {
  const { dir, files } = await buildToTemp(workspace, { lint: true, validate: true, echo });
  try {
    installOutputs(dir, path.join(workspace, GENERATED_DIR), files);
    return files;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Replaces the files of `dir` with those of `from`, once every file is ready: copies, then renames each. */
export function installOutputs(from: string, dir: string, files: readonly string[]): void {
  fs.mkdirSync(dir, { recursive: true });
  const staged = files.map(
    (f) => [path.join(dir, path.dirname(f), `.${path.basename(f)}.${process.pid}.tmp`), path.join(dir, f), path.join(from, f)] as const,
  );
  try {
    for (const [tmp, , source] of staged) {
      fs.mkdirSync(path.dirname(tmp), { recursive: true });
      fs.copyFileSync(source, tmp);
    }
  } catch (error) {
    for (const [tmp] of staged) fs.rmSync(tmp, { force: true });
    throw error;
  }
  for (const [tmp, target] of staged) fs.renameSync(tmp, target);
}

/** Builds a workspace into a fresh temporary directory (bundles and types only, by default). */
export async function buildToTemp(workspace: string, options: Partial<BuildOptions> = {}): Promise<{ dir: string; files: string[] }> {
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
