import { describe, expect, it } from 'vitest';
import { normaliseSchema } from '../../scripts/diff/normalise.ts';

describe('normaliseSchema', () => {
  it('merges an envelope and its narrowing branch, as the contract writes events', () => {
    const envelope = {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'data'],
      properties: { type: { type: 'string' }, data: { type: 'object', additionalProperties: true } },
    };
    const base = { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['active', 'frozen'] } } };
    const event = {
      title: 'card.frozen',
      allOf: [
        envelope,
        {
          properties: {
            type: { const: 'card.frozen' },
            data: { allOf: [base, { properties: { status: { const: 'frozen' } } }], unevaluatedProperties: false },
          },
        },
      ],
    };
    expect(normaliseSchema(event)).toEqual({
      title: 'card.frozen',
      type: 'object',
      additionalProperties: false,
      required: ['type', 'data'],
      properties: {
        type: { type: 'string', const: 'card.frozen' },
        data: {
          type: 'object',
          additionalProperties: false,
          required: ['status'],
          properties: { status: { type: 'string', const: 'frozen' } },
        },
      },
    });
  });

  it('intersects types and enums, and keeps the tighter bound', () => {
    expect(
      normaliseSchema({
        allOf: [
          { type: ['number', 'null'], maximum: 10 },
          { type: 'integer', maximum: 5, minimum: 1 },
        ],
      }),
    ).toEqual({ type: 'integer', maximum: 5, minimum: 1 });
    expect(normaliseSchema({ allOf: [{ enum: ['a', 'b', 'c'] }, { enum: ['b', 'c', 'd'] }] })).toEqual({ enum: ['b', 'c'] });
  });

  it('survives a circular schema', () => {
    const node: Record<string, unknown> = { type: 'object', properties: {} };
    (node.properties as Record<string, unknown>).child = node;
    const out = normaliseSchema(node);
    expect(out.properties.child).toBe(out);
  });
});
