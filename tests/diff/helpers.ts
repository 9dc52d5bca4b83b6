import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadFiles } from '../../scripts/diff/load.ts';
import { diffContracts } from '../../scripts/diff/report.ts';
import type { Report } from '../../scripts/diff/format.ts';

export const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/diff');

/** Loads tests/fixtures/diff/<name>/{base,head}.yaml (and {base,head}.asyncapi.yaml when present) and diffs them. */
export async function diffFixture(name: string): Promise<Report> {
  const side = (s: string) => {
    const asyncFile = path.join(FIXTURES, name, `${s}.asyncapi.yaml`);
    return loadFiles(path.join(FIXTURES, name, `${s}.yaml`), existsSync(asyncFile) ? asyncFile : null, s);
  };
  return diffContracts(await side('base'), await side('head'));
}

/** A compact, order-independent view of a report's changes: "severity rule location | where | path". */
export function summary(report: Report): string[] {
  return report.changes
    .map((c) => [c.severity, c.rule, c.location, c.where ?? '', c.path ?? ''].join(' | ').replace(/( \| )+$/, ''))
    .sort();
}
