// Type-level tests, checked by tsc (tests/client/types.test.ts compiles this file; `npm run typecheck`
// covers it too when tsconfig.json includes tests/). `// @ts-expect-error` lines fail the check when the
// error they expect disappears, so each one is an assertion.

import { expectTypeOf } from 'vitest';
import type { components } from '../../generated/openapi.js';
import {
  createPartnerClient,
  isPartnerApiError,
  type ErrorCode,
  type PartnerApiError,
  type OperationErrorCode,
  type PageItem,
  type PaginatedPath,
  type PartnerApiErrorFor,
  type PathErrorCode,
  type ResultErrorCode,
} from '../../src/index.js';

type Card = components['schemas']['Card'];
type Payout = components['schemas']['Payout'];

const client = createPartnerClient({ apiKey: 'sk_test_x', baseUrl: 'http://127.0.0.1:1' });

// ---- Error codes are the ones each operation documents ----------------------------------------------

// ErrorCode is every code the contract documents (its error schemas), although the contract's own `ErrorCode`
// schema is an open string: the set may grow (docs/compatibility.md).
expectTypeOf<ErrorCode>().toEqualTypeOf<
  | 'AUTHENTICATION_FAILED'
  | 'PLAN_UPGRADE_REQUIRED'
  | 'PLAN_LIMIT_REACHED'
  | 'ACCOUNT_SUSPENDED_NEGATIVE_BALANCE'
  | 'ACCOUNT_RESTRICTED'
  | 'INSUFFICIENT_BALANCE'
  | 'RESOURCE_NOT_FOUND'
  | 'VALIDATION_ERROR'
  | 'AUTHENTICATION_REQUIRED'
  | 'IP_NOT_ALLOWED'
  | 'OPERATION_FAILED'
  | 'FORBIDDEN'
  | 'RATE_LIMIT_EXCEEDED'
  | 'INTERNAL_ERROR'
  | 'wrong_api_host'
>();

// POST /cards/{code}/withdraw: 400, 401, 402, 403 (ForbiddenWrite), 404, 422, 429, 500, 502.
expectTypeOf<OperationErrorCode<'withdrawFromCard'>>().toEqualTypeOf<
  | 'INSUFFICIENT_BALANCE'
  | 'AUTHENTICATION_REQUIRED'
  | 'AUTHENTICATION_FAILED'
  | 'PLAN_UPGRADE_REQUIRED'
  | 'ACCOUNT_SUSPENDED_NEGATIVE_BALANCE'
  | 'ACCOUNT_RESTRICTED'
  | 'IP_NOT_ALLOWED'
  | 'FORBIDDEN'
  | 'RESOURCE_NOT_FOUND'
  | 'VALIDATION_ERROR'
  | 'RATE_LIMIT_EXCEEDED'
  | 'INTERNAL_ERROR'
  | 'OPERATION_FAILED'
>();
expectTypeOf<PathErrorCode<'/cards/{code}/withdraw', 'post'>>().toEqualTypeOf<OperationErrorCode<'withdrawFromCard'>>();

// A GET is never refused for a negative balance, and listing cards debits nothing.
expectTypeOf<'RESOURCE_NOT_FOUND'>().toExtend<PathErrorCode<'/cards', 'get'>>();
expectTypeOf<'ACCOUNT_SUSPENDED_NEGATIVE_BALANCE'>().not.toExtend<PathErrorCode<'/cards', 'get'>>();
expectTypeOf<'INSUFFICIENT_BALANCE'>().not.toExtend<PathErrorCode<'/cards', 'get'>>();
// wrong_api_host belongs to the gift card operations only.
expectTypeOf<'wrong_api_host'>().toExtend<PathErrorCode<'/gift-cards/orders', 'post'>>();
expectTypeOf<'wrong_api_host'>().not.toExtend<PathErrorCode<'/cards', 'post'>>();

// The raw result's error body is narrowed too, and ResultErrorCode reads it.
async function rawStyle() {
  const result = await client.GET('/cards', { params: { query: { limit: 10 } } });
  expectTypeOf<ResultErrorCode<typeof result>>().toEqualTypeOf<PathErrorCode<'/cards', 'get'>>();
  if (result.error) {
    expectTypeOf(result.error.error.code).toEqualTypeOf<PathErrorCode<'/cards', 'get'>>();
  } else {
    expectTypeOf(result.data.data).toEqualTypeOf<Card[]>();
  }
}

