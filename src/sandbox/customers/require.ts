// The customer an operation acts for: it must exist (404) and not be restricted (403 ACCOUNT_RESTRICTED).
import type { SandboxCore } from '../core/context.js';
import { ApiError, notFound } from '../core/errors.js';
import { findCustomer, type CustomerRow } from './handlers.js';

export function usableCustomer(core: SandboxCore, accountId: number, code: string): CustomerRow {
  const customer = findCustomer(core, accountId, code);
  if (!customer) throw notFound('Customer');
  if (customer.status === 'restricted') {
    throw new ApiError(403, 'ACCOUNT_RESTRICTED', 'The customer is restricted.', { reason: 'customer_restricted', current_status: 'restricted' });
  }
  return customer;
}

/** 404 when a list's `customer_code` filter names no customer of the account. */
export function checkCustomerFilter(core: SandboxCore, accountId: number, code: string | undefined): void {
  if (code !== undefined && !findCustomer(core, accountId, code)) throw notFound('Customer');
}
