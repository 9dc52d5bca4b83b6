// (Bounds) every schema of both bundles is bounded: strings, arrays, integers, money amounts.
// Spectral (.spectral.yaml) checks the OpenAPI bundle too; this also covers the AsyncAPI bundle.
import { describe, expect, it } from 'vitest';
import { unboundedSchemas } from './bounds.ts';
import { built, expectNoProblems } from './helpers.ts';

describe('bounds', () => {
  for (const api of ['openapi', 'asyncapi'] as const) {
    it(`every string, array, integer and money amount of the ${api} bundle is bounded`, () => {
      const found = unboundedSchemas(built()[api]);
      expectNoProblems([
        ...found.strings.map((p) => `${api}#${p}: a string without maxLength, enum or const`),
        ...found.arrays.map((p) => `${api}#${p}: an array without maxItems`),
        ...found.integers.map((p) => `${api}#${p}: an integer without format, minimum and maximum`),
        ...found.numbers.map((p) => `${api}#${p}: a money amount without minimum, maximum and x-decimal-places`),
      ]);
    });
  }

  it('reports each kind of unbounded schema', () => {
    const found = unboundedSchemas({
      properties: {
        name: { type: 'string' },
        tags: { type: 'array', items: { type: 'string', maxLength: 5 } },
        count: { type: 'integer', minimum: 0 },
        amount: { type: ['number', 'null'], minimum: 0, maximum: 10 },
        exchange_rate: { type: 'number' },
        ok: { type: 'string', enum: ['a'] },
      },
      examples: [{ type: 'string' }],
    });
    expect(found).toEqual({
      strings: ['/properties/name'],
      arrays: ['/properties/tags'],
      integers: ['/properties/count'],
      numbers: ['/properties/amount'],
    });
  });
});
