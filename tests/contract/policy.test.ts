// The extensibility policy (docs/compatibility.md): open responses and events, closed requests, and no
// field the document does not list required in what it shows.
import { describe, expect, it } from 'vitest';
import { checkOpenness, checkRequiredDocumented, UNKNOWN_FIELD, withUnknownField } from './policy.ts';
import { built, checklist, expectNoProblems } from './helpers.ts';

describe('extensibility policy', () => {
  it('response bodies and event payloads accept unknown fields; request bodies refuse them', () => {
    expectNoProblems(checkOpenness(built().openapi));
  });

  it('no field the document does not list is required in a resource, payload or object it shows', () => {
    expectNoProblems(checkRequiredDocumented(built().openapi, checklist));
  });

  it('adds the unknown field to each object of a value, one at a time', () => {
    const variants = withUnknownField({ a: { b: [{ c: 1 }] }, n: 1 });
    expect(variants.map((v) => v.at)).toEqual(['/', '/a', '/a/b/0']);
    expect(variants[2]!.value).toEqual({ a: { b: [{ c: 1, [UNKNOWN_FIELD]: 'x' }] }, n: 1 });
  });
});
