// The facts the sandbox reads from the contract instead of holding copies: the status of each error code (the
// error catalogue), the limits and fees of `x-plans`, and the closed sets of the generated value
// lists. Each expectation is read from the contract, in another place than the one the sandbox reads.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BALANCE_TYPES } from '../../src/sandbox/core/accounts.ts';
import { apiError, codeOfStatus, OUTSIDE_OPERATIONS, outsideOperations, statusOf } from '../../src/sandbox/core/errors.ts';
import { contractPlans, plansOf } from '../../src/sandbox/core/limits.ts';
import { PLANS } from '../../src/sandbox/core/accounts.ts';
import { DELIVERY_TIMEOUT_MS } from '../../src/sandbox/core/delivery.ts';
import { PROVIDER_FEE_MINOR, TERMINATION_FEE_MINOR, WITHDRAWAL_FEE_MINOR } from '../../src/sandbox/cards/fees.ts';
import { DEFAULT_TOLERANCE_SECONDS } from '../../src/webhooks/index.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import type { Outbox } from '../../src/sandbox/core/outbox.ts';
import { IDEMPOTENCY_KEY } from '../../src/sandbox/core/idempotency.ts';
import { EXAMPLE_CODES } from '../../src/sandbox/example-codes.ts';
import { DOCUMENT } from './support.ts';
import { contractModel } from '../../src/contract/model.ts';
import type { ErrorCode } from '../../src/client/types.ts';

const model = contractModel(DOCUMENT);
const schemas: Record<string, any> = Object.fromEntries(model.schemaNames.map((name) => [name, model.schema(name)?.node]));
/** The documented error codes: the examples of the open set `ErrorCode`. */
const errorCodeValues = schemas.ErrorCode.examples as ErrorCode[];

/** The error schema of each code (`allOf: [ErrorEnvelope, { error: { code: { const } } }]`) and the status its description names. */
function describedStatuses(): Map<string, number> {
  const statuses = new Map<string, number>();
  for (const schema of Object.values(schemas)) {
    const code = (schema.allOf ?? [])
      .map((b: any) => b.properties?.error?.properties?.code?.const)
      .find((c: unknown) => typeof c === 'string');
    const status = /^HTTP ([0-9]{3})\./.exec(schema.description ?? '')?.[1];
    if (code && status) statuses.set(code, Number(status));
  }
  return statuses;
}

describe('the error catalogue', () => {
  it('gives every error code of the contract the status its error schema describes', () => {
    const described = describedStatuses();
    expect([...described.keys()].sort()).toEqual([...errorCodeValues].sort());
    for (const code of errorCodeValues) expect(statusOf(code), code).toBe(described.get(code));
  });

  it('builds an error with that status and the typed details; outside the operations, the sandbox status', () => {
    const error = apiError('INSUFFICIENT_BALANCE', 'short', { required: 10, available: 5, balance_type: 'cards_visa' });
    expect(error).toMatchObject({
      status: 400,
      code: 'INSUFFICIENT_BALANCE',
      details: { required: 10, available: 5, balance_type: 'cards_visa' },
    });
    expect(outsideOperations(413, 'too large', null)).toMatchObject({ status: 413, code: 'VALIDATION_ERROR' });
  });

  it('maps a status to its code only when one code has it', () => {
    expect(codeOfStatus(502)).toBe('OPERATION_FAILED');
    expect(() => codeOfStatus(403)).toThrow(/403 with .*ACCOUNT_RESTRICTED/);
    expect(() => codeOfStatus(418)).toThrow('the contract answers 418 with no error code');
  });
});

