// One fixture pair per rule family (tests/fixtures/diff/<name>/{base,head}.yaml). Each test lists every
// change the pair must produce, with its classification: "severity | rule | location | where | path".
import { describe, expect, it } from 'vitest';
import { RULES } from '../../scripts/diff/classify.ts';
import { diffFixture, summary } from './helpers.ts';

const cases: Record<string, { required: string; ok: boolean; changes: string[] }> = {
  operations: {
    required: 'major',
    ok: false,
    changes: [
      'breaking | operation-removed | DELETE /cards/{code}',
      'non-breaking | deprecated | GET /cards',
      'non-breaking | operation-added | POST /cards',
      'non-breaking | operation-id-changed | GET /cards',
    ],
  },
  parameters: {
    required: 'major',
    ok: false,
    changes: [
      'breaking | constraint-tightened | GET /cards | parameter query:limit', // maximum 100 -> 50
      'breaking | enum-value-removed | GET /cards | parameter query:status', // narrowed request enum
      'breaking | parameter-added-required | GET /cards | parameter header:X-Partner',
      'breaking | parameter-became-required | GET /cards | parameter query:page',
      'breaking | parameter-removed | GET /cards | parameter query:legacy',
      'non-breaking | parameter-added-optional | GET /cards | parameter query:brand',
      'non-breaking | parameter-became-optional | GET /cards | parameter query:customer_code',
    ],
  },
  'request-body': {
    required: 'major',
    ok: false,
    changes: [
      'breaking | additional-properties-closed | POST /cards | request body (application/json) | metadata',
      'breaking | constraint-tightened | POST /cards | request body (application/json) | amount', // minimum 5 -> 10
      'breaking | constraint-tightened | POST /cards | request body (application/json) | nickname', // maxLength 50 -> 20
      'breaking | enum-value-removed | POST /cards | request body (application/json) | brand',
      'breaking | property-added-required | POST /cards | request body (application/json) | product_code',
      'breaking | property-removed | POST /cards | request body (application/json) | external_reference',
      'breaking | request-body-became-required | POST /cards | request body',
      'breaking | type-narrowed | POST /cards | request body (application/json) | nickname', // [string, null] -> string
      'non-breaking | enum-value-added | POST /cards | request body (application/json) | currency',
      'non-breaking | property-added-optional | POST /cards | request body (application/json) | physical',
      'non-breaking | request-body-became-optional | POST /cards/{code}/topup | request body',
      'non-breaking | type-widened | POST /cards | request body (application/json) | label', // string -> [string, null]
    ],
  },
  response: {
    required: 'major',
    ok: false,
    changes: [
      'breaking | const-changed | GET /cards/{code} | response 200 (application/json) | success',
      'breaking | constraint-loosened | GET /cards/{code} | response 200 (application/json) | data.fees[].amount',
      'breaking | enum-value-added | GET /cards/{code} | response 200 (application/json) | data.status',
      'breaking | property-became-optional | GET /cards/{code} | response 200 (application/json) | data.balance',
      'breaking | property-removed | GET /cards/{code} | response 200 (application/json) | data.nickname',
      'breaking | success-response-added | GET /cards/{code}/sensitive | response 201',
      'breaking | success-response-removed | GET /cards/{code}/sensitive | response 200',
      'breaking | type-widened | GET /cards/{code} | response 200 (application/json) | data.last_four', // now nullable
      'non-breaking | enum-value-removed | GET /cards/{code} | response 200 (application/json) | data.brand',
      'non-breaking | enum-value-removed | GET /cards/{code} | response 200 (application/json) | data.issuer_brand', // same schema, second field
      'non-breaking | property-added-optional | GET /cards/{code} | response 200 (application/json) | data.created_at',
    ],
  },
  errors: {
    required: 'minor',
    ok: true,
    changes: [
      'docs | docs-changed | GET /cards/{code} | response 404 (application/json)', // the schema's title is the code
      'non-breaking | error-code-added | GET /cards/{code} | response 404', // single-code response: reported as codes,
      'non-breaking | error-code-removed | GET /cards/{code} | response 404', // not as a changed `error.code` const
      'non-breaking | error-code-added | POST /cards/{code}/withdraw | response 403',
      'non-breaking | error-code-removed | POST /cards/{code}/withdraw | response 403',
      'non-breaking | error-response-added | POST /cards/{code}/withdraw | response 400',
      'non-breaking | error-response-removed | POST /cards/{code}/withdraw | response 404',
      // a refusal reason is classified like an error code (docs/contract-diff.md, Errors)
      'non-breaking | error-reason-added | GET /cards/{code} | response 404 (application/json) | error.details.reason',
      'non-breaking | error-reason-added | POST /cards/{code}/withdraw | response 403 (application/json) | <FORBIDDEN>.error.details.reason',
      'non-breaking | error-reason-removed | GET /cards/{code} | response 404 (application/json) | error.details.reason',
      'non-breaking | error-reason-removed | POST /cards/{code}/withdraw | response 403 (application/json) | <FORBIDDEN>.error.details.reason',
    ],
  },
  security: {
    required: 'major',
    ok: false,
    changes: [
      'breaking | security-removed | GET /balance | security', // apiKey alternative dropped
      'breaking | security-removed | GET /cards | security',
      'breaking | security-removed | GET /status | security', // anonymous access removed
      'breaking | security-scheme-changed | security',
      'breaking | security-scheme-removed | security',
      'non-breaking | security-added | GET /balance | security', // anonymous alternative added
      'non-breaking | security-added | GET /status | security',
      'non-breaking | security-scheme-added | security',
    ],
  },
  servers: {
    required: 'major',
    ok: false,
    changes: [
      'breaking | server-default-changed | servers',
      'breaking | server-removed | servers',
      'non-breaking | server-added | servers',
    ],
  },
  webhooks: {
    required: 'major',
    ok: false,
    changes: [
      'breaking | enum-value-added | event card.frozen | payload | data.status', // widened enum in an event
      'breaking | event-removed | event card.unfrozen | webhook',
      'breaking | header-removed | event card.frozen | header X-Service-Timestamp',
      'breaking | property-became-optional | event card.frozen | payload | data.balance',
      'breaking | property-removed | event card.frozen | payload | data.currency',
      'non-breaking | event-added | event card.terminated | webhook',
      'non-breaking | property-added-optional | event card.frozen | payload | data.terminated_at',
      'non-breaking | type-narrowed | event card.frozen | payload | data.last_four',
    ],
  },
  asyncapi: {
    required: 'major',
    ok: false,
    changes: [
      'breaking | enum-value-added | event kyc.approved | payload | data.verification_level',
      'breaking | event-removed | event kyc.rejected | AsyncAPI message',
      'non-breaking | event-added | event kyc.expired | AsyncAPI message',
      'non-breaking | header-added-optional | event kyc.approved | header X-Service-Timestamp',
    ],
  },
  docs: {
    required: 'patch',
    ok: true,
    changes: [
      'docs | docs-changed | GET /cards',
      'docs | docs-changed | GET /cards | parameter query:page',
      'docs | docs-changed | GET /cards | parameter query:page',
      'docs | docs-changed | GET /cards | response 200',
      'docs | docs-changed | GET /cards | response 200 (application/json) | data[].status',
    ],
  },
  variants: {
    required: 'major',
    ok: false,
    changes: [
      'breaking | variant-added | POST /payouts | response 200 (application/json)', // a response may take a new shape
      'breaking | variant-removed | POST /payouts | request body (application/json)', // clients may no longer send AchPayout
      'non-breaking | variant-added | POST /payouts | request body (application/json)',
    ],
  },
  'variants-reorder': {
    // Untitled alternatives are matched by schema before position: the reversed `[ShippingAddress, null]` (in a
    // request and a response) is no change, and the title given to one of them is a docs change; the edited
    // string alternative of an anyOf, moved from first to second, is compared with the one it replaces.
    required: 'major',
    ok: false,
    changes: [
      'breaking | constraint-loosened | POST /cards | response 200 (application/json) | reference<#2>',
      'docs | docs-changed | POST /cards | request body (application/json) | shipping_address<ShippingAddress>',
    ],
  },
  'open-sets': {
    // docs/compatibility.md: event names and error codes are open in responses (strings with the known values as
    // examples) and closed in requests, so a new event type and a new error code are additive.
    required: 'minor',
    ok: true,
    changes: [
      'docs | docs-changed | POST /webhooks | response 200 (application/json) | events[]<#1>', // a new example of the open set
      'docs | docs-changed | POST /webhooks | response 200 (application/json) | last_event_type',
      'non-breaking | enum-value-added | POST /webhooks | request body (application/json) | events[]<#1>', // the closed request list grows
      'non-breaking | error-code-added | POST /webhooks | response 403',
      'non-breaking | event-added | event card.terminated | webhook',
    ],
  },
  extensibility: {
    // docs/compatibility.md: responses and events are open and may grow; requests are closed and may not narrow.
    required: 'major',
    ok: false,
    changes: [
      'non-breaking | additional-properties-opened | GET /cards/{code} | response 200 (application/json)', // opening a closed response
      'non-breaking | property-added-optional | GET /cards/{code} | response 200 (application/json) | product_code', // a new response field
      'docs | docs-changed | GET /cards/{code} | response 200 (application/json) | status', // a new value in an open set (examples)
      'non-breaking | constraint-tightened | GET /cards/{code} | response 200 (application/json) | balance', // x-decimal-places on a response
      'breaking | property-removed | GET /cards/{code} | response 200 (application/json) | nickname', // a removed response field
      'breaking | additional-properties-closed | POST /cards | request body (application/json)', // closing a request body further
      'breaking | property-added-required | POST /cards | request body (application/json) | customer_code', // a new required request field
      'breaking | type-narrowed | POST /cards | request body (application/json) | label', // a narrowed type
      'breaking | constraint-tightened | POST /cards | request body (application/json) | amount', // x-decimal-places on a request
      'non-breaking | property-added-optional | event card.frozen | payload | data.frozen_at', // a new event field
      'non-breaking | additional-properties-opened | event card.frozen | payload | data', // an event payload opened
      'non-breaking | event-added | event card.unfrozen | webhook', // a new event type
    ],
  },
  keywords: {
    // The same schema edits, once in a request body (POST) and once in a response (GET): the
    // classification flips with the direction, except where a value changes outright.
    required: 'major',
    ok: false,
    changes: [
      'breaking | const-added | POST /items | request body (application/json) | kind',
      'non-breaking | const-added | GET /items | response 200 (application/json) | kind',
      'breaking | const-removed | GET /items | response 200 (application/json) | mode',
      'non-breaking | const-removed | POST /items | request body (application/json) | mode',
      'breaking | constraint-changed | GET /items | response 200 (application/json) | amount', // multipleOf
      'breaking | constraint-changed | POST /items | request body (application/json) | amount',
      'breaking | constraint-changed | GET /items | response 200 (application/json) | iban', // pattern
      'breaking | constraint-changed | POST /items | request body (application/json) | iban',
      'breaking | constraint-loosened | GET /items | response 200 (application/json) | phone', // pattern removed
      'non-breaking | constraint-loosened | POST /items | request body (application/json) | phone',
      'breaking | constraint-tightened | POST /items | request body (application/json) | email', // format added
      'non-breaking | constraint-tightened | GET /items | response 200 (application/json) | email',
      'breaking | enum-added | POST /items | request body (application/json) | rail',
      'non-breaking | enum-added | GET /items | response 200 (application/json) | rail',
      'breaking | enum-removed | GET /items | response 200 (application/json) | region',
      'non-breaking | enum-removed | POST /items | request body (application/json) | region',
      'breaking | property-became-required | POST /items | request body (application/json) | nick',
      'non-breaking | property-became-required | GET /items | response 200 (application/json) | nick',
      'breaking | type-narrowed | POST /items | request body (application/json) | old_alt',
      'non-breaking | type-narrowed | GET /items | response 200 (application/json) | old_alt',
      'breaking | variants-removed | GET /items | response 200 (application/json) | old_alt',
      'breaking | variants-removed | POST /items | request body (application/json) | old_alt',
      'breaking | type-widened | GET /items | response 200 (application/json) | new_alt',
      'non-breaking | type-widened | POST /items | request body (application/json) | new_alt',
      'breaking | variants-added | GET /items | response 200 (application/json) | new_alt',
      'breaking | variants-added | POST /items | request body (application/json) | new_alt',
      // items: string -> integer is both a widening and a narrowing
      'breaking | type-narrowed | POST /items | request body (application/json) | tags[]',
      'non-breaking | type-widened | POST /items | request body (application/json) | tags[]',
      'breaking | type-widened | GET /items | response 200 (application/json) | tags[]',
      'non-breaking | type-narrowed | GET /items | response 200 (application/json) | tags[]',
      'non-breaking | additional-properties-opened | GET /items | response 200 (application/json)',
      'non-breaking | additional-properties-opened | POST /items | request body (application/json)',
    ],
  },
  bodies: {
    required: 'major',
    ok: false,
    changes: [
      'breaking | header-became-optional | POST /cards/{code}/freeze | header X-RateLimit-Remaining',
      'breaking | header-removed | POST /cards/{code}/freeze | header X-Request-Id',
      'non-breaking | header-added-required | POST /cards/{code}/freeze | header X-RateLimit-Limit',
      'non-breaking | header-became-required | POST /cards/{code}/freeze | header X-Trace',
      'breaking | media-type-added | POST /cards/{code}/freeze | response 200 (application/xml)',
      'breaking | media-type-removed | POST /cards/{code}/freeze | response 200', // text/csv
      'breaking | media-type-removed | POST /cards/{code}/topup | request body', // form-urlencoded
      'non-breaking | media-type-added | POST /cards/{code}/topup | request body (multipart/form-data)',
      'breaking | request-body-added-required | POST /cards/{code}/unfreeze | request body',
      'non-breaking | request-body-added-optional | POST /cards/{code}/terminate | request body',
      'breaking | request-body-removed | POST /cards/{code}/freeze | request body',
      'breaking | server-removed | POST /cards/{code}/freeze', // the document servers no longer apply
      'non-breaking | server-added | POST /cards/{code}/freeze',
    ],
  },
};

describe('contract diff rules', () => {
  for (const [name, want] of Object.entries(cases)) {
    it(`${name}: classifies every change`, async () => {
      const report = await diffFixture(name);
      expect(summary(report)).toEqual([...want.changes].sort());
      expect(report.required).toBe(want.required);
      expect(report.ok).toBe(want.ok);
    });
  }

  it('has a fixture for every classification rule', () => {
    const covered = new Set(Object.values(cases).flatMap((c) => c.changes.map((l) => l.split(' | ')[1])));
    expect([...covered].sort()).toEqual(Object.keys(RULES).sort());
  });

  it('sees no change between a contract and itself', async () => {
    const report = await diffFixture('identical');
    expect(report.changes).toEqual([]);
    expect(report.required).toBe('none');
    expect(report.ok).toBe(true);
  });

  it('allows breaking changes when info.version has a major bump', async () => {
    const report = await diffFixture('major-bump');
    expect(report.changes.map((c) => c.severity)).toContain('breaking');
    expect(report.bump).toBe('major');
    expect(report.ok).toBe(true);
  });
});
