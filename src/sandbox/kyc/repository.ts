// KYC in the store: each customer's verification and the sessions of the hosted page, and the contract shape
// of a customer's KYC status.
import type { components } from '../../../generated/openapi.js';
import type { SandboxCore } from '../core/context.js';
import type { CustomerRow } from '../customers/repository.js';

export type KycStatusValue = components['schemas']['KycStatusValue'];

export interface Identity {
  first_name: string;
  last_name: string;
  date_of_birth: string;
}

export interface KycRow {
  customer_code: string;
  account_id: number;
  kyc_status: KycStatusValue;
  reason: string | null;
  identity_mismatch: number;
  approved_at: number | null;
  verified_identity: string | null;
  updated_at: number;
}

export interface SessionRow {
  token: string;
  account_id: number;
  customer_code: string;
  return_url: string | null;
  locale: string | null;
  status: 'open' | 'submitted' | 'expired' | 'replaced';
  expires_at: number;
  created_at: number;
}

/** The customer's KYC status (`not_started` before any verification). */
export function kycStatusOf(core: SandboxCore, row: KycRow | undefined, customer: CustomerRow): components['schemas']['KycStatus'] {
  return {
    customer_code: customer.code,
    external_reference: customer.external_reference,
    kyc_status: row?.kyc_status ?? 'not_started',
    verification_level: customer.verification_level,
    status: customer.status,
    identity_mismatch: row?.identity_mismatch === 1,
    reason: row?.reason ?? null,
    approved_at: row?.approved_at != null ? core.clock.iso(row.approved_at) : null,
  };
}
