// Customers (tag "Customers"): create (at least one active webhook endpoint first), list, get, update, activate,
// deactivate. Their changes are in ./rules.ts, the rows in ./repository.ts; the check other modules make before
// they create something or move money for a customer is in ./require.ts.
import type { Handlers, SandboxCore } from '../core/context.js';
import { page, pageWindow } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { customerList, customerOf, findCustomer, type CustomerRow } from './repository.js';
import { activateCustomer, createCustomer, deactivateCustomer, updateCustomer } from './rules.js';

export function customers(core: SandboxCore): Handlers {
  const find = (accountId: number, code: string): CustomerRow => {
    const row = findCustomer(core, accountId, code);
    if (!row) throw notFound('Customer');
    return row;
  };
  return {
    createCustomer({ account, body }) {
      const code = createCustomer(core, account, body);
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
      activateCustomer(core, row);
      return { data: customerOf(core, find(account.id, row.code)) };
    },
    deactivateCustomer({ account, params }) {
      const row = find(account.id, params.customerCode);
      deactivateCustomer(core, row);
      return { data: customerOf(core, find(account.id, row.code)) };
    },
    updateCustomer({ account, params, body }) {
      const row = find(account.id, params.customerCode);
      updateCustomer(core, row, body);
      return { data: customerOf(core, find(account.id, row.code)) };
    },
  };
}
