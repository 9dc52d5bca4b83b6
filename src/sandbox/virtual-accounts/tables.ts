// The virtual accounts' table (DDL): balance in minor units of the account's currency. Its statuses are the contract's;
// its index is the list's filter and order (core/store.ts says why).
import { virtualAccountStatusValues } from '../../../generated/openapi-values.js';
import { sqlSet } from '../core/store.js';

export const TABLES = `
CREATE TABLE IF NOT EXISTS virtual_accounts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  currency TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ${sqlSet(virtualAccountStatusValues)}),
  iban TEXT,
  bic_swift TEXT,
  bank_name TEXT,
  account_holder_name TEXT NOT NULL,
  balance_minor INTEGER NOT NULL CHECK (balance_minor >= 0),
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS virtual_accounts_list ON virtual_accounts (account_id, created_at, code);
`;
