// The negative, security and isolation checks (scripts/conformance/checks) on a few operations of a seeded
// sandbox: they pass with nothing skipped against the sandbox as it is, and each copy that breaks one rule
// (broken-servers/security-mutants.ts) is caught, the failure naming the request, with a curl command that
// replays it.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { CHECKS, runChecks } from '../../scripts/conformance/checks/index.ts';
import { selectOperations } from '../../scripts/conformance/select.ts';
import type { ReportSection } from '../../scripts/conformance/types.ts';
import { MUTANTS, SECOND_KEY, SUITE_KEY } from './broken-servers/security-mutants.ts';
import { configThrough, startProxy, type Rewrite } from './broken-servers/sandbox-proxy.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const bundle = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', 'openapi.json'), 'utf8'));
const ONLY = ['getCard', 'withdrawFromCard', 'deleteBeneficiary'];

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seedExamples: SUITE_KEY, rateLimit: false });
}, 60_000);
afterAll(() => sandbox?.close());

/**
 * The checks on ONLY, through a proxy that rewrites as given, every invalid request of each operation sent;
 * `then` runs while the proxy still answers.
 */
async function checksThrough(rewrite: Rewrite, then?: (section: ReportSection) => Promise<void>): Promise<ReportSection> {
  const proxy = await startProxy(new URL(sandbox.baseUrl).origin, rewrite);
  try {
    const config = configThrough(proxy, sandbox.simulationUrl, SUITE_KEY);
    const section = await runChecks(config, bundle, selectOperations(bundle, ONLY).bundle, [...CHECKS], {
      secondKey: SECOND_KEY,
      seed: 15,
      perOperation: 100,
    });
    await then?.(section);
    return section;
  } finally {
    await proxy.close();
  }
}

describe('negative, security and isolation checks', () => {
  it('pass against the sandbox as it is, each check run and nothing skipped', async () => {
    const section = await checksThrough((req) => ({ forward: req }));
    const problems = section.results.filter((r) => r.outcome !== 'passed').map((r) => `${r.outcome} ${r.group}: ${r.name}: ${r.message}`);
    expect(problems).toEqual([]);
    expect(new Set(section.results.map((r) => r.group))).toEqual(
      new Set(['invalid input', 'authentication', 'wrong method', 'isolation', 'deleted resource']),
    );
    // Every rule of the withdrawal's amount in the contract is tried.
    const amount = section.results
      .filter((r) => r.name.startsWith('POST /cards/{code}/withdraw body /amount'))
      .map((r) => r.name.replace(/.*breaks /, ''));
    expect(amount).toEqual(expect.arrayContaining(['required', 'minimum 5', 'at most 2 decimal places', 'type number']));
  }, 120_000);

  it('give a reproducer that replays the finding: the same answer to the same request', async () => {
    await checksThrough(MUTANTS[0]!.rewrite, async (section) => {
      const finding = section.results.find((r) => r.outcome === 'failed' && /answered \d+/.test(r.message ?? ''))!;
      const { stdout } = await promisify(execFile)('bash', ['-c', `${finding.reproducer} -o /dev/null -w '%{http_code}'`]);
      expect(`answered ${stdout}`).toBe(/answered \d+/.exec(finding.message!)![0]);
    });
  }, 120_000);

  for (const mutant of MUTANTS) {
    it(`catch a server that ${mutant.name}`, async () => {
      const section = await checksThrough(mutant.rewrite);
      const failed = section.results.filter((r) => r.outcome === 'failed');
      const caught = failed.find(
        (r) => r.group === mutant.caught.group && r.name.includes(mutant.caught.name) && r.message?.includes(mutant.caught.message),
      );
      expect(caught, failed.map((r) => `${r.group}: ${r.name}: ${r.message}`).join('\n') || 'nothing failed').toBeDefined();
      expect(caught!.reproducer).toMatch(/^curl -sS -X [A-Z]+ /);
      expect(caught!.reproducer).not.toContain('\n');
    }, 120_000);
  }
});
