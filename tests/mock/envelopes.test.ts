// The mock front's pure parts: where a path goes, and how Prism's violations become details.fields.
import { describe, expect, it } from 'vitest';
import { fieldProblem, parameterNames, parseViolations, validationFailure } from '../../scripts/mock/envelopes.ts';
import { route } from '../../scripts/mock/server.ts';

describe('route', () => {
  it('strips /v1 and /api/v1, flags a gift card call at /v1, and refuses the rest', () => {
    expect(route('/v1/cards')).toEqual({ prismPath: '/cards', wrongHost: false });
    expect(route('/v1')).toEqual({ prismPath: '/', wrongHost: false });
    expect(route('/v1/gift-cards/orders')).toEqual({ prismPath: '/gift-cards/orders', wrongHost: true });
    expect(route('/api/v1/gift-cards/orders/x')).toEqual({ prismPath: '/gift-cards/orders/x', wrongHost: false });
    expect(route('/api/v1/cards')).toHaveProperty('notFound', expect.stringContaining('Only the gift card operations'));
    for (const path of ['/', '/cards', '/v10/cards', '/v1cards', '/api/v2/gift-cards']) {
      expect(route(path), path).toHaveProperty('notFound', expect.stringContaining('under /v1'));
    }
  });
});

describe('violations', () => {
  it('reads the header, ignoring what is not a violation list', () => {
    expect(parseViolations(undefined)).toEqual([]);
    expect(parseViolations('not json')).toEqual([]);
    expect(parseViolations('{"a":1}')).toEqual([]);
    expect(parseViolations('[{"location":["request","body"],"code":"type","message":"m"},{"x":1}]')).toHaveLength(1);
  });

  it('names nested body fields, array items, missing and extra properties, with the rule', () => {
    const at = (location: (string | number)[], code: string, message: string) => fieldProblem({ location, code, message });
    expect(
      at(['request', 'body', 'beneficiary', 'iban'], 'pattern', 'Request body property beneficiary.iban must match pattern "^X"'),
    ).toEqual({
      field: 'beneficiary.iban',
      message: 'must match pattern "^X" (pattern)',
    });
    expect(at(['request', 'body', 'items', 0], 'type', 'Request body property items.0 must be object')).toEqual({
      field: 'items.0',
      message: 'must be object (type)',
    });
    expect(at(['request', 'body', 'address'], 'required', "Request body property address must have required property 'city'")).toEqual({
      field: 'address.city',
      message: "must have required property 'city' (required)",
    });
    expect(at(['request', 'body'], 'type', 'Request body must be object')).toEqual({ field: 'body', message: 'must be object (type)' });
    expect(at(['request', 'query', 'limit'], 'maximum', 'Request query parameter limit must be <= 100')).toEqual({
      field: 'limit',
      message: 'must be <= 100 (maximum)',
    });
  });

  it("gives parameters back the contract's spelling", () => {
    const names = parameterNames({
      paths: { '/kyc/{customerCode}/status': { get: { parameters: [{ name: 'customerCode', in: 'path' }] } } },
    });
    expect(fieldProblem({ location: ['request', 'path', 'customercode'], code: 'format', message: 'x' }, names).field).toBe('customerCode');
  });

  it('keeps the meta and other details of the example it replaces, and keeps only errors', () => {
    const base = {
      success: false as const,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'canned',
        details: { fields: [{ field: 'amount', message: 'amount is required' }], other: 1 },
      },
      meta: { request_id: 'req_1', mode: 'test' as const, timestamp: '2026-03-02T10:15:30Z' },
    };
    const out = validationFailure(
      [
        {
          location: ['request', 'query', 'page'],
          code: 'type',
          severity: 'Error',
          message: 'Request query parameter page must be integer',
        },
        { location: ['request', 'header', 'x'], code: 'w', severity: 'Warning', message: 'ignored' },
      ],
      base,
      undefined,
    );
    expect(out).toEqual({
      ...base,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Validation failed: page: must be integer (type).',
        details: { other: 1, fields: [{ field: 'page', message: 'must be integer (type)' }] },
      },
    });
  });
});
