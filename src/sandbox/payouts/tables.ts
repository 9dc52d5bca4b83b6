// The payouts' tables (DDL): beneficiaries (soft deleted) and payouts. A quote is a payouts row in the
// sandbox's own status `quote` until it is confirmed; the other statuses and the rails are the contract's. Each
// list has the index of its filter and order (core/store.ts says why).
import { payoutStatusValues } from '../../../generated/openapi-values.js';
import { constValues } from '../core/contract.js';
import { sqlSet } from '../core/store.js';

export const TABLES = `
CREATE TABLE IF NOT EXISTS beneficiaries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  rail TEXT NOT NULL CHECK (rail IN ${sqlSet(constValues('PayoutRail'))}),
  body TEXT NOT NULL,
  deleted_at INTEGER,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS beneficiaries_list ON beneficiaries (account_id, created_at, code);
CREATE TABLE IF NOT EXISTS payouts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  beneficiary_code TEXT NOT NULL,
  reference TEXT NOT NULL,
  rail TEXT NOT NULL CHECK (rail IN ${sqlSet(constValues('PayoutRail'))}),
  status TEXT NOT NULL CHECK (status IN ${sqlSet(['quote', ...payoutStatusValues])}),
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  fee_minor INTEGER NOT NULL CHECK (fee_minor >= 0),
  received_minor INTEGER NOT NULL CHECK (received_minor >= 0),
  amount_eur_minor INTEGER NOT NULL CHECK (amount_eur_minor >= 0),
  balance_type TEXT NOT NULL,
  failure_reason TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  confirmed_at INTEGER,
  sent_at INTEGER,
  completed_at INTEGER,
  refunded_at INTEGER
) STRICT;
CREATE INDEX IF NOT EXISTS payouts_list ON payouts (account_id, created_at, code);
`;
