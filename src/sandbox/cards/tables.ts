// The cards' tables (DDL): cards, their top-ups and transactions, the reason of a failed top-up, and the
// terminations waiting on the card provider (card.termination_pending sent, card.terminated to follow). The
// closed sets are the contract's; a card's own states (pending, failed, cancelled) are the sandbox's. Each list
// has the index of its filter and order (core/store.ts says why); a card's top-ups and transactions are found
// through the card. A failed top-up's reason refers to its top-up: a snapshot finds the reason's account through it
// (core/snapshot-rows.ts).
import { cardBrandChoiceValues, cardTopUpStatusValues } from '../../../generated/openapi-values.js';
import { sqlSet } from '../core/store.js';

export const TABLES = `
CREATE TABLE IF NOT EXISTS cards (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  product_code TEXT NOT NULL,
  brand TEXT NOT NULL CHECK (brand IN ${sqlSet(cardBrandChoiceValues)}),
  category TEXT NOT NULL CHECK (category IN ('virtual', 'physical')),
  name_on_card TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'active', 'frozen', 'failed', 'cancelled')),
  balance_minor INTEGER NOT NULL CHECK (balance_minor >= 0),
  initial_load_minor INTEGER NOT NULL CHECK (initial_load_minor > 0),
  card_fee_minor INTEGER NOT NULL CHECK (card_fee_minor >= 0),
  service_fee_minor INTEGER NOT NULL CHECK (service_fee_minor >= 0),
  last_four TEXT,
  expiry TEXT,
  pan TEXT,
  cvv TEXT,
  created_at INTEGER NOT NULL
) STRICT;
DROP INDEX IF EXISTS cards_list;
CREATE INDEX IF NOT EXISTS cards_by_time ON cards (account_id, created_at, code);
CREATE TABLE IF NOT EXISTS card_topups (
  id TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  card_code TEXT NOT NULL,
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  fee_minor INTEGER NOT NULL CHECK (fee_minor >= 0),
  status TEXT NOT NULL CHECK (status IN ${sqlSet(cardTopUpStatusValues)}),
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS card_topups_of_card ON card_topups (card_code, status, created_at);
CREATE TABLE IF NOT EXISTS card_transactions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  card_code TEXT NOT NULL,
  type TEXT NOT NULL,
  direction TEXT NOT NULL CHECK (direction IN ('debit', 'credit')),
  status TEXT NOT NULL,
  amount_minor INTEGER NOT NULL CHECK (amount_minor >= 0),
  currency TEXT NOT NULL,
  merchant_name TEXT NOT NULL,
  merchant_city TEXT,
  merchant_country TEXT,
  description TEXT NOT NULL,
  failure_reason TEXT,
  balance_after_minor INTEGER NOT NULL CHECK (balance_after_minor >= 0),
  date INTEGER NOT NULL
) STRICT;
DROP INDEX IF EXISTS card_transactions_list;
CREATE INDEX IF NOT EXISTS card_transactions_by_time ON card_transactions (account_id, card_code, date, id);
CREATE TABLE IF NOT EXISTS card_topup_failures (
  topup_id TEXT PRIMARY KEY REFERENCES card_topups(id),
  reason TEXT NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS card_terminations (
  card_code TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  requested_at INTEGER NOT NULL
) STRICT;
`;
