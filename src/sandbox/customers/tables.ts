// The customers' table (DDL). Its closed sets are the contract's (generated value lists). The list's index is
// the account's rows in the contract's order (core/store.ts says why); its filters are read from those rows.
import { customerStatusOneOf0Values, verificationLevelValues } from '../../../generated/openapi-values.js';
import { constValues } from '../core/contract.js';
import { sqlSet } from '../core/store.js';

export const TABLES = `
CREATE TABLE IF NOT EXISTS customers (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  external_reference TEXT NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  date_of_birth TEXT NOT NULL,
  email TEXT,
  phone TEXT,
  status TEXT NOT NULL CHECK (status IN ${sqlSet([...customerStatusOneOf0Values, ...constValues('CustomerStatus')])}),
  restriction_reason TEXT,
  verification_level TEXT NOT NULL CHECK (verification_level IN ${sqlSet(verificationLevelValues)}),
  created_at INTEGER NOT NULL
) STRICT;
DROP INDEX IF EXISTS customers_list;
CREATE INDEX IF NOT EXISTS customers_by_time ON customers (account_id, created_at, code);
`;
