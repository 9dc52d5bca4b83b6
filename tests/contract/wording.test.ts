// Partner-facing wording (DECISIONS-1.1 section 8), checked on both bundles; the rules are in wording.ts.
import { contractModel } from '../../src/contract/model.ts';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../scripts/lib/pointer.ts';
import { built, expectNoProblems } from './helpers.ts';
import { checkWording, textProblems } from './wording.ts';

const format = (problems: { pointer: string; problem: string }[]) => problems.map((p) => `${p.pointer}: ${p.problem}`);

describe('the contract speaks to a partner', () => {
  for (const bundle of ['openapi', 'asyncapi'] as const) {
    it(`${bundle}: no reviewer talk, one "Provisional:" form, a note on every provisional part`, () => {
      expectNoProblems(format(checkWording(built()[bundle])));
    });
  }
});

describe('the wording check', () => {
  it('refuses each banned phrase and each other way of writing "provisional"', () => {
    expect(textProblems('Currency. The document shows `EUR`.')).toEqual([expect.stringMatching(/says "the document"/)]);
    expect(textProblems('Named by the interface document.')).toEqual([expect.stringMatching(/says "interface document"/)]);
    expect(textProblems('The retry schedule is not shown.')[0]).toMatch(/not shown/);
    expect(textProblems('The status is not confirmed.')[0]).toMatch(/not confirmed/);
    expect(textProblems('This contract designs it.')[0]).toMatch(/this contract/);
    for (const variant of ['The key (provisional).', 'Provisional. The key.', 'The key is provisional.', '**Provisional**: the key.']) {
      expect(textProblems(variant), variant).toEqual([expect.stringMatching(/other than as a sentence starting "Provisional:"/)]);
    }
  });

  it('allows "document" in its own senses and the one "Provisional:" form', () => {
    expect(textProblems('When the identity read on the document differs from the declared name.')).toEqual([]);
    expect(textProblems('Media type of the file. Provisional: PDF, PNG or JPEG.')).toEqual([]);
    expect(textProblems('The secret: store it now, it is not shown again.')).toEqual([]);
    expect(textProblems('Lists cards.\n\n- Provisional: `customer_code` filters by customer.')).toEqual([]);
    expect(textProblems('## Provisional parts\n\nSee `x-provisional`.')).toEqual([]);
  });

  it('a broken spec: reviewer talk, a mark without its sentence or note, a note without its mark', () => {
    const clean = built().openapi as JsonObject;
    const before = new Set(format(checkWording(clean)));
    const doc = structuredClone(clean);
    const withdraw: any = contractModel(doc).byPath('POST', '/cards/{code}/withdraw')?.node;
    withdraw.description = `${String(withdraw.description)} The document does not say more.`;
    const getCard: any = contractModel(doc).byPath('GET', '/cards/{code}')?.node;
    expect(getCard['x-provisional']).toBe(true);
    getCard.description = 'Returns one card.';
    delete getCard['x-provisional-note'];
    (doc.info as any)['x-provisional-note'] = 'A note on a documented part.';
    const found = format(checkWording(doc)).filter((p) => !before.has(p));
    expect(found).toHaveLength(4);
    expect(found).toEqual(
      expect.arrayContaining([
        '#/info: has an x-provisional-note but no x-provisional: true',
        '#/paths/~1cards~1{code}/get: marked x-provisional: true without an x-provisional-note',
        '#/paths/~1cards~1{code}/get/description: marked x-provisional: true, but has no sentence starting "Provisional:"',
        expect.stringMatching(/^#\/paths\/~1cards~1\{code\}~1withdraw\/post\/description: says "the document": .*does not say more/),
      ]),
    );
  });
});
