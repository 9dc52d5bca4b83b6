// The report printed after a conformance run: one line per operation (outcome per status), then the
// failures with their messages, the skip reasons, and a last line `N passed, N failed, N skipped`.
import type { TransactionRecord } from './types.ts';
import type { ResponseValidator } from './validate-response.ts';

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
}

export function totals(records: TransactionRecord[]): Totals {
  return {
    passed: records.filter((r) => r.outcome === 'passed').length,
    failed: records.filter((r) => r.outcome === 'failed').length,
    skipped: records.filter((r) => r.outcome === 'skipped').length,
  };
}

/** The last line of the report. */
export function finalLine(t: Totals): string {
  return `${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`;
}

/** Number of undocumented fields reported as warnings. */
export function warningCount(records: TransactionRecord[]): number {
  return records.reduce((n, r) => n + (r.undocumented?.length ?? 0), 0);
}

function cell(status: string, rs: TransactionRecord[]): string {
  const n = (o: TransactionRecord['outcome']) => rs.filter((r) => r.outcome === o).length;
  const parts: string[] = [];
  if (n('failed')) parts.push(`${n('failed')} FAILED`);
  if (n('passed')) parts.push(`${n('passed')} passed`);
  if (n('skipped')) parts.push(`${n('skipped')} skipped`);
  return `${status}: ${parts.join('/')}`;
}

export function summarise(records: TransactionRecord[], validator?: ResponseValidator): string[] {
  const lines: string[] = [];
  const byOp = new Map<string, TransactionRecord[]>();
  const order = validator ? validator.operations().map((o) => `${o.method} ${o.path}`) : [];
  for (const key of order) byOp.set(key, []);
  for (const r of records) {
    const key = `${r.method} ${r.path}`;
    if (!byOp.has(key)) byOp.set(key, []);
    byOp.get(key)!.push(r);
  }
  lines.push('Per operation (transactions per documented status):');
  const width = Math.max(...[...byOp.keys()].map((k) => k.length), 10);
  let documentedStatuses = 0;
  let exercisedStatuses = 0;
  let operationsRun = 0;
  for (const [key, rs] of byOp) {
    const [method, path] = [key.slice(0, key.indexOf(' ')), key.slice(key.indexOf(' ') + 1)];
    const info = validator?.operation(method, path);
    const statuses = [...new Set([...(info?.statuses ?? []), ...rs.map((r) => r.status)])];
    documentedStatuses += info?.statuses.length ?? 0;
    const cells = statuses.map((s) => {
      const of = rs.filter((r) => r.status === s);
      if (of.some((r) => r.outcome !== 'skipped')) exercisedStatuses++;
      return of.length ? cell(s, of) : `${s}: not run`;
    });
    if (rs.some((r) => r.outcome !== 'skipped')) operationsRun++;
    lines.push(`  ${key.padEnd(width)}  ${cells.join(' | ')}`);
  }
  if (validator) {
    lines.push(
      `Coverage: ${operationsRun}/${byOp.size} operations and ${exercisedStatuses}/${documentedStatuses} documented statuses exercised, ${records.length} transactions.`,
    );
  }
  const failed = records.filter((r) => r.outcome === 'failed');
  if (failed.length) {
    lines.push('', 'Failures:');
    for (const r of failed) {
      lines.push(`  ${r.method} ${r.path} ${r.status}${r.example ? ` (${r.example})` : ''}: ${r.name}`);
      for (const m of (r.message ?? '').split('\n')) lines.push(`      ${m}`);
    }
  }
  const warned = records.filter((r) => r.undocumented?.length);
  if (warned.length) {
    lines.push('', 'Warnings (fields the contract does not document; responses are open, so these do not fail the run):');
    for (const r of warned) {
      for (const field of r.undocumented ?? []) lines.push(`  WARNING ${r.method} ${r.path} ${r.actualStatus ?? r.status}: undocumented field ${field}`);
    }
  }
  const skipped = records.filter((r) => r.outcome === 'skipped');
  if (skipped.length) {
    const reasons = new Map<string, TransactionRecord[]>();
    for (const r of skipped) {
      const reason = r.message ?? 'skipped';
      if (!reasons.has(reason)) reasons.set(reason, []);
      reasons.get(reason)!.push(r);
    }
    lines.push('', 'Skipped (reason: transactions):');
    for (const [reason, rs] of [...reasons].sort((a, b) => b[1].length - a[1].length)) {
      const shown = rs.slice(0, 4).map((r) => `${r.method} ${r.path} ${r.status}`);
      lines.push(`  ${reason}: ${rs.length} (${shown.join(', ')}${rs.length > shown.length ? ', ...' : ''})`);
    }
  }
  return lines;
}
