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

export function kycVerificationRow(core: SandboxCore, accountId: number, customerCode: string): KycRow | undefined {
  return core.db.get<KycRow>('SELECT * FROM kyc_verifications WHERE account_id = ? AND customer_code = ?', accountId, customerCode);
}

/** What a verification's outcome writes beside its status. */
export interface VerificationFields {
  reason?: string | null;
  mismatch?: boolean;
  approvedAt?: number | null;
  verified?: Identity | null;
}

/** The customer's verification, made or replaced. */
export function saveKycVerification(
  core: SandboxCore,
  accountId: number,
  customerCode: string,
  status: KycStatusValue,
  fields: VerificationFields,
  now: number,
): void {
  core.db.run(
    `INSERT INTO kyc_verifications (customer_code, account_id, kyc_status, reason, identity_mismatch, approved_at, verified_identity, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (customer_code) DO UPDATE SET kyc_status = excluded.kyc_status, reason = excluded.reason, identity_mismatch = excluded.identity_mismatch,
       approved_at = excluded.approved_at, verified_identity = excluded.verified_identity, updated_at = excluded.updated_at`,
    customerCode,
    accountId,
    status,
    fields.reason ?? null,
    fields.mismatch ? 1 : 0,
    fields.approvedAt ?? null,
    fields.verified ? JSON.stringify(fields.verified) : null,
    now,
  );
}

export function clearIdentityMismatch(core: SandboxCore, customerCode: string): void {
  core.db.run('UPDATE kyc_verifications SET identity_mismatch = 0 WHERE customer_code = ?', customerCode);
}

export function kycSessionByToken(core: SandboxCore, token: string): SessionRow | undefined {
  return core.db.get<SessionRow>('SELECT * FROM kyc_sessions WHERE token = ?', token);
}

/** The customer's latest open session. */
export function openKycSession(core: SandboxCore, accountId: number, customerCode: string): SessionRow | undefined {
  return core.db.get<SessionRow>(
    "SELECT * FROM kyc_sessions WHERE account_id = ? AND customer_code = ? AND status = 'open' ORDER BY seq DESC LIMIT 1",
    accountId,
    customerCode,
  );
}

/** Marks the customer's open sessions replaced (a new link replaces them). */
export function replaceOpenKycSessions(core: SandboxCore, accountId: number, customerCode: string): void {
  core.db.run(
    "UPDATE kyc_sessions SET status = 'replaced' WHERE account_id = ? AND customer_code = ? AND status = 'open'",
    accountId,
    customerCode,
  );
}

export function insertKycSession(core: SandboxCore, session: SessionRow): void {
  core.db.run(
    'INSERT INTO kyc_sessions (token, account_id, customer_code, return_url, locale, status, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    session.token,
    session.account_id,
    session.customer_code,
    session.return_url,
    session.locale,
    session.status,
    session.expires_at,
    session.created_at,
  );
}

export function setKycSessionStatus(core: SandboxCore, token: string, status: SessionRow['status']): void {
  core.db.run('UPDATE kyc_sessions SET status = ? WHERE token = ?', status, token);
}
