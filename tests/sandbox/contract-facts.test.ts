// The facts the sandbox reads from the contract instead of holding copies: the status of each error code (the
// error catalogue), the limits of the "Plans and limits" table, and the closed sets of the generated value
// lists. Each expectation is read from the contract, in another place than the one the sandbox reads.
import { describe, expect, it } from 'vitest';
import { BALANCE_TYPES } from '../../src/sandbox/core/accounts.ts';
import { apiError, codeOfStatus, outsideOperations, statusOf } from '../../src/sandbox/core/errors.ts';
import { contractLimits, limitsOf } from '../../src/sandbox/core/limits.ts';
import type { Outbox } from '../../src/sandbox/core/events.ts';
import { IDEMPOTENCY_KEY } from '../../src/sandbox/core/idempotency.ts';
import { EXAMPLE_CODES } from '../../src/sandbox/example-codes.ts';
import { DOCUMENT } from './support.ts';
import type { ErrorCode } from '../../src/client/types.ts';

const schemas = (DOCUMENT.components as any).schemas as Record<string, any>;
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

describe('the limits of the contract', () => {
  const description = String((DOCUMENT.info as any).description);

  it('are read from the "Plans and limits" table of the description', () => {
    const limits = contractLimits();
    const usd = (minor: number | null) => (minor! / 100).toLocaleString('en-US');
    // Each value, put back in the words of its row, is what the table says.
    for (const row of [
      `| Requests per API key | ${limits.requestsPerMinute.decouverte} per minute (Découverte); ${limits.requestsPerMinute.others} per minute (Starter, Business, Premium) |`,
      `| Cards created | ${limits.cardsCreatedPerMonth.decouverte} per calendar month (Découverte); none otherwise |`,
      `| Loaded on cards | ${usd(limits.loadedOnCardsPerMonthMinor.decouverte)} USD per calendar month (Découverte); none otherwise |`,
      `| Payouts | ${usd(limits.payoutsPerMonthMinor.decouverte)} USD per calendar month (Découverte) |`,
      `| Allowed IP addresses | ${limits.allowedIps.decouverte} (Découverte); ${limits.allowedIps.others} otherwise |`,
      `| Active webhook endpoints | ${limits.activeWebhookEndpoints.decouverte} (Découverte); ${limits.activeWebhookEndpoints.others} otherwise |`,
      `| Card withdrawal | minimum ${usd(limits.cardWithdrawalMinimumMinor)} USD; at least ${usd(limits.cardWithdrawalFloorMinor)} USD must remain on the card |`,
      `| Low balance default threshold | ${usd(limits.lowBalanceThresholdMinor)} USD |`,
    ]) {
      expect(description).toContain(row);
    }
    expect(limits.cardsCreatedPerMonth.others).toBeNull(); // "none otherwise"
    expect(limits.payoutsPerMonthMinor.others).toBeNull(); // no value for the other plans
  });

  it('a table that no longer reads as expected stops the sandbox, naming the row', () => {
    expect(() => limitsOf(description.replace('| Cards created |', '| Cards issued |'))).toThrow(
      `the contract's limits table has no row "Cards created"`,
    );
    expect(() => limitsOf(description.replace('| 25 per calendar month (Découverte)', '| 25 per calendar month'))).toThrow(
      '"Cards created" gives no value for Découverte',
    );
    expect(() => limitsOf(description.replace('at least 5 USD must remain on the card', 'a balance must remain'))).toThrow(
      '"Card withdrawal" reads',
    );
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
  const resolve = (node: any): any =>
    node?.$ref
      ? resolve(
          node.$ref
            .slice(2)
            .split('/')
            .reduce((n: any, k: string) => n?.[k], DOCUMENT),
        )
      : node;

  it("the example codes are the examples of the contract's path parameters that name a record", () => {
    const examples = new Set<string>();
    for (const item of Object.values(DOCUMENT.paths as Record<string, any>)) {
      for (const scope of [item, ...Object.values(item)] as any[]) {
        for (const parameter of (Array.isArray(scope?.parameters) ? scope.parameters : []).map(resolve)) {
          if (
            parameter.in === 'path' &&
            /^(evt_)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(String(parameter.example))
          )
            examples.add(parameter.example);
        }
      }
    }
    expect(new Set(Object.values(EXAMPLE_CODES))).toEqual(examples);
  });

  it("the Idempotency-Key check is the contract's pattern", () => {
    const schema = resolve((DOCUMENT.components as any).parameters.IdempotencyKey).schema;
    expect(IDEMPOTENCY_KEY.source).toBe(schema.pattern);
    expect(IDEMPOTENCY_KEY.test(schema.examples[0])).toBe(true);
    expect(IDEMPOTENCY_KEY.test('has space')).toBe(false);
  });
});
