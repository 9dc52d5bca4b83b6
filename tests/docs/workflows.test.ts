// The workflow pages (scripts/docs/workflows.ts): each Arazzo document of spec/workflows becomes a page with every
// workflow under its anchor, the rules it checks, whether it needs the simulation API, and its steps with the call
// each makes (resolved from the bundles) and its criteria; the index links every rule to the workflows that check
// it, and every link lands on an anchor of a page. The build's check of the documents refuses an unknown
// operation and a simulation call without `x-simulation`.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { workflowProblems, workflowSources } from '../../scripts/build/workflows.ts';
import { anchor, operationCall, renderRuleIndex, renderWorkflowDocument, type WorkflowDocument } from '../../scripts/docs/workflows.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';

const bundles = {
  partner: JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', 'openapi.json'), 'utf8')) as JsonObject,
  sandbox: JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', 'sandbox.json'), 'utf8')) as JsonObject,
};
const documents = workflowSources(ROOT).map((file) => ({
  file,
  page: `${path.basename(file, '.arazzo.yaml')}.md`,
  doc: parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as WorkflowDocument & { sourceDescriptions: { name: string; url: string }[] },
}));

describe('workflow pages', () => {
  it('there is a document per product area', () => {
    expect(documents.map((d) => d.page).sort()).toEqual(['account.md', 'cards.md', 'payouts.md', 'verification.md', 'webhooks.md']);
  });

  for (const { file, doc } of documents) {
    it(`${file}: every workflow, its rules, what it needs and every step with its call and criteria`, () => {
      const page = renderWorkflowDocument(doc, file, bundles);
      expect(page.startsWith(`# ${doc.info.title}\n`)).toBe(true);
      for (const w of doc.workflows) {
        const start = page.indexOf(`<a id="${anchor(w.workflowId)}"></a>`);
        expect(start, w.workflowId).toBeGreaterThan(0);
        const section = page.slice(start, page.indexOf('<a id=', start + 1) > 0 ? page.indexOf('<a id=', start + 1) : undefined);
        expect(section).toContain(`## ${w.workflowId}: ${w.summary}`);
        for (const r of w['x-rules'] ?? []) expect(section).toContain(`- *${r.section}*: ${r.rule.replace(/\s+/g, ' ')}`);
        expect(section).toContain(w['x-simulation'] ? '**Needs the simulation API:**' : '**Runs against any server.**');
        w.steps.forEach((step, i) => {
          const line = section.split('\n').find((l) => l.startsWith(`${i + 1}. **${step.stepId}**: `));
          expect(line, `${w.workflowId} › ${step.stepId}`).toBeDefined();
          if (step.workflowId) expect(line).toContain(`runs the workflow [${step.workflowId}](#${anchor(step.workflowId)})`);
          else expect(line).toMatch(/`(GET|POST|PUT|PATCH|DELETE) \/\S*`/);
          for (const c of step.successCriteria ?? []) expect(section).toContain(`\`${c.condition.replaceAll('`', "'")}\``);
        });
      }
    });
  }

  it('a call to the simulation API shows its /sandbox path, a partner call its contract path', () => {
    const cards = documents.find((d) => d.page === 'cards.md')!;
    const page = renderWorkflowDocument(cards.doc, cards.file, bundles);
    expect(page).toContain('**freeze**: `POST /cards/{code}/freeze` (partner API, `freezeCard`).');
    expect(page).toContain('**issue**: `POST /sandbox/cards/{code}/issuance` (sandbox simulation API, `simulateCardIssuance`).');
    expect(operationCall(bundles.partner, 'noSuchOperation')).toBeUndefined();
  });

  it('the index names every rule once per section, and each link lands on a workflow anchor of its page', () => {
    const index = renderRuleIndex(documents.map(({ page, doc }) => ({ page, doc })));
    const pages = new Map(documents.map(({ page, file, doc }) => [page, renderWorkflowDocument(doc, file, bundles)]));
    for (const { page, doc } of documents) {
      for (const w of doc.workflows) {
        for (const r of w['x-rules'] ?? []) {
          expect(index).toContain(`## ${r.section}\n`);
          const row = index.split('\n').find((l) => l.startsWith(`| ${r.rule.replace(/\s+/g, ' ').replaceAll('|', '\\|')} |`));
          expect(row, r.rule).toContain(`[${w.workflowId}](${page}#${anchor(w.workflowId)})`);
        }
      }
    }
    for (const [, page, target] of index.matchAll(/\]\(([a-z]+\.md)#([a-z0-9]+)\)/g)) {
      expect(pages.get(page!), page).toContain(`<a id="${target}"></a>`);
    }
  });
});

describe('the build check of the workflows', () => {
  const cards = documents.find((d) => d.page === 'cards.md')!;

  it('passes the documents of spec/workflows', () => {
    for (const { file, doc } of documents) expect(workflowProblems(file, doc as never, bundles)).toEqual([]);
  });

  it('refuses an operation the source does not have, naming the file, workflow and step', () => {
    const doc = structuredClone(cards.doc) as never as { workflows: { steps: { operationId?: string }[] }[] };
    doc.workflows[0]!.steps[2]!.operationId = '$sourceDescriptions.partner.createCustomr';
    expect(workflowProblems(cards.file, doc as never, bundles)).toEqual([
      `${cards.file}: cardIssued › createCustomer: partner has no operation createCustomr`,
    ]);
  });

  it('refuses a workflow that calls the simulation API (itself or through a workflow it runs) without x-simulation', () => {
    const doc = structuredClone(cards.doc) as never as { workflows: { workflowId: string; 'x-simulation'?: string }[] };
    delete doc.workflows.find((w) => w.workflowId === 'cardFreezeUnfreeze')!['x-simulation'];
    expect(workflowProblems(cards.file, doc as never, bundles)).toEqual([
      `${cards.file}: cardFreezeUnfreeze: calls the simulation API but has no x-simulation (why it needs it)`,
    ]);
  });
});
