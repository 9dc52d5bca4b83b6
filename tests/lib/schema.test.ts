// The shared Ajv factory (scripts/lib/schema.ts): the `x-decimal-places` keyword, and the list of fields a
// value has that its schema does not document.
import { describe, expect, it } from 'vitest';
import { SchemaValidator, undocumentedFields } from '../../scripts/lib/schema.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';

const doc: JsonObject = {
  components: {
    schemas: {
      Usd: { type: 'number', minimum: 0, maximum: 1000000000, 'x-decimal-places': 2 },
      Usdc: { type: 'number', minimum: 0, maximum: 1000000000, 'x-decimal-places': 6 },
      Fees: { type: 'object', properties: { card_fee: { $ref: '#/components/schemas/Usd' } } },
      Card: {
        type: 'object',
        properties: {
          code: { type: 'string' },
          fees: { $ref: '#/components/schemas/Fees' },
          tags: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        },
      },
      Envelope: {
        allOf: [
          { type: 'object', properties: { success: { type: 'boolean' }, data: {} } },
          { type: 'object', properties: { data: { $ref: '#/components/schemas/Card' } } },
        ],
      },
      Either: {
        oneOf: [
          { type: 'object', required: ['kind'], properties: { kind: { const: 'a' }, a: { type: 'string' } } },
          { type: 'object', required: ['kind'], properties: { kind: { const: 'b' }, b: { type: 'string' } } },
        ],
      },
      Map: { type: 'object', additionalProperties: { type: 'object', properties: { n: { type: 'integer' } } } },
      Open: { type: 'object', additionalProperties: true, properties: { reason: { type: 'string' } } },
    },
  },
};
const validator = new SchemaValidator(doc, 'test');
const matches = (ptr: string, value: unknown) => validator.check(ptr, value) === undefined;
const extra = (name: string, value: unknown) => undocumentedFields(doc, `/components/schemas/${name}`, value, matches);

describe('x-decimal-places (bundleAjv)', () => {
  it('refuses 10.001 where 2 places are allowed, naming the keyword', () => {
    expect(validator.check('/components/schemas/Usd', 10.001)).toMatch(/must have at most 2 decimal places/);
    expect(validator.check('/components/schemas/Usd', 0.005)).toBeDefined();
  });
  it('accepts 19.99, 0.07, 10.1 and integers where 2 places are allowed', () => {
    for (const value of [19.99, 0.07, 10.1, 5, 0, 999999999.99])
      expect(validator.check('/components/schemas/Usd', value), String(value)).toBeUndefined();
  });
  it('allows 6 places for USDC and USDT amounts, not 7', () => {
    expect(validator.check('/components/schemas/Usdc', 1.123456)).toBeUndefined();
    expect(validator.check('/components/schemas/Usdc', 1.1234567)).toMatch(/at most 6 decimal places/);
  });
  it('leaves values that are not numbers to the type keyword', () => {
    expect(validator.check('/components/schemas/Usd', '19.999')).toMatch(/must be number/);
  });
});

describe('undocumentedFields', () => {
  it('is empty for a value that uses only documented fields', () => {
    expect(extra('Envelope', { success: true, data: { code: 'x', fees: { card_fee: 1 }, tags: [{ name: 'a' }] } })).toEqual([]);
  });
  it('names extra fields as JSON Pointers, through $ref, allOf, nested objects and array items', () => {
    const value = {
      success: true,
      leak: 1,
      data: { code: 'x', internal_id: 7, fees: { card_fee: 1, markup: 2 }, tags: [{ name: 'a' }, { name: 'b', debug: true }] },
    };
    expect(extra('Envelope', value).sort()).toEqual(['/data/fees/markup', '/data/internal_id', '/data/tags/1/debug', '/leak']);
  });
  it('reads only the oneOf branch the value matches', () => {
    expect(extra('Either', { kind: 'a', a: 'x' })).toEqual([]);
    expect(extra('Either', { kind: 'a', a: 'x', b: 'y' })).toEqual(['/b']);
  });
  it('follows additionalProperties schemas of maps, and accepts explicitly open objects', () => {
    expect(extra('Map', { k1: { n: 1 }, k2: { n: 2, x: 3 } })).toEqual(['/k2/x']);
    expect(extra('Open', { reason: 'r', brand: 'VISA' })).toEqual([]);
  });
});
