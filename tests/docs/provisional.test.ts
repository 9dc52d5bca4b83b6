// The docs-only copy of the bundle: the "Provisional" badge on marked operations and the list of provisional parts.
import { describe, expect, it } from 'vitest';
import { addProvisionalBadges, docsDocument, PROVISIONAL_BADGE } from '../../scripts/docs/reference.ts';
import { findProvisional, provisionalText } from '../../scripts/docs/provisional.ts';
import { built } from '../contract/helpers.ts';
import { contractModel } from '../../src/contract/model.ts';

describe('the docs copy of the bundle', () => {
  it('badges every operation marked x-provisional, and no other', () => {
    const openapi = built().openapi as any;
    const docs = docsDocument(openapi) as any;
    const badged: string[] = [];
    const marked: string[] = [];
    for (const { method, path, node: op, provisional } of contractModel(docs).operations) {
      if (!op.operationId) continue;
      const badges = Array.isArray(op['x-badges']) ? (op['x-badges'] as { name: string }[]) : [];
      if (badges.some((b) => b.name === 'Provisional')) badged.push(`${method} ${path}`);
      if (provisional) marked.push(`${method} ${path}`);
    }
    expect(marked.length).toBeGreaterThan(0);
    expect(badged).toEqual(marked);
    expect(badged).toContain('get /cards/{code}');
    expect(badged).not.toContain('post /cards/{code}/withdraw');
    // spec/ and generated/ stay free of badges: only the copy has them.
    expect(JSON.stringify(openapi)).not.toContain('x-badges');
  });

  it('keeps badges an operation already has', () => {
    const doc = { paths: { '/a': { get: { 'x-provisional': true, 'x-badges': [{ name: 'Beta' }] }, post: {} } } } as any;
    addProvisionalBadges(doc);
    expect(doc.paths['/a'].get['x-badges']).toEqual([{ name: 'Beta' }, PROVISIONAL_BADGE]);
    expect(doc.paths['/a'].post['x-badges']).toBeUndefined();
  });

  it('lists each provisional part with its "Provisional:" sentence', () => {
    expect(provisionalText('Returns one card.\n\nProvisional: the whole operation. You need it.')).toBe('The whole operation.');
    expect(provisionalText('- `code` filters. Provisional: the name `code`.')).toBe('The name `code`.');
    expect(provisionalText('Returns one card.')).toBe('Returns one card.');
    const parts = findProvisional(built().openapi as never);
    const getCard = parts.find((p) => p.pointer === '#/paths/~1cards~1{code}/get');
    expect(getCard?.why).toMatch(/^The whole operation\./);
  });
});
