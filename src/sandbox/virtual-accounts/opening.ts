// Opening a virtual account: EUR only, for an active customer at the `full` verification level, billed to the
// 'Ops Others' balance (./fees.ts).
import { randomUUID } from 'node:crypto';
import type { Account } from '../core/accounts.js';
import type { Call, SandboxCore } from '../core/context.js';
import { stateError, validationError } from '../core/errors.js';
import { requireActiveCustomer } from '../customers/require.js';
import { VIRTUAL_ACCOUNT_FEE_MINOR } from './fees.js';
import { insertVirtualAccount } from './repository.js';

/** Opens the customer's virtual account; returns its code. */
export function openVirtualAccount(core: SandboxCore, account: Account, body: Call<'createVirtualAccount'>['body']): string {
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
  core.ledger.debit(account, 'others', VIRTUAL_ACCOUNT_FEE_MINOR, {
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
  return code;
}
