// Virtual accounts (tag "Virtual accounts"): EUR bank accounts for customers at the `full` verification
// level. Opening one is billed to the 'Ops Others' balance (./fees.ts). Deposits and outgoing transfers come
// from the simulation API (./rules.ts) and move the account's balance (minor units of its currency).
import { randomUUID } from 'node:crypto';
import type { Handlers, SandboxCore } from '../core/context.js';
import { page } from '../core/context.js';
import { stateError, validationError } from '../core/errors.js';
import { customerPage, requireActiveCustomer } from '../customers/require.js';
import { VIRTUAL_ACCOUNT_FEE_MINOR } from './fees.js';
import { findVirtualAccount, insertVirtualAccount, virtualAccountOf, type VirtualAccountRow } from './repository.js';

export function virtualAccounts(core: SandboxCore): Handlers {
  const { clock, ledger } = core;
  return {
    createVirtualAccount({ account, body }) {
      const customer = requireActiveCustomer(core, account.id, body.customer_code);
      if (body.currency !== 'EUR')
        throw validationError('The sandbox opens EUR virtual accounts only.', [{ field: 'currency', message: 'must be EUR' }]);
      if (customer.verification_level !== 'full') {
        throw stateError(
          'verification_level_too_low',
          'A virtual account needs the customer at the full verification level (KYC and proof of address approved).',
          undefined,
          {
            current_verification_level: customer.verification_level,
            required_verification_level: 'full',
          },
        );
      }
      const code = randomUUID();
      ledger.debit(account, 'others', VIRTUAL_ACCOUNT_FEE_MINOR, {
        reason: 'virtual_account_opening',
        description: `Opening of virtual account ${code}`,
        customerCode: customer.code,
        eventFields: { product: 'virtual_account' },
      });
      insertVirtualAccount(core, {
        code,
        account_id: account.id,
        customer_code: customer.code,
        currency: body.currency,
        account_holder_name: `${customer.first_name} ${customer.last_name}`,
      });
      return { data: virtualAccountOf(clock, findVirtualAccount(core, account, code)) };
    },

    listVirtualAccounts({ account, query }) {
      const { rows, total } = customerPage<VirtualAccountRow>(core, account.id, 'virtual_accounts', 'code', query);
      return page(
        rows.map((r) => virtualAccountOf(clock, r)),
        total,
        query,
      );
    },

    getVirtualAccount({ account, params }) {
      return { data: virtualAccountOf(clock, findVirtualAccount(core, account, params.code)) };
    },
  };
}
