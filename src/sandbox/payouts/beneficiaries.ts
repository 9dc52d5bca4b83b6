// A new beneficiary: what the contract shows of the bank account a request gives (numbers masked, a SEPA
// IBAN's BIC found or required, an ACH account checking by default), kept for the payouts that name it.
import { randomUUID } from 'node:crypto';
import type { Account } from '../core/accounts.js';
import type { Call, SandboxCore } from '../core/context.js';
import { validationError } from '../core/errors.js';
import { requireActiveCustomer } from '../customers/require.js';
import { SEPA_COUNTRIES } from './fees.js';
import { insertBeneficiary, mask, type Beneficiary } from './repository.js';

type BeneficiaryRequest = Call<'createBeneficiary'>['body'];
type BeneficiaryView = Omit<Beneficiary, 'code' | 'customer_code' | 'rail' | 'created_at'>;

/** What the contract shows of the requested bank account; a SEPA IBAN whose bank is not found needs its BIC. */
function beneficiaryView(body: BeneficiaryRequest): BeneficiaryView {
  const address = { state_province: '', ...body.address };
  if (body.rail === 'sepa') {
    const country = body.iban.slice(0, 2);
    if (!body.bic_swift && !SEPA_COUNTRIES.has(country)) {
      throw validationError('The bank of this IBAN cannot be found: send its BIC in bic_swift.', [
        { field: 'bic_swift', message: 'is required for this IBAN' },
      ]);
    }
    return {
      type: body.type,
      name: body.name,
      bank_name: body.bank_name,
      iban_masked: mask(body.iban, 4),
      bic_swift: body.bic_swift ?? `SNDB${country}PP`,
      account_number_masked: null,
      routing_number: null,
      account_type: null,
      address,
    };
  }
  return {
    type: body.type,
    name: body.name,
    bank_name: body.bank_name,
    iban_masked: null,
    bic_swift: null,
    account_number_masked: mask(body.account_number, 0),
    routing_number: body.routing_number,
    account_type: body.account_type ?? 'checking',
    address,
  };
}

/** Adds a beneficiary of an active customer of the account; returns its code. */
export function createBeneficiary(core: SandboxCore, account: Account, body: BeneficiaryRequest): string {
  const customer = requireActiveCustomer(core, account.id, body.customer_code);
  const view = beneficiaryView(body);
  const code = randomUUID();
  insertBeneficiary(core, { code, account_id: account.id, customer_code: customer.code, rail: body.rail }, view);
  return code;
}