describe('the limits and fees of the contract', () => {
  const plans = (DOCUMENT as any)['x-plans'];

  it('are read from x-plans, in minor units', () => {
    const { limits, fees } = contractPlans();
    const minor = (usd: number | null) => (usd === null ? null : Math.round(usd * 100));
    expect(limits.requestsPerMinute).toEqual(plans.limits.requests_per_minute);
    expect(limits.cardsCreatedPerMonth).toEqual(plans.limits.cards_created_per_month);
    expect(limits.loadedOnCardsPerMonthMinor).toEqual({
      decouverte: minor(plans.limits.loaded_on_cards_per_month_usd.decouverte),
      others: minor(plans.limits.loaded_on_cards_per_month_usd.others),
    });
    expect(limits.activeWebhookEndpoints).toEqual(plans.limits.active_webhook_endpoints);
    expect(contractPlans().cardCategories).toEqual({
      decouverte: plans.card_categories.decouverte,
      others: plans.card_categories.others === 'all' ? null : plans.card_categories.others,
    });
    expect(limits.cardWithdrawalFloorMinor).toBe(minor(plans.limits.card_withdrawal_remaining_usd));
    expect(limits.webhookResponseTimeoutMs).toBe(plans.limits.webhook_response_timeout_seconds * 1000);
    expect(DELIVERY_TIMEOUT_MS).toBe(limits.webhookResponseTimeoutMs);
    expect(fees.cardFeeMinor).toEqual({
      virtual: minor(plans.fees.card_fee_usd.virtual),
      physical: minor(plans.fees.card_fee_usd.physical),
    });
    for (const plan of PLANS) expect(WITHDRAWAL_FEE_MINOR[plan], plan).toBe(minor(plans.fees.card_withdrawal_fee_usd[plan]));
    expect([PROVIDER_FEE_MINOR, TERMINATION_FEE_MINOR]).toEqual([
      minor(plans.fees.provider_fee_usd),
      minor(plans.fees.termination_fee_usd),
    ]);
  });

  it("the plans are the simulation API's, and the toolkit's tolerance is the contract's", () => {
    expect(plans.plans).toEqual([...PLANS]);
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(plans.limits.webhook_timestamp_tolerance_seconds);
  });

  it('another value in the bundle is another value in the sandbox: it holds no copy', () => {
    const changed = structuredClone(DOCUMENT) as any;
    changed['x-plans'].limits.cards_created_per_month.decouverte = 7;
    changed['x-plans'].fees.card_withdrawal_fee_usd.premium = 0.25;
    changed['x-plans'].tags.decouverte = ['Cards'];
    changed['x-plans'].card_categories.decouverte = ['virtual', 'physical'];
    const read = plansOf(changed);
    expect(read.limits.cardsCreatedPerMonth.decouverte).toBe(7);
    expect(read.fees.withdrawalFeeMinor.premium).toBe(25);
    expect(read.tags.decouverte).toEqual(['Cards']);
    expect(read.cardCategories.decouverte).toEqual(['virtual', 'physical']);
    delete changed['x-plans'].fees.service_fee_usd;
    expect(() => plansOf(changed)).toThrow("the contract's x-plans has no number at fees.service_fee_usd");
  });

  it('no module of the sandbox reads a limit or a fee from prose', () => {
    for (const file of ['core/limits.ts', 'cards/fees.ts', 'core/products.ts']) {
      const source = fs.readFileSync(path.join(ROOT, 'src/sandbox', file), 'utf8');
      // Reading prose takes a pattern: a regular expression over the text, or a split of a table's rows.
      expect(source, file).not.toMatch(/\.match\(|new RegExp|\.split\('\|'\)|tableRows/);
    }
  });
});

describe('the decisions the contract holds as values have no copy in the sandbox or the conformance suite', () => {
  const source = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
  /** The string literals of a source file (comments left out). */
  const literals = (file: string) =>
    [
      ...source(file)
        .replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '')
        .matchAll(/'([^'\n]*)'/g),
    ].map((m) => m[1]);

  it("the ping's type (x-ping), a transaction type's values (x-type-values), the wrong-method answer (x-refusals)", () => {
    const ping = schemas.WebhookPing.allOf[1].properties.type.const;
    for (const file of ['src/sandbox/webhook-endpoints/rules.ts', 'scripts/conformance/receiver.ts'])
      expect(literals(file), file).not.toContain(ping);
    const values = schemas.CardTransaction['x-type-values'];
    expect(literals('src/sandbox/cards/withdrawal.ts')).not.toContain(values.withdrawal.merchant_name);
    expect(literals('src/sandbox/cards/simulation.ts')).not.toContain(values.decline.status);
    const wrong = (DOCUMENT as any)['x-refusals'].wrong_method;
    expect(Object.keys(OUTSIDE_OPERATIONS)).not.toContain(String(wrong.status));
  });
});

describe('the closed sets', () => {
  it('the ops balance types are those of BalanceType: its enum and its provisional const', () => {
    const values = schemas.BalanceType.oneOf.flatMap((branch: any) => branch.enum ?? [branch.const]);
    expect([...BALANCE_TYPES].sort()).toEqual([...values].sort());
  });
});

describe('events', () => {
  it("Outbox.emit takes only an event of the contract, with its schema's payload (npm run typecheck checks this)", () => {
    const typed = (emit: Outbox['emit'], account: { id: number; mode: 'test' | 'live' }) => {
      // @ts-expect-error card.frozen carries the base fields of a card, not a balance
      emit(account, 'card.frozen', { balance_type: 'cards_visa', balance: 42, lowBalanceThreshold: 100 });
      // A card.frozen payload but for its status, apart, so that the call the directive covers stays on one line.
      const card = {
        card_code: 'c',
        customer_code: 'c',
        external_reference: 'r',
        product_code: 'p',
        brand: 'VISA',
        last_four: null,
        balance: 1,
        currency: 'USD',
      } as const;
      emit(account, 'card.frozen', { ...card, status: 'frozen' });
      // @ts-expect-error card.frozen carries the status `frozen`
      emit(account, 'card.frozen', { ...card, status: 'active' });
      // @ts-expect-error not an event of the contract
      emit(account, 'card.exploded', {});
      emit(account, 'balance.low_balance', { balance_type: 'cards_visa', balance: 42, lowBalanceThreshold: 100 });
    };
    expect(typeof typed).toBe('function');
  });
});

describe('codes and patterns', () => {
  it("the example codes are the examples of the contract's path parameters that name a record", () => {
    const examples = new Set<string>();
    for (const operation of model.operations) {
      for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
        const example = parameter.node.example;
        if (/^(evt_)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(String(example))) examples.add(String(example));
      }
    }
    expect(new Set(Object.values(EXAMPLE_CODES))).toEqual(examples);
  });

  it("the Idempotency-Key check is the contract's pattern", () => {
    const schema = model.resolve(model.component('parameters', 'IdempotencyKey')?.node.schema).node as any;
    expect(IDEMPOTENCY_KEY.source).toBe(schema.pattern);
    expect(IDEMPOTENCY_KEY.test(schema.examples[0])).toBe(true);
    expect(IDEMPOTENCY_KEY.test('has space')).toBe(false);
  });
});
