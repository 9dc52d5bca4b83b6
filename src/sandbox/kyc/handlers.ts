// KYC (tag "KYC"): the hosted link, the status, the identity synchronization after a mismatch. The state machine
// is in ./verification.ts, the rows and the status shape in ./repository.ts, the hosted page in ./page.ts.
import type { Handlers, SandboxCore } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { findCustomer } from '../customers/repository.js';
import { requireActiveCustomer } from '../customers/require.js';
import { KYC_PAGE_PATH } from './page.js';
import { kycStatusOf } from './repository.js';
import { kycVerification } from './verification.js';

export function kyc(core: SandboxCore): Handlers {
  const verification = kycVerification(core);
  const { clock } = core;
  return {
    createKycLink({ account, params, body }) {
      const customer = requireActiveCustomer(core, account.id, params.customerCode);
      const session = verification.createSession(account, customer, body ?? {});
      return {
        data: {
          customer_code: customer.code,
          url: `${core.url}${KYC_PAGE_PATH}/${session.token}`,
          expires_at: clock.iso(session.expires_at),
        },
      };
    },
    getKycStatus({ account, params }) {
      const customer = findCustomer(core, account.id, params.customerCode);
      if (!customer) throw notFound('Customer');
      return { data: kycStatusOf(core, verification.row(account.id, customer.code), customer) };
    },
    synchronizeKycIdentity({ account, params }) {
      const customer = findCustomer(core, account.id, params.customerCode);
      if (!customer) throw notFound('Customer');
      const updated = verification.synchronize(account, customer);
      return {
        data: {
          customer_code: updated.code,
          external_reference: updated.external_reference,
          first_name: updated.first_name,
          last_name: updated.last_name,
          date_of_birth: updated.date_of_birth,
          status: 'active' as const,
        },
      };
    },
  };
}
