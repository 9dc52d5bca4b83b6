// The strict response validator on its own: every example of the contract passes, and each kind of
// deviation is reported with its JSON pointer.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createResponseValidator, matchPathTemplate, validateResponse } from '../../scripts/conformance/validate-response.ts';
import { defaultSpec } from './broken-servers/example-server.ts';

const spec = defaultSpec();
const bundle = existsSync(spec) ? JSON.parse(readFileSync(spec, 'utf8')) : undefined;
const v = bundle ? createResponseValidator(bundle) : undefined;

describe.skipIf(!bundle)('validate-response', () => {
  it('accepts every named example of every documented response', () => {
    const failures: string[] = [];
    let count = 0;
    for (const op of v!.operations()) {
      for (const status of op.statuses) {
        for (const ex of v!.examples(op.method, op.path, status)) {
          count++;
          const errors = v!.validate(op.method, op.path, status, ex.value, 'application/json');
          if (errors.length) failures.push(`${op.method} ${op.path} ${status} ${ex.name}: ${JSON.stringify(errors)}`);
        }
      }
    }
    expect(count).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  });

  const card = () =>
    structuredClone(v!.examples('GET', '/cards/{code}', 200)[0]!.value) as { data: Record<string, unknown> } & Record<string, unknown>;

  it('reports a wrong type, a missing field, an unknown value of a closed set and a bad format by pointer', () => {
    const body = card();
    body.data.balance = '75';
    delete body.data.currency;
    (body.meta as Record<string, unknown>).mode = 'exploded';
    body.data.code = 'card-1';
    const errors = v!.validate('GET', '/cards/{code}', 200, body);
    expect(errors).toEqual(
      expect.arrayContaining([
        { pointer: '/data/balance', message: 'must be number (got "75")' },
        { pointer: '/data/currency', message: 'is required but missing' },
        expect.objectContaining({ pointer: '/meta/mode', message: expect.stringContaining('must be one of') }),
        { pointer: '/data/code', message: 'must be a valid uuid (got "card-1")' },
      ]),
    );
  });

  it('accepts undocumented fields and an unknown value of an open set; undocumented() names the fields', () => {
    const body = card();
    body.extra = true;
    body.data.internal_id = 7;
    (body.data.fees as Record<string, unknown>).markup = 1;
    body.data.status = 'suspended'; // "values seen": an open set
    expect(v!.validate('GET', '/cards/{code}', 200, body)).toEqual([]);
    expect(v!.undocumented('GET', '/cards/{code}', 200, body).sort()).toEqual(['/data/fees/markup', '/data/internal_id', '/extra']);
    expect(v!.undocumented('GET', '/cards/{code}', 200, card())).toEqual([]);
  });

  it('reads undocumented fields of an error from the schema of its code', () => {
    const body = {
      success: false,
      error: { code: 'INSUFFICIENT_BALANCE', message: 'x', details: { required: 10, available: 5, balance_type: 'card', trace: 'abc' } },
      meta: { request_id: 'req_1', mode: 'test', timestamp: '2026-03-02T10:15:30Z' },
    };
    expect(v!.undocumented('POST', '/cards/{code}/withdraw', 400, body)).toEqual(['/error/details/trace']);
  });

  it('reports an undocumented status, a body outside the failure envelope and an undocumented error code', () => {
    expect(v!.validate('GET', '/cards/{code}', 201, card())[0]!.message).toMatch(/status 201 is not documented for GET \/cards\/\{code\}/);
    const outside = v!.validate('GET', '/cards/{code}', 404, { statusCode: 404, error: 'Not Found' });
    expect(outside.map((e) => e.pointer)).toContain('/success');
    expect(outside[0]!.message).toContain('failure envelope');
    const wrongCode = validateResponse(bundle, 'GET', '/cards/{code}', 404, {
      success: false,
      error: { code: 'FORBIDDEN', message: 'x', details: null },
    });
    expect(wrongCode).toEqual([{ pointer: '/error/code', message: expect.stringContaining("error code 'FORBIDDEN' is not documented") }]);
  });

  it('checks the details shape of the code (a multi-code status picks the branch by code)', () => {
    const errors = v!.validate('POST', '/cards/{code}/withdraw', 403, {
      success: false,
      error: { code: 'ACCOUNT_SUSPENDED_NEGATIVE_BALANCE', message: 'x', details: null },
    });
    expect(errors).toEqual([{ pointer: '/error/details', message: 'must be object (got null)' }]);
  });

  it('parses JSON text and checks the content type', () => {
    expect(v!.validate('GET', '/cards/{code}', 200, JSON.stringify(card()), 'application/json; charset=utf-8')).toEqual([]);
    expect(v!.validate('GET', '/cards/{code}', 200, '<html>', 'application/json')[0]!.message).toMatch(/not valid JSON/);
    expect(v!.validate('GET', '/cards/{code}', 200, card(), 'text/html')[0]!.pointer).toBe('content-type');
  });

  it('maps a concrete path to its template, literal segments first', () => {
    expect(matchPathTemplate(bundle, 'GET', '/cards/7c9e6679-7425-40de-944b-e07fc1f90ae7')).toBe('/cards/{code}');
    expect(matchPathTemplate(bundle, 'POST', '/payouts/quotes')).toBe('/payouts/quotes');
    expect(matchPathTemplate(bundle, 'GET', '/cards?limit=1')).toBe('/cards');
  });

  it('maps no path with a trailing slash, an empty segment or a method the template does not take', () => {
    expect(matchPathTemplate(bundle, 'GET', '/customers/')).toBeUndefined();
    expect(matchPathTemplate(bundle, 'GET', '/cards/7c9e6679-7425-40de-944b-e07fc1f90ae7/')).toBeUndefined();
    expect(matchPathTemplate(bundle, 'GET', '/cards//freeze')).toBeUndefined();
    expect(matchPathTemplate(bundle, 'GET', '/cards/x/freeze')).toBeUndefined();
  });
});
