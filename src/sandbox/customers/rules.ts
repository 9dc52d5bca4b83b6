// A customer's own changes: created once the account has an active webhook endpoint (its events need one),
// activated or deactivated unless restricted (a restriction is lifted by KYC's synchronize), its declared
// identity changed only while KYC has not verified it.
import { randomUUID } from 'node:crypto';
import type { Account } from '../core/accounts.js';
import type { Call, SandboxCore } from '../core/context.js';
import { stateError } from '../core/errors.js';
import { EndpointRepository } from '../webhook-endpoints/repository.js';
import { insertCustomer, setCustomerFields, setCustomerStatus, type CustomerRow } from './repository.js';
import { restrictedError } from './require.js';

/** A new customer of the account; returns its code. */
export function createCustomer(core: SandboxCore, account: Account, body: Call<'createCustomer'>['body']): string {
  if (new EndpointRepository(core.db).activeCount(account.id) === 0)
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
  return code;
}

export function activateCustomer(core: SandboxCore, customer: CustomerRow): void {
  if (customer.status === 'restricted') throw restrictedError('The customer is restricted; activation does not lift a restriction.');
  setCustomerStatus(core, customer.code, 'active');
}

export function deactivateCustomer(core: SandboxCore, customer: CustomerRow): void {
  if (customer.status === 'restricted') {
    throw restrictedError(
      'A restricted customer cannot be deactivated: lift the restriction with POST /kyc/{customerCode}/synchronize first.',
    );
  }
  setCustomerStatus(core, customer.code, 'inactive');
}

/** Changes contact details and, at level basic only, the declared identity. */
export function updateCustomer(core: SandboxCore, customer: CustomerRow, body: Call<'updateCustomer'>['body']): void {
  const identity = (['first_name', 'last_name', 'date_of_birth'] as const).filter((f) => body[f] !== undefined);
  if (identity.length > 0 && customer.verification_level !== 'basic') {
    throw stateError(
      'identity_already_verified',
      `KYC has verified this customer's identity: ${identity.join(', ')} can no longer be changed here (POST /kyc/{customerCode}/synchronize replaces it with the verified one).`,
      undefined,
      {
        fields: identity.map((field) => ({ field, message: 'cannot change once the identity is verified' })),
        current_verification_level: customer.verification_level,
      },
    );
  }
  setCustomerFields(core, customer.code, body);
}
