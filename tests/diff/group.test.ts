// Grouping: one row per change, whatever the number of operations and events it reaches.
import { describe, expect, it } from 'vitest';
import type { Change } from '../../scripts/diff/classify.ts';
import { groupChanges, reachSummary } from '../../scripts/diff/group.ts';

const change = (c: Partial<Change> & Pick<Change, 'location' | 'rule' | 'severity' | 'message'>): Change => ({
  direction: 'response',
  ...c,
});
const enumAdded = (location: string, path: string, where = 'response 200 (application/json)') =>
  change({ location, where, path, rule: 'enum-value-added', severity: 'breaking', message: `${path}: enum value \`x\` added` });

describe('groupChanges', () => {
  it('one group for the same field in a list, an item and an event payload', () => {
    const groups = groupChanges([
      enumAdded('GET /cards', 'data[].status'),
      enumAdded('GET /cards/{code}', 'data.status'),
      enumAdded('event card.frozen', 'data.status', 'payload'),
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.message).toBe('status: enum value `x` added');
    expect(reachSummary(groups[0]!.reaches)).toEqual([
      'response 200 (application/json) of GET /cards, GET /cards/{code}',
      'payload of event card.frozen',
    ]);
  });

  it('keeps apart the same words with another severity (a request) or another field', () => {
    const request = change({
      ...enumAdded('POST /cards', 'status', 'request body (application/json)'),
      direction: 'request',
      severity: 'non-breaking',
    });
    expect(groupChanges([enumAdded('GET /cards', 'data[].status'), request, enumAdded('GET /cards', 'data[].brand')])).toHaveLength(3);
  });

  it('pairs a rename only where the removal and the addition reach the same places', () => {
    const removed = (location: string) =>
      change({
        location,
        where: 'payload',
        path: 'data.a',
        rule: 'property-removed',
        severity: 'breaking',
        message: 'data.a: property removed',
        shape: 's1',
      });
    const added = (location: string) =>
      change({
        location,
        where: 'payload',
        path: 'data.b',
        rule: 'property-added-optional',
        severity: 'non-breaking',
        message: 'data.b: optional property added',
        shape: 's1',
      });
    const same = groupChanges([removed('event e1'), added('event e1'), removed('event e2'), added('event e2')]);
    expect(same.map((g) => [g.severity, g.rename])).toEqual([['breaking', { from: 'a', to: 'b' }]]);
    const elsewhere = groupChanges([removed('event e1'), added('event e2')]);
    expect(elsewhere.map((g) => g.rule)).toEqual(['property-removed', 'property-added-optional']);
  });
});
