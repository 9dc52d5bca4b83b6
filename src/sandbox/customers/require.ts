// The customer an operation acts for, and the lists filtered by `customer_code`. One guard, for every request
// that creates something for a customer or moves money for it (the list in the description of
// `POST /customers/{customerCode}/deactivate`): the customer must exist (404), not be restricted (403
// ACCOUNT_RESTRICTED, `customer_restricted`) and not be inactive (422 `customer_not_active`).
import { pageWindow, type SandboxCore } from '../core/context.js';
import { type ApiError, apiError, notFound, stateError } from '../core/errors.js';
import { findCustomer, rowsByCustomer, type CustomerRow } from './repository.js';

/** 403 ACCOUNT_RESTRICTED (`customer_restricted`) for a restricted customer. */
export function restrictedError(message = 'The customer is restricted.'): ApiError {
  return apiError('ACCOUNT_RESTRICTED', message, { reason: 'customer_restricted', current_status: 'restricted' });
}

export function requireActiveCustomer(core: SandboxCore, accountId: number, code: string): CustomerRow {
  const customer = findCustomer(core, accountId, code);
  if (!customer) throw notFound('Customer');
  if (customer.status === 'restricted') throw restrictedError();
  if (customer.status === 'inactive') {
    throw stateError(
      'customer_not_active',
      'The customer is inactive: activate it first (POST /customers/{customerCode}/activate).',
      'inactive',
    );
  }
  return customer;
}

/** 404 when a list's `customer_code` filter names no customer of the account. */
export function checkCustomerFilter(core: SandboxCore, accountId: number, code: string | undefined): void {
  if (code !== undefined && !findCustomer(core, accountId, code)) throw notFound('Customer');
}

/**
 * One page of an account's rows of `table`, most recent first (`created_at`, then `key` descending), only
 * the customer's when the query has `customer_code` (404 when it names no customer of the account).
 */
export function customerPage<Row>(
  core: SandboxCore,
  accountId: number,
  table: string,
  key: string,
  query: { customer_code?: string; page?: number; limit?: number },
): { rows: Row[]; total: number } {
  checkCustomerFilter(core, accountId, query.customer_code);
  const [limit, offset] = pageWindow(query);
  return rowsByCustomer<Row>(core, table, key, accountId, query.customer_code, limit, offset);
}
