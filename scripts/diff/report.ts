// The diff of two contracts as a report: load → normalise → compare → classify → version check.
import path from 'node:path';
import { classify, requiredBump, versionBump } from './classify.ts';
import { compareModels } from './compare.ts';
import { groupChanges } from './group.ts';
import type { Report } from './format.ts';
import { loadAtRef, loadSpecDir, type LoadedContract } from './load.ts';
import { normalise } from './normalise.ts';

/** The contract at `baseRef` against the working tree of `repo`. */
export async function buildReport(repo: string, baseRef: string): Promise<Report> {
  const base = await loadAtRef(repo, baseRef);
  const head = await loadSpecDir(path.join(repo, 'spec'), 'working tree');
  return diffContracts(base, head);
}

/** Compares two loaded contracts: normalise, compare, classify, and check info.version. */
export function diffContracts(base: LoadedContract, head: LoadedContract): Report {
  const a = normalise(base.openapi, base.asyncapi);
  const b = normalise(head.openapi, head.asyncapi);
  const changes = classify(compareModels(a, b));
  const required = requiredBump(changes);
  const bump = versionBump(a.version, b.version);
  const warnings: string[] = [];
  for (const [c, side] of [
    [base, 'base'],
    [head, 'working tree'],
  ] as const) {
    if (c.unresolved.length)
      warnings.push(
        `${side}: ${c.unresolved.length} $ref target(s) missing, read as empty: ${c.unresolved.slice(0, 5).join(', ')}${c.unresolved.length > 5 ? ', ...' : ''}`,
      );
  }
  if (a.hasAsyncapi !== b.hasAsyncapi)
    warnings.push(
      `spec/asyncapi.yaml exists only in the ${a.hasAsyncapi ? 'base' : 'working tree'}; AsyncAPI messages were not compared (webhooks were).`,
    );
  if (b.asyncapiVersion !== null && b.asyncapiVersion !== b.version)
    warnings.push(`info.version differs between openapi.yaml (${b.version}) and asyncapi.yaml (${b.asyncapiVersion}).`);
  if (bump === null) warnings.push(`info.version is not semver (${a.version} → ${b.version}).`);
  const breaking = changes.some((c) => c.severity === 'breaking');
  return {
    base: { label: base.label, version: a.version },
    head: { label: head.label, version: b.version },
    changes,
    groups: groupChanges(changes),
    required,
    bump,
    ok: !breaking || bump === 'major',
    warnings,
  };
}
