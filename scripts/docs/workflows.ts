// The workflows as pages a partner can follow: one markdown page per Arazzo document of spec/workflows (each
// workflow with the rule of the interface document it checks, what it needs, and its steps: the call, what
// the step checks and its criteria), and an index from each rule to the workflows that check it. The build
// writes them into generated/workflows/ beside the documents (scripts/build/workflows.ts); the docs site
// includes that folder.
import { contractModel } from '../../src/contract/model.ts';
import type { JsonObject } from '../lib/pointer.ts';

interface Criterion {
  condition: string;
  type?: string;
  context?: string;
}
interface Step {
  stepId: string;
  description?: string;
  operationId?: string;
  workflowId?: string;
  successCriteria?: Criterion[];
}
interface Workflow {
  workflowId: string;
  summary?: string;
  description?: string;
  inputs?: { $ref?: string; required?: string[]; properties?: Record<string, { description?: string }> };
  steps: Step[];
  'x-rules'?: { section: string; rule: string }[];
  'x-simulation'?: string;
}
export interface WorkflowDocument {
  info: { title: string; summary?: string; description?: string };
  workflows: Workflow[];
  components?: { inputs?: Record<string, { required?: string[]; properties?: Record<string, { description?: string }> }> };
}

/** `{ partner: <openapi bundle>, sandbox: <simulation bundle> }`: where each source's operationIds are found. */
export type SourceBundles = Record<string, JsonObject>;

const SOURCE_NAMES: Record<string, string> = { partner: 'partner API', sandbox: 'sandbox simulation API' };
/** Where each source is served, before its paths: the partner API's paths follow `{base_url}`. */
const SOURCE_PREFIX: Record<string, string> = { sandbox: '/sandbox' };

/** `POST /cards/{code}/freeze` for an operationId of a bundle, or undefined. */
export function operationCall(bundle: JsonObject | undefined, operationId: string): string | undefined {
  const found = bundle ? contractModel(bundle).operations.find((o) => o.operationId === operationId) : undefined;
  return found ? `${found.method.toUpperCase()} ${found.path}` : undefined;
}

/** The anchor of a workflow on its page. */
export const anchor = (workflowId: string) => workflowId.toLowerCase();

const oneLine = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
const code = (text: string) => `\`${text.replaceAll('`', "'")}\``;

function inputsOf(doc: WorkflowDocument, w: Workflow): { name: string; description: string }[] {
  const ref = w.inputs?.$ref?.match(/^#\/components\/inputs\/(.+)$/)?.[1];
  const schema = ref ? doc.components?.inputs?.[ref] : w.inputs;
  return (schema?.required ?? []).map((name) => ({ name, description: oneLine(schema?.properties?.[name]?.description) }));
}

function stepCall(step: Step, bundles: SourceBundles): string {
  if (step.workflowId) return `runs the workflow [${step.workflowId}](#${anchor(step.workflowId)})`;
  const [, source, operationId] = step.operationId?.match(/^\$sourceDescriptions\.([^.]+)\.(.+)$/) ?? [];
  if (!source || !operationId) return code(step.operationId ?? '?');
  const call = operationCall(bundles[source], operationId)?.replace(' ', ` ${SOURCE_PREFIX[source] ?? ''}`);
  return `${call ? code(call) : code(operationId)} (${SOURCE_NAMES[source] ?? source}, ${code(operationId)})`;
}

function criterion(c: Criterion): string {
  return c.type === 'jsonpath' ? `${code(c.condition)} (JSONPath on ${code(c.context ?? '')})` : code(c.condition);
}

/** The markdown page of one Arazzo document. `file` is the document's path, as the page names it. */
export function renderWorkflowDocument(doc: WorkflowDocument, file: string, bundles: SourceBundles): string {
  const lines: string[] = [`# ${doc.info.title}`, ''];
  if (doc.info.summary) lines.push(oneLine(doc.info.summary), '');
  if (doc.info.description) lines.push(oneLine(doc.info.description), '');
  lines.push(
    `Source: ${code(file)}. Run these workflows against your server with \`npm run conformance -- --server <url> --api-key <key> --webhook-url <url>\`; ` +
      'those marked *Needs the simulation API* run only against the sandbox (`--simulation-url`).',
    '',
    '| Workflow | What it shows | Runs against |',
    '|---|---|---|',
  );
  for (const w of doc.workflows) {
    lines.push(
      `| [${w.workflowId}](#${anchor(w.workflowId)}) | ${oneLine(w.summary)} | ${w['x-simulation'] ? 'the sandbox (simulation API)' : 'any server'} |`,
    );
  }
  for (const w of doc.workflows) {
    lines.push('', `<a id="${anchor(w.workflowId)}"></a>`, '', `## ${w.workflowId}: ${oneLine(w.summary)}`, '');
    if (w.description) lines.push(oneLine(w.description), '');
    const rules = w['x-rules'] ?? [];
    if (rules.length) {
      lines.push('**Rules of the interface document it checks:**', '');
      for (const r of rules) lines.push(`- *${r.section}*: ${oneLine(r.rule)}`);
      lines.push('');
    }
    lines.push(
      w['x-simulation']
        ? `**Needs the simulation API:** ${oneLine(w['x-simulation'])} Against another server it is skipped.`
        : '**Runs against any server.**',
      '',
    );
    const inputs = inputsOf(doc, w);
    if (inputs.length)
      lines.push(
        `**Inputs:** ${inputs.map((i) => `${code(i.name)}${i.description ? ` (${i.description.replace(/\.$/, '')})` : ''}`).join('; ')}.`,
        '',
      );
    lines.push('**Steps:**', '');
    w.steps.forEach((step, i) => {
      lines.push(`${i + 1}. **${step.stepId}**: ${stepCall(step, bundles)}.`);
      if (step.description) lines.push(`   ${oneLine(step.description)}`);
      const criteria = step.successCriteria ?? [];
      if (criteria.length) lines.push(`   Checks: ${criteria.map(criterion).join(', ')}.`);
    });
  }
  return `${lines.join('\n')}\n`;
}

/** The index page: each rule of the interface document, by section, with the workflows that check it. */
export function renderRuleIndex(docs: { page: string; doc: WorkflowDocument }[]): string {
  const bySection = new Map<string, Map<string, string[]>>();
  for (const { page, doc } of docs) {
    for (const w of doc.workflows) {
      for (const r of w['x-rules'] ?? []) {
        const rules = bySection.get(r.section) ?? bySection.set(r.section, new Map()).get(r.section)!;
        const rule = oneLine(r.rule);
        (rules.get(rule) ?? rules.set(rule, []).get(rule)!).push(`[${w.workflowId}](${page}#${anchor(w.workflowId)})`);
      }
    }
  }
  const lines = [
    '# Workflows: the rules they check',
    '',
    'Each rule of the interface document that a workflow checks, by the section it is written in, with the workflows that check it. ' +
      'The workflows are Arazzo 1.0 documents (`spec/workflows/`); `npm run conformance` runs them.',
    '',
    `Pages: ${docs.map(({ page, doc }) => `[${doc.info.title}](${page})`).join(', ')}.`,
  ];
  for (const section of [...bySection.keys()].sort()) {
    lines.push('', `## ${section}`, '', '| Rule | Checked by |', '|---|---|');
    for (const [rule, workflows] of bySection.get(section)!) lines.push(`| ${rule.replaceAll('|', '\\|')} | ${workflows.join(', ')} |`);
  }
  return `${lines.join('\n')}\n`;
}
