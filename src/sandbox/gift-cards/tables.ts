// The gift card orders' table (DDL; the catalogue is ./catalogue.ts). Its statuses are the contract's; its index
// is the list's filter and order (core/store.ts says why).
import { giftCardOrderStatusValues } from '../../../generated/openapi-values.js';
import { sqlSet } from '../core/store.js';

export const TABLES = `
CREATE TABLE IF NOT EXISTS gift_card_orders (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  product_id TEXT NOT NULL,
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 100),
  debited_minor INTEGER NOT NULL CHECK (debited_minor > 0),
  status TEXT NOT NULL CHECK (status IN ${sqlSet(giftCardOrderStatusValues)}),
  redemptions TEXT,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS gift_card_orders_list ON gift_card_orders (account_id, created_at, code);
`;