// isPartnerApiError(error, method, path) narrows `code`, and `code` narrows `details`.
function onError(error: unknown) {
  if (isPartnerApiError(error, 'POST', '/cards/{code}/withdraw')) {
    expectTypeOf(error.code).toEqualTypeOf<OperationErrorCode<'withdrawFromCard'>>();
    if (error.code === 'INSUFFICIENT_BALANCE') {
      expectTypeOf(error.details.available).toEqualTypeOf<number>();
      expectTypeOf(error.details.balance_type).toEqualTypeOf<string>();
    }
    // @ts-expect-error PLAN_LIMIT_REACHED is not a code of POST /cards/{code}/withdraw
    if (error.code === 'PLAN_LIMIT_REACHED') return;
    // @ts-expect-error not an error code at all
    if (error.code === 'NOT_A_CODE') return;
  }
  if (isPartnerApiError(error, 'POST', '/cards/{code}/withdraw')) {
    // The docs/client.md example.
    switch (error.code) {
      case 'INSUFFICIENT_BALANCE':
        expectTypeOf(error.details.available).toEqualTypeOf<number>();
        break;
      case 'ACCOUNT_SUSPENDED_NEGATIVE_BALANCE':
        expectTypeOf(error.details.negative_balance_since).toEqualTypeOf<string>();
        break;
      // @ts-expect-error withdrawals do not document PLAN_LIMIT_REACHED
      case 'PLAN_LIMIT_REACHED':
        break;
    }
  }
  if (isPartnerApiError(error, 'GET', '/cards')) {
    // @ts-expect-error GET requests are never refused with ACCOUNT_SUSPENDED_NEGATIVE_BALANCE
    if (error.code === 'ACCOUNT_SUSPENDED_NEGATIVE_BALANCE') return;
    expectTypeOf(error.requestId).toEqualTypeOf<string | undefined>();
    expectTypeOf(error.status).toEqualTypeOf<number>();
  }
  if (isPartnerApiError(error)) {
    expectTypeOf(error).toExtend<PartnerApiError>();
  }
  // @ts-expect-error /cards has no DELETE
  isPartnerApiError(error, 'DELETE', '/cards');
  const typed = error as PartnerApiErrorFor<'/payouts/{code}', 'get'>;
  expectTypeOf(typed.code).toEqualTypeOf<PathErrorCode<'/payouts/{code}', 'get'>>();
}

// ---- Data or throw --------------------------------------------------------------------------------

async function dataOrThrow() {
  const page = await client.call.GET('/cards', { params: { query: { page: 2 } } });
  expectTypeOf(page.pagination.pages).toEqualTypeOf<number>();
  expectTypeOf(page.data[0]).toEqualTypeOf<Card | undefined>();
  const withdrawal = await client.call.POST('/cards/{code}/withdraw', {
    params: { path: { code: '7c9e6679-7425-40de-944b-e07fc1f90ae7' } },
    body: { amount: 10 },
  });
  expectTypeOf(withdrawal.data).toEqualTypeOf<components['schemas']['CardWithdrawal']>();
  const same = client.unwrap(await client.GET('/cards'));
  expectTypeOf(same).toEqualTypeOf(page);
  // @ts-expect-error the path parameter is required
  await client.call.POST('/cards/{code}/withdraw', { body: { amount: 10 } });
  // @ts-expect-error amount is a number
  await client.call.POST('/cards/{code}/withdraw', { params: { path: { code: 'x' } }, body: { amount: '10' } });
}

// ---- Pagination ------------------------------------------------------------------------------------

expectTypeOf<'/cards'>().toExtend<PaginatedPath>();
expectTypeOf<'/payouts'>().toExtend<PaginatedPath>();
// Not lists: a single resource, and a path without GET.
expectTypeOf<'/cards/{code}'>().not.toExtend<PaginatedPath>();
expectTypeOf<'/cards/{code}/withdraw'>().not.toExtend<PaginatedPath>();
expectTypeOf<PageItem<'/cards'>>().toEqualTypeOf<Card>();
expectTypeOf<PageItem<'/payouts'>>().toEqualTypeOf<Payout>();

async function pages() {
  for await (const card of client.paginate('/cards', { params: { query: { limit: 100 } } })) {
    expectTypeOf(card).toEqualTypeOf<Card>();
  }
  for await (const payout of client.paginate('/payouts')) {
    expectTypeOf(payout).toEqualTypeOf<Payout>();
  }
  // @ts-expect-error GET /cards/{code} is not a list
  client.paginate('/cards/{code}', { params: { path: { code: 'x' } } });
  // @ts-expect-error limit is a number
  client.paginate('/cards', { params: { query: { limit: '100' } } });
}

// ---- Card creation: a physical card needs a shipping address, a virtual one has none ------------------

type CreateCard = components['schemas']['CreateCardRequest'];
const virtualCard: CreateCard = { customer_code: 'c', brand: 'VISA', category: 'virtual', amount: 100 };
const physicalCard: CreateCard = {
  customer_code: 'c',
  brand: 'MASTERCARD',
  category: 'physical',
  amount: 250,
  shipping_address: { street: '12 rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FR' },
};
// @ts-expect-error a physical card without a shipping address
const physicalWithoutAddress: CreateCard = { customer_code: 'c', brand: 'VISA', category: 'physical', amount: 100 };
const virtualWithAddress: CreateCard = {
  customer_code: 'c',
  brand: 'VISA',
  category: 'virtual',
  amount: 100,
  // @ts-expect-error a virtual card has no shipping address
  shipping_address: { street: 'x', city: 'y', postal_code: 'z', country: 'FR' },
};

// ---- Mode --------------------------------------------------------------------------------------------

expectTypeOf(client.mode).toEqualTypeOf<'test' | 'live'>();

export { dataOrThrow, onError, pages, physicalCard, physicalWithoutAddress, rawStyle, virtualCard, virtualWithAddress };
