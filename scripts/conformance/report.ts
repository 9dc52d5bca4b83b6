// The report printed after a conformance run, one for the whole run: Dredd's per-operation checks (one line per
// operation, the outcome per documented status, then the failures with their messages, the request, the body
// answered and a curl reproducer, the warnings and the skip reasons), then each other section (the negative, security and isolation checks per check; the
// workflows per workflow), each with its failures and their one-line reproducers, and a last line
// `N passed, N failed, N skipped` over all of them.
import type { CheckResult, ReportSection, TransactionRecord } from './types.ts';
import type { ResponseValidator } from './validate-response.ts';

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
}

/** Counts of Dredd's records or of a section's results. */
export function totals(records: { outcome: TransactionRecord['outcome'] }[]): Totals {
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

/** `2 FAILED/3 passed/1 skipped`: the outcomes of some records or results. */
function counts(rs: { outcome: TransactionRecord['outcome'] }[], separator = '/'): string {
  const n = (o: TransactionRecord['outcome']) => rs.filter((r) => r.outcome === o).length;
  const parts: string[] = [];
  if (n('failed')) parts.push(`${n('failed')} FAILED`);
  if (n('passed')) parts.push(`${n('passed')} passed`);
  if (n('skipped')) parts.push(`${n('skipped')} skipped`);
  return parts.join(separator);
}

function cell(status: string, rs: { outcome: TransactionRecord['outcome'] }[]): string {
  return `${status}: ${counts(rs)}`;
}

/** Dredd's part: per operation (transactions per documented status), coverage, failures, warnings, skip reasons. */
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
      if (r.request) lines.push(`      request: ${r.request}`);
      if (r.response) lines.push(`      answered ${r.response}`);
      if (r.reproducer) lines.push(`      ${r.reproducer}`);
    }
  }
  const warned = records.filter((r) => r.undocumented?.length);
  if (warned.length) {
    lines.push('', 'Warnings (fields the contract does not document; responses are open, so these do not fail the run):');
    for (const r of warned) {
      for (const field of r.undocumented ?? [])
        lines.push(`  WARNING ${r.method} ${r.path} ${r.actualStatus ?? r.status}: undocumented field ${field}`);
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

/** Skip reasons, most frequent first, each with the first few of what it skipped. */
function skipLines(items: { reason: string; what: string }[]): string[] {
  const reasons = new Map<string, string[]>();
  for (const { reason, what } of items) reasons.set(reason, [...(reasons.get(reason) ?? []), what]);
  return [...reasons]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([reason, whats]) => `  ${reason}: ${whats.length} (${whats.slice(0, 4).join(', ')}${whats.length > 4 ? ', ...' : ''})`);
}

/** A section beside Dredd's: one line per group (check or workflow), its notes, its failures with their reproducers, its skip reasons. */
export function sectionLines(section: ReportSection): string[] {
  const lines = ['', `${section.title}:`];
  const groups = new Map<string, CheckResult[]>();
  for (const r of section.results) groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
  const width = Math.max(...[...groups.keys()].map((g) => g.length), 10);
  for (const [group, rs] of groups) lines.push(`  ${group.padEnd(width)}  ${counts(rs, ' | ')}`);
  if (!groups.size) lines.push('  nothing run');
  for (const note of section.notes ?? []) lines.push(`  ${note}`);
  const failed = section.results.filter((r) => r.outcome === 'failed');
  if (failed.length) {
    lines.push('', `Failures (${section.title.replace(/ \(.*\)$/, '')}):`);
    for (const r of failed) {
      lines.push(`  ${r.group}: ${r.name}`, `      ${r.message ?? 'failed'}`);
      if (r.reproducer) lines.push(`      ${r.reproducer}`);
    }
  }
  const skipped = section.results.filter((r) => r.outcome === 'skipped');
  if (skipped.length) {
    lines.push('', `Skipped (${section.title.replace(/ \(.*\)$/, '')}; reason: what):`);
    lines.push(...skipLines(skipped.map((r) => ({ reason: r.message ?? 'skipped', what: `${r.group}: ${r.name}` }))));
  }
  return lines;
}

/** The totals of the whole run: Dredd's records and every section's results. */
export function runTotals(records: TransactionRecord[], sections: ReportSection[]): Totals {
  const all = [records, ...sections.map((s) => s.results)].map((rs) => totals(rs));
  return all.reduce((a, b) => ({ passed: a.passed + b.passed, failed: a.failed + b.failed, skipped: a.skipped + b.skipped }), {
    passed: 0,
    failed: 0,
    skipped: 0,
  });
}
