// The build's workflows step: the Arazzo documents of spec/workflows/ linted (Redocly, with the house rules of
// redocly.yaml), checked against the bundles (every operationId exists in the source it names, and a workflow that
// calls the simulation API, itself or through a workflow it runs, is marked `x-simulation`), then written to
// generated/workflows/: each document with its sources pointed at the generated bundles beside it, its markdown
// page (scripts/docs/workflows.ts) and the index of rules.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { redocly } from '../lib/redocly.ts';
import type { JsonObject } from '../lib/pointer.ts';
import { renderRuleIndex, renderWorkflowDocument, operationCall, type WorkflowDocument } from '../docs/workflows.ts';

export const WORKFLOWS_SOURCE = 'spec/workflows';
export const WORKFLOWS_OUTPUT = 'workflows';
/** The generated bundle of each source description name. */
const SOURCES: Record<string, string> = { partner: 'openapi.json', sandbox: 'sandbox.json' };

/** The Arazzo documents of a workspace, relative to it. */
export function workflowSources(workspace: string): string[] {
  const dir = path.join(workspace, WORKFLOWS_SOURCE);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.arazzo.yaml'))
    .sort()
    .map((f) => `${WORKFLOWS_SOURCE}/${f}`);
}

/** The files the step writes for a workspace, relative to the output directory. */
export function workflowOutputs(workspace: string): string[] {
  const names = workflowSources(workspace).map((f) => path.basename(f, '.arazzo.yaml'));
  if (names.length === 0) return [];
  return [...names.flatMap((n) => [`${WORKFLOWS_OUTPUT}/${n}.arazzo.yaml`, `${WORKFLOWS_OUTPUT}/${n}.md`]), `${WORKFLOWS_OUTPUT}/index.md`];
}

interface Doc extends WorkflowDocument {
  sourceDescriptions?: { name: string; url: string }[];
  workflows: (WorkflowDocument['workflows'][number] & { steps: { stepId: string; operationId?: string; workflowId?: string }[] })[];
}

/** Problems of one document against the bundles (`file: workflow › step: problem`). */
export function workflowProblems(file: string, doc: Doc, bundles: Record<string, JsonObject>): string[] {
  const problems: string[] = [];
  const names = new Set((doc.sourceDescriptions ?? []).map((s) => s.name));
  for (const [name, bundle] of Object.entries(SOURCES)) {
    const declared = doc.sourceDescriptions?.find((s) => s.name === name);
    if (declared && path.basename(declared.url) !== bundle)
      problems.push(`${file}: source ${name} must be the generated ${bundle}, not ${declared.url}`);
  }
  const byId = new Map(doc.workflows.map((w) => [w.workflowId, w]));
  const callsSimulation = (id: string, seen = new Set<string>()): boolean => {
    const w = byId.get(id);
    if (!w || seen.has(id)) return false;
    seen.add(id);
    return w.steps.some(
      (s) =>
        s.operationId?.startsWith('$sourceDescriptions.sandbox.') || (s.workflowId !== undefined && callsSimulation(s.workflowId, seen)),
    );
  };
  for (const w of doc.workflows) {
    if (callsSimulation(w.workflowId) && !w['x-simulation'])
      problems.push(`${file}: ${w.workflowId}: calls the simulation API but has no x-simulation (why it needs it)`);
    for (const s of w.steps) {
      if (s.workflowId !== undefined && !byId.has(s.workflowId))
        problems.push(`${file}: ${w.workflowId} › ${s.stepId}: runs unknown workflow ${s.workflowId}`);
      if (s.operationId === undefined) continue;
      const [, source, operationId] = s.operationId.match(/^\$sourceDescriptions\.([^.]+)\.(.+)$/) ?? [];
      if (!source || !operationId || !names.has(source) || !SOURCES[source])
        problems.push(`${file}: ${w.workflowId} › ${s.stepId}: ${s.operationId} names no source (partner or sandbox)`);
      else if (!operationCall(bundles[source], operationId))
        problems.push(`${file}: ${w.workflowId} › ${s.stepId}: ${source} has no operation ${operationId}`);
    }
  }
  return problems;
}

export interface WorkflowBuildOptions {
  /** Run `redocly lint` on the documents first (default true). */
  lint?: boolean;
  /** The error thrown for a failed step (the build's BuildError). */
  fail: (step: string, problems: string[]) => Error;
}

/**
 * Lints the workspace's workflows (with `lint`), checks them against the bundles already written to `outDir`, and
 * writes their generated files there. Returns the files written, relative to `outDir`.
 */
export async function buildWorkflows(workspace: string, outDir: string, options: WorkflowBuildOptions): Promise<string[]> {
  const sources = workflowSources(workspace);
  if (sources.length === 0) return [];
  const { fail } = options;
  if (options.lint ?? true) {
    const linted = await redocly(['lint', ...sources], workspace);
    if (linted.code !== 0) throw fail('redocly lint of spec/workflows', [linted.output.trim()]);
  }
  const bundles = Object.fromEntries(
    Object.entries(SOURCES).map(([name, file]) => [name, JSON.parse(fs.readFileSync(path.join(outDir, file), 'utf8')) as JsonObject]),
  );
  const docs = sources.map((file) => {
    const text = fs.readFileSync(path.join(workspace, file), 'utf8');
    let doc: Doc;
    try {
      doc = parse(text) as Doc;
    } catch (error) {
      throw fail('YAML parsing', [`${file}: ${(error as Error).message.split('\n')[0]}`]);
    }
    return { file, text, doc, name: path.basename(file, '.arazzo.yaml') };
  });
  const problems = docs.flatMap(({ file, doc }) => workflowProblems(file, doc, bundles));
  if (problems.length) throw fail('workflows', problems);
  fs.mkdirSync(path.join(outDir, WORKFLOWS_OUTPUT), { recursive: true });
  const written: string[] = [];
  const write = (name: string, content: string) => {
    fs.writeFileSync(path.join(outDir, WORKFLOWS_OUTPUT, name), content);
    written.push(`${WORKFLOWS_OUTPUT}/${name}`);
  };
  for (const { file, text, doc, name } of docs) {
    // The sources point at the generated bundles, which sit one folder up from generated/workflows/.
    write(`${name}.arazzo.yaml`, text.replace(/(url:\s*)\.\.\/\.\.\/generated\//g, '$1../'));
    write(`${name}.md`, renderWorkflowDocument(doc, file, bundles));
  }
  write('index.md', renderRuleIndex(docs.map(({ doc, name }) => ({ page: `${name}.md`, doc }))));
  return written;
}
