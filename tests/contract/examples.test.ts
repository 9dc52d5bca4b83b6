// (c) Every example validates against its schema with Ajv (JSON Schema 2020-12, formats on):
// media type examples, schema `examples`, parameter and header examples, event examples.
import { describe, expect, it } from 'vitest';
import { checkExamples, collectExamples } from './examples.ts';
import { built, expectNoProblems } from './helpers.ts';

describe('examples', () => {
  it('are found in every part of the OpenAPI bundle', () => {
    const wheres = collectExamples(built().openapi).map((c) => c.where);
    expect(wheres.some((w) => w.startsWith('/paths/') && w.includes('/requestBody/'))).toBe(true);
    expect(wheres.some((w) => w.startsWith('/paths/') && w.includes('/responses/'))).toBe(true);
    expect(wheres.some((w) => w.includes('/parameters/'))).toBe(true);
    expect(wheres.some((w) => w.startsWith('/components/schemas/'))).toBe(true);
  });

  it('of the OpenAPI bundle match their schemas', () => {
    expectNoProblems(checkExamples(built().openapi, 'openapi'));
  });

  it('of the AsyncAPI bundle match their schemas', () => {
    const { asyncapi } = built();
    expect(collectExamples(asyncapi).length).toBeGreaterThan(0);
    expectNoProblems(checkExamples(asyncapi, 'asyncapi'));
  });
});
