// (b) Every fact of the checklist (tests/fixtures/seed-checklist.yaml, derived by hand from the
// interface document) is in the bundle; (e) each operation documents the errors the document gives.
import { describe, expect, it } from 'vitest';
import { checkEndpoints, checkEnums, checkErrorRules, checkErrors, operations, type ErrorRule } from './checklist.ts';
import { built, checklist, expectNoProblems } from './helpers.ts';

describe('the checklist of the interface document', () => {
  it('lists what the document gives (33 events, 15 error codes, every endpoint it details)', () => {
    expect(Object.keys(checklist.events)).toHaveLength(33);
    expect(Object.keys(checklist.errors)).toHaveLength(15);
    expect(checklist.detailed).toHaveLength(12);
  });

  it('every endpoint the document details or names is in paths, with its parameters, body and data', () => {
    expectNoProblems(checkEndpoints(built().openapi, checklist));
  });

  it('every operation in paths is one the checklist knows, or is marked x-provisional', () => {
    const known = new Set([...checklist.detailed, ...checklist.named].map((e) => `${e.method} ${e.path}`));
    const unknown = operations(built().openapi)
      .filter((o) => !known.has(`${o.method} ${o.path}`) && o.op['x-provisional'] !== true)
      .map((o) => `${o.method.toUpperCase()} ${o.path}: not in the document's endpoints; mark it x-provisional`);
    expectNoProblems(unknown);
  });

  it('each operation documents the errors the document gives, under the documented status', () => {
    expectNoProblems(checkErrors(built().openapi, checklist));
  });

  it('the error responses follow the table of docs/structure.md (Errors)', () => {
    const table: ErrorRule[] = [
      { on: 'all', status: '401', code: 'AUTHENTICATION_REQUIRED' },
      { on: 'all', status: '429', code: 'RATE_LIMIT_EXCEEDED' },
      { on: 'all', status: '500', code: 'INTERNAL_ERROR' },
      { on: 'get', status: '403', code: 'IP_NOT_ALLOWED' },
      { on: 'get', status: '403', code: 'FORBIDDEN' },
      { on: 'non-get', status: '403', code: 'ACCOUNT_RESTRICTED' },
      { on: 'non-get', status: '403', code: 'IP_NOT_ALLOWED' },
      { on: 'non-get', status: '403', code: 'FORBIDDEN' },
      { on: 'path-param', status: '404', code: 'RESOURCE_NOT_FOUND' },
      { on: 'input', status: '422', code: 'VALIDATION_ERROR' },
    ];
    expectNoProblems(checkErrorRules(built().openapi, table));
  });

  it('every closed set the document lists is an enum with those values', () => {
    expectNoProblems(checkEnums(built().openapi, checklist));
  });
});
