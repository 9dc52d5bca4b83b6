// Customers (tag "Customers"): create (at least one active webhook endpoint first), list, get, update, activate,
// deactivate. The rows are in ./repository.ts; the check other modules make before they create something or move
// money for a customer is in ./require.ts.
import { randomUUID } from 'node:crypto';
import type { Handlers, SandboxCore } from '../core/context.js';
import { page, pageWindow } from '../core/context.js';
import { notFound, stateError } from '../core/errors.js';
import { EndpointRepository } from '../webhooks/repository.js';
import {
  customerList,
  customerOf,
  findCustomer,
  insertCustomer,
  setCustomerFields,
  setCustomerStatus,
  type CustomerRow,
} from './repository.js';
import { restrictedError } from './require.js';

export function customers(core: SandboxCore): Handlers {
  const { db } = core;
  const endpoints = new EndpointRepository(db);
  const find = (accountId: number, code: string): CustomerRow => {
    const row = findCustomer(core, accountId, code);
    if (!row) throw notFound('Customer');
    return row;
  };
  return {
    createCustomer({ account, body }) {
      if (endpoints.activeCount(account.id) === 0)
        throw stateError('webhook_endpoint_required', 'Register an active webhook endpoint (POST /webhooks) before creating customers.');
      const code = randomUUID();
      insertCustomer(core, {
        code,
        account_id: account.id,
        external_reference: body.external_reference,
        first_name: body.first_name,
        last_name: body.last_name,
        date_of_birth: body.date_of_birth,
        email: body.email ?? null,
        phone: body.phone ?? null,
      });
      return { data: customerOf(core, find(account.id, code)) };
    },
    listCustomers({ account, query }) {
      const [limit, offset] = pageWindow(query);
      const { rows, total } = customerList(core, account.id, query as Parameters<typeof customerList>[2], limit, offset);
      return page(
        rows.map((r) => customerOf(core, r)),
        total,
        query,
      );
    },
    getCustomer({ account, params }) {
      return { data: customerOf(core, find(account.id, params.customerCode)) };
    },
    activateCustomer({ account, params }) {
      const row = find(account.id, params.customerCode);
      if (row.status === 'restricted') throw restrictedError('The customer is restricted; activation does not lift a restriction.');
      setCustomerStatus(core, row.code, 'active');
      return { data: customerOf(core, find(account.id, row.code)) };
    },
    deactivateCustomer({ account, params }) {
      const row = find(account.id, params.customerCode);
      if (row.status === 'restricted') {
        throw restrictedError(
          'A restricted customer cannot be deactivated: lift the restriction with POST /kyc/{customerCode}/synchronize first.',
        );
      }
      setCustomerStatus(core, row.code, 'inactive');
      return { data: customerOf(core, find(account.id, row.code)) };
    },
    updateCustomer({ account, params, body }) {
      const row = find(account.id, params.customerCode);
      const identity = (['first_name', 'last_name', 'date_of_birth'] as const).filter((f) => body[f] !== undefined);
      if (identity.length > 0 && row.verification_level !== 'basic') {
        throw stateError(
          'identity_already_verified',
          `KYC has verified this customer's identity: ${identity.join(', ')} can no longer be changed here (POST /kyc/{customerCode}/synchronize replaces it with the verified one).`,
          undefined,
          {
            fields: identity.map((field) => ({ field, message: 'cannot change once the identity is verified' })),
            current_verification_level: row.verification_level,
          },
        );
      }
      setCustomerFields(core, row.code, body);
      return { data: customerOf(core, find(account.id, row.code)) };
    },
  };
}
