// Decide what each change means for consumers. Request rules apply to what clients send; response rules
// to what they (and webhook receivers, for event payloads and delivery headers) receive.
import type { Direction, RawChange } from './compare.ts';

export type Severity = 'breaking' | 'non-breaking' | 'docs';
export interface Change extends RawChange {
  severity: Severity;
}

type Rule = Severity | Record<Direction, Severity>;
const B = 'breaking',
  N = 'non-breaking',
  D = 'docs';
/** Narrowing breaks senders (request); widening breaks receivers (response). */
const narrows: Rule = { request: B, response: N };
const widens: Rule = { request: N, response: B };

export const RULES: Record<string, Rule> = {
  'operation-removed': B,
  'operation-added': N,
  'operation-id-changed': N, // same wire contract; generators keyed by operationId rename a method
  deprecated: N,
  'docs-changed': D,
  'parameter-removed': B,
  'parameter-added-required': B,
  'parameter-added-optional': N,
  'parameter-became-required': B,
  'parameter-became-optional': N,
  // response headers / event delivery headers (direction: response)
  'header-removed': { request: B, response: B },
  'header-added-required': { request: B, response: N },
  'header-added-optional': N,
  'header-became-required': narrows,
  'header-became-optional': widens,
  'request-body-removed': B,
  'request-body-added-required': B,
  'request-body-added-optional': N,
  'request-body-became-required': B,
  'request-body-became-optional': N,
  'media-type-removed': B,
  'media-type-added': widens,
  'success-response-removed': B,
  'success-response-added': B, // a client may receive a success status it does not handle
  'error-response-added': N, // see docs/contract-diff.md: clients handle unknown errors by status class
  'error-response-removed': N,
  'error-code-added': N,
  'error-code-removed': N,
  'error-reason-added': N, // the same policy: an unknown reason is handled as a refusal without one (docs/errors.md)
  'error-reason-removed': N,
  'type-widened': widens,
  'type-narrowed': narrows,
  'const-changed': B,
  'const-added': narrows,
  'const-removed': widens,
  'enum-value-added': widens,
  'enum-value-removed': narrows,
  'enum-added': narrows,
  'enum-removed': widens,
  'constraint-tightened': narrows,
  'constraint-loosened': widens,
  'constraint-changed': B,
  'property-removed': B, // requests: a field clients send is gone (rejected or ignored); responses: data they read is gone
  'property-added-required': narrows,
  'property-added-optional': N,
  'property-became-required': narrows,
  'property-became-optional': widens,
  'additional-properties-closed': narrows,
  'additional-properties-opened': N, // new fields in responses are additive
  'variant-added': widens,
  'variant-removed': narrows,
  'variants-added': B,
  'variants-removed': B,
  'security-removed': B,
  'security-added': N,
  'security-scheme-removed': B,
  'security-scheme-changed': B,
  'security-scheme-added': N,
  'server-removed': B,
  'server-added': N,
  'server-default-changed': B,
  'event-removed': B,
  'event-added': N,
};

export function classify(changes: RawChange[]): Change[] {
  return changes.map((c) => {
    const rule = RULES[c.rule];
    if (!rule) throw new Error(`No classification for rule ${c.rule}`);
    const severity = typeof rule === 'string' ? rule : rule[c.direction ?? 'response'];
    return { ...c, severity };
  });
}

export type Bump = 'major' | 'minor' | 'patch' | 'none';
const ORDER: Bump[] = ['none', 'patch', 'minor', 'major'];

/** The bump the changes require: major for breaking, minor for additive, patch for docs only. */
export function requiredBump(changes: Change[]): Bump {
  if (changes.some((c) => c.severity === 'breaking')) return 'major';
  if (changes.some((c) => c.severity === 'non-breaking')) return 'minor';
  return changes.length ? 'patch' : 'none';
}

const parse = (v: string): [number, number, number] | null => {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
};

/** The bump from one info.version to another, or null when either is not semver. */
export function versionBump(from: string, to: string): Bump | null {
  const a = parse(from),
    b = parse(to);
  if (!a || !b) return null;
  if (b[0] > a[0]) return 'major';
  if (b[0] === a[0] && b[1] > a[1]) return 'minor';
  if (b[0] === a[0] && b[1] === a[1] && b[2] > a[2]) return 'patch';
  return 'none';
}

export const atLeast = (got: Bump | null, need: Bump) => got !== null && ORDER.indexOf(got) >= ORDER.indexOf(need);

/** The next version after `from` for a bump. */
export function nextVersion(from: string, bump: Bump): string {
  const v: [number, number, number] = parse(from) ?? [0, 0, 0];
  if (bump === 'major') return `${v[0] + 1}.0.0`;
  if (bump === 'minor') return `${v[0]}.${v[1] + 1}.0`;
  if (bump === 'patch') return `${v[0]}.${v[1]}.${v[2] + 1}`;
  return from;
}
