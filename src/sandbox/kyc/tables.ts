// KYC's tables (DDL): each customer's verification, and the sessions of the hosted page (./page.ts). The
// KYC statuses are the contract's; a session's states are the sandbox's. A customer's open session is found
// through its customer, not by reading every session of every account.
import { kycStatusValueOneOf0Values, kycStatusValueOneOf1Values } from '../../../generated/openapi-values.js';
import { sqlSet } from '../core/store.js';

export const TABLES = `
CREATE TABLE IF NOT EXISTS kyc_verifications (
  customer_code TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  kyc_status TEXT NOT NULL CHECK (kyc_status IN ${sqlSet([...kycStatusValueOneOf0Values, ...kycStatusValueOneOf1Values])}),
  reason TEXT,
  identity_mismatch INTEGER NOT NULL DEFAULT 0 CHECK (identity_mismatch IN (0, 1)),
  approved_at INTEGER,
  verified_identity TEXT,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS kyc_sessions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  token TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  return_url TEXT,
  locale TEXT,
  status TEXT NOT NULL CHECK (status IN ('open', 'submitted', 'expired', 'replaced')),
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS kyc_sessions_of_customer ON kyc_sessions (customer_code);
`;
