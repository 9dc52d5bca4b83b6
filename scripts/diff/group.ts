// Group the changes a reviewer reads: a change to a shared schema is found once per operation and event
// that uses it; here it becomes one group that lists what it reaches. A property removed and one added
// with the same shape, at the same place and reaching the same operations, are paired as a likely rename.
import type { Change, Severity } from './classify.ts';

/** One operation or event a change reaches, and where in it. */
export interface Reach {
  /** "GET /cards/{code}", "event card.frozen", "servers" */
  location: string;
  /** "response 200 (application/json)", "payload", "parameter query:limit" */
  where?: string;
  /** The schema path there: "data.status", "data[].status" */
  path?: string;
}

export interface ChangeGroup {
  severity: Severity;
  /** The rule, or for a likely rename both rules: "property-removed + property-added-optional". */
  rule: string;
  /** The change said once, its path relative to the envelope's `data`: "status: enum value `x` added". */
  message: string;
  reaches: Reach[];
  /** Set when a removal and an addition of the same shape read as one rename. */
  rename?: { from: string; to: string };
}

const SEVERITY_ORDER: Severity[] = ['breaking', 'non-breaking', 'docs'];

/** A schema path without the envelope's `data` (or `data[]`) around it: the same field in a list and an item. */
export function relativePath(path: string): string {
  return path.replace(/^data(\[\])?\./, '');
}

/** The change's message with its path made relative (the message starts with the path). */
function relativeMessage(c: Change): string {
  if (c.path && c.message.startsWith(`${c.path}: `)) return `${relativePath(c.path)}: ${c.message.slice(c.path.length + 2)}`;
  return c.message;
}

const reachKey = (r: Reach) => `${r.location}\u0000${r.where ?? ''}`;
const parentOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('.')));
const lastOf = (path: string) => path.slice(path.lastIndexOf('.') + 1);

/** Groups the changes: one group per distinct change (severity, rule and relative message), in first-seen order. */
export function groupChanges(changes: readonly Change[]): ChangeGroup[] {
  const groups = new Map<string, ChangeGroup & { shape?: string; path?: string }>();
  for (const c of changes) {
    const message = relativeMessage(c);
    const key = JSON.stringify([c.severity, c.rule, message, c.shape ?? '']);
    let g = groups.get(key);
    if (!g) {
      g = {
        severity: c.severity,
        rule: c.rule,
        message,
        reaches: [],
        shape: c.shape,
        path: c.path === undefined ? undefined : relativePath(c.path),
      };
      groups.set(key, g);
    }
    g.reaches.push({ location: c.location, ...(c.where ? { where: c.where } : {}), ...(c.path ? { path: c.path } : {}) });
  }
  const list = [...groups.values()];
  const paired = pairRenames(list);
  return paired
    .map(({ shape: _shape, path: _path, ...g }) => g)
    .sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));
}

/** Replaces each removed/added pair of the same shape, parent and reach by one likely-rename group. */
function pairRenames(list: (ChangeGroup & { shape?: string; path?: string })[]): (ChangeGroup & { shape?: string; path?: string })[] {
  const used = new Set<object>();
  const out: (ChangeGroup & { shape?: string; path?: string })[] = [];
  for (const removed of list) {
    if (used.has(removed)) continue;
    if (removed.rule !== 'property-removed' || !removed.shape || removed.path === undefined) {
      out.push(removed);
      continue;
    }
    const reach = removed.reaches.map(reachKey).sort().join('\n');
    const added = list.find(
      (g) =>
        !used.has(g) &&
        g.rule.startsWith('property-added-') &&
        g.shape === removed.shape &&
        g.path !== undefined &&
        parentOf(g.path) === parentOf(removed.path!) &&
        g.reaches.map(reachKey).sort().join('\n') === reach,
    );
    if (!added) {
      out.push(removed);
      continue;
    }
    used.add(added);
    const from = lastOf(removed.path),
      to = lastOf(added.path!);
    const parent = parentOf(removed.path);
    out.push({
      severity: SEVERITY_ORDER[Math.min(SEVERITY_ORDER.indexOf(removed.severity), SEVERITY_ORDER.indexOf(added.severity))]!,
      rule: `${removed.rule} + ${added.rule}`,
      message: `${parent ? `${parent}.` : ''}${from} → ${to}: likely renamed (${from} removed, ${to} added with the same schema${added.rule === 'property-added-required' ? ', required' : ''})`,
      reaches: removed.reaches,
      rename: { from, to },
    });
  }
  return out.filter((g) => !used.has(g));
}

/**
 * What a group reaches, said once per place: "response 200 (application/json) of GET /cards, POST /cards",
 * "payload of events card.frozen, card.unfrozen". `code` wraps each operation or event (markdown).
 */
export function reachSummary(reaches: readonly Reach[], code: (s: string) => string = (s) => s): string[] {
  const byWhere = new Map<string, string[]>();
  for (const r of reaches) {
    const list = byWhere.get(r.where ?? '') ?? [];
    list.push(r.location);
    byWhere.set(r.where ?? '', list);
  }
  return [...byWhere].map(([where, locations]) => {
    const events = locations.every((l) => l.startsWith('event '));
    const names = (events ? locations.map((l) => l.slice('event '.length)) : locations).map(code).join(', ');
    const what = events ? `${locations.length > 1 ? 'events' : 'event'} ${names}` : names;
    return where ? `${where} of ${what}` : what;
  });
}
