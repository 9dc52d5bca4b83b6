// The wallets' tables (DDL): wallets (amounts in micro units) and their withdrawals. The currencies are the
// contract's; a withdrawal's states are the sandbox's. Each list has the index of its filter and order
// (core/store.ts says why).
import { walletCurrencyValues } from '../../../generated/openapi-values.js';
import { sqlSet } from '../core/store.js';

export const TABLES = `
CREATE TABLE IF NOT EXISTS wallets (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  currency TEXT NOT NULL CHECK (currency IN ${sqlSet(walletCurrencyValues)}),
  network TEXT NOT NULL,
  address TEXT NOT NULL,
  balance_micro INTEGER NOT NULL CHECK (balance_micro >= 0),
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS wallets_list ON wallets (account_id, created_at, id);
CREATE TABLE IF NOT EXISTS wallet_withdrawals (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  wallet_id TEXT NOT NULL,
  amount_micro INTEGER NOT NULL CHECK (amount_micro > 0),
  commission_micro INTEGER NOT NULL CHECK (commission_micro >= 0),
  network_fee_micro INTEGER NOT NULL CHECK (network_fee_micro >= 0),
  to_address TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
  tx_id TEXT NOT NULL,
  failure_reason TEXT,
  requested_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS wallet_withdrawals_list ON wallet_withdrawals (account_id, requested_at, code);
`;
