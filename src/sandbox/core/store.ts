// The sandbox's storage: a small SQL interface (run / get / all / transaction) that the repositories of the
// product modules use, and its node:sqlite implementation (in memory by default, a file with --db, WAL,
// STRICT tables, money in INTEGER minor units with CHECK constraints). It is synchronous: a transaction
// never awaits, so a state change and the events it causes commit together or not at all.
import { DatabaseSync, type SQLInputValue } from './sqlite.js';
import {
  balanceTransactionDirectionValues,
  cardBrandChoiceValues,
  cardTopUpStatusValues,
  customerStatusOneOf0Values,
  giftCardOrderStatusValues,
  kycStatusValueOneOf0Values,
  kycStatusValueOneOf1Values,
  modeValues,
  payoutStatusValues,
  verificationLevelValues,
  virtualAccountStatusValues,
  walletCurrencyValues,
  webhookDeliveryStatusValues,
} from '../../../generated/openapi-values.js';
import { planValues } from '../../../generated/sandbox-values.js';
import { constValues } from './contract.js';

export type SqlValue = SQLInputValue;
export type Row = Record<string, SqlValue>;

/** What the repositories need from an SQL engine. Another engine can implement it. */
export interface Db {
  run(sql: string, ...params: SqlValue[]): { changes: number };
  get<T = Row>(sql: string, ...params: SqlValue[]): T | undefined;
  all<T = Row>(sql: string, ...params: SqlValue[]): T[];
  /** Runs `fn` in one transaction (nested calls join the outer one). `fn` must not await. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

/** `('a', 'b')`: the SQL list of a closed set's values (from the contract's generated value lists). */
const oneOf = (values: readonly string[]): string => `(${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ')})`;

// The closed sets are the contract's (generated/*-values.js); the sandbox's own states (a card's, a KYC session's,
// a quote before it is a payout) are listed here, where their tables are.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS clock (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  now_ms INTEGER NOT NULL,
  offset_ms INTEGER NOT NULL,
  frozen INTEGER NOT NULL CHECK (frozen IN (0, 1))
) STRICT;
CREATE TABLE IF NOT EXISTS accounts (
  id INTEGER PRIMARY KEY,
  api_key TEXT NOT NULL UNIQUE,
  mode TEXT NOT NULL CHECK (mode IN ${oneOf(modeValues)}),
  plan TEXT NOT NULL CHECK (plan IN ${oneOf(planValues)}),
  revoked INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1)),
  allowed_ips TEXT NOT NULL,
  rate_limit INTEGER CHECK (rate_limit IS NULL OR rate_limit > 0),
  manual INTEGER NOT NULL DEFAULT 0 CHECK (manual IN (0, 1)),
  created_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS balances (
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  type TEXT NOT NULL,
  minor INTEGER NOT NULL,
  low_threshold_minor INTEGER NOT NULL CHECK (low_threshold_minor >= 0),
  negative_since INTEGER,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, type),
  CHECK ((minor < 0) = (negative_since IS NOT NULL))
) STRICT;
CREATE TABLE IF NOT EXISTS balance_transactions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  balance_type TEXT NOT NULL,
  direction TEXT NOT NULL CHECK (direction IN ${oneOf(balanceTransactionDirectionValues)}),
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  balance_after_minor INTEGER NOT NULL,
  reason TEXT NOT NULL,
  description TEXT NOT NULL,
  customer_code TEXT,
  created_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS usage (
  account_id INTEGER NOT NULL,
  period TEXT NOT NULL,
  metric TEXT NOT NULL,
  value INTEGER NOT NULL CHECK (value >= 0),
  PRIMARY KEY (account_id, period, metric)
) STRICT;
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
  status TEXT NOT NULL CHECK (status IN ${oneOf([...customerStatusOneOf0Values, ...constValues('CustomerStatus')])}),
  restriction_reason TEXT,
  verification_level TEXT NOT NULL CHECK (verification_level IN ${oneOf(verificationLevelValues)}),
  created_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS cards (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  product_code TEXT NOT NULL,
  brand TEXT NOT NULL CHECK (brand IN ${oneOf(cardBrandChoiceValues)}),
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
CREATE TABLE IF NOT EXISTS card_topups (
  id TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  card_code TEXT NOT NULL,
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  fee_minor INTEGER NOT NULL CHECK (fee_minor >= 0),
  status TEXT NOT NULL CHECK (status IN ${oneOf(cardTopUpStatusValues)}),
  created_at INTEGER NOT NULL
) STRICT;
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
CREATE TABLE IF NOT EXISTS webhook_endpoints (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  secret TEXT NOT NULL,
  events TEXT NOT NULL,
  description TEXT,
  is_active INTEGER NOT NULL CHECK (is_active IN (0, 1)),
  consecutive_failures INTEGER NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
  last_success_at INTEGER,
  last_failure_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  type TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  endpoint_code TEXT NOT NULL,
  event_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ${oneOf(webhookDeliveryStatusValues)}),
  response_code INTEGER,
  attempt INTEGER NOT NULL CHECK (attempt >= 0),
  duration_ms INTEGER,
  idempotency_key TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_attempt_at INTEGER,
  next_retry_at INTEGER
) STRICT;
CREATE TABLE IF NOT EXISTS jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_at INTEGER NOT NULL,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS jobs_due ON jobs (run_at, id);
CREATE TABLE IF NOT EXISTS idempotency_keys (
  account_id INTEGER NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, key)
) STRICT;
-- KYC and proof of address (src/sandbox/kyc, src/sandbox/poa)
CREATE TABLE IF NOT EXISTS kyc_verifications (
  customer_code TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  kyc_status TEXT NOT NULL CHECK (kyc_status IN ${oneOf([...kycStatusValueOneOf0Values, ...kycStatusValueOneOf1Values])}),
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
CREATE TABLE IF NOT EXISTS poa_documents (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  document_name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size_bytes INTEGER NOT NULL CHECK (size_bytes > 0),
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  rejection_reason TEXT,
  approved_at INTEGER,
  created_at INTEGER NOT NULL
) STRICT;

-- Money products (wallets, virtual accounts, gift cards, payouts): branch sandbox-money.
CREATE TABLE IF NOT EXISTS wallets (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  currency TEXT NOT NULL CHECK (currency IN ${oneOf(walletCurrencyValues)}),
  network TEXT NOT NULL,
  address TEXT NOT NULL,
  balance_micro INTEGER NOT NULL CHECK (balance_micro >= 0),
  created_at INTEGER NOT NULL
) STRICT;
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
CREATE TABLE IF NOT EXISTS virtual_accounts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  currency TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ${oneOf(virtualAccountStatusValues)}),
  iban TEXT,
  bic_swift TEXT,
  bank_name TEXT,
  account_holder_name TEXT NOT NULL,
  balance_minor INTEGER NOT NULL CHECK (balance_minor >= 0),
  created_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS gift_card_orders (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  product_id TEXT NOT NULL,
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 100),
  debited_minor INTEGER NOT NULL CHECK (debited_minor > 0),
  status TEXT NOT NULL CHECK (status IN ${oneOf(giftCardOrderStatusValues)}),
  redemptions TEXT,
  created_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS beneficiaries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  rail TEXT NOT NULL CHECK (rail IN ${oneOf(constValues('PayoutRail'))}),
  body TEXT NOT NULL,
  deleted_at INTEGER,
  created_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS payouts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  beneficiary_code TEXT NOT NULL,
  reference TEXT NOT NULL,
  rail TEXT NOT NULL CHECK (rail IN ${oneOf(constValues('PayoutRail'))}),
  status TEXT NOT NULL CHECK (status IN ${oneOf(['quote', ...payoutStatusValues])}),
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
CREATE TABLE IF NOT EXISTS card_topup_failures (
  topup_id TEXT PRIMARY KEY,
  reason TEXT NOT NULL
) STRICT;
-- Terminations waiting on the card provider (card.termination_pending sent, card.terminated to follow).
CREATE TABLE IF NOT EXISTS card_terminations (
  card_code TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  requested_at INTEGER NOT NULL
) STRICT;
-- End of the money products.
-- Product access of an account whose subscription lists its products (src/sandbox/core/products.ts).
CREATE TABLE IF NOT EXISTS account_products (
  account_id INTEGER PRIMARY KEY REFERENCES accounts(id),
  products TEXT NOT NULL
) STRICT;
`;

/**
 * A bare `LIMIT ?` or `OFFSET ?`. SQLite plans a statement for the values bound there and re-prepares it
 * whenever they are bound again, which node:sqlite does on every call (about 8 µs for a `SELECT *` of a page,
 * several times the query itself). Bound as an expression, `CAST(? AS INTEGER)`, they are plain values.
 */
const BARE_LIMIT = /\b(LIMIT|OFFSET) \?/g;

/** The SQL node:sqlite prepares for `sql`: the same statement, with LIMIT and OFFSET values bound as expressions. */
export const preparedSql = (sql: string): string => sql.replace(BARE_LIMIT, '$1 CAST(? AS INTEGER)');

type Statement = ReturnType<DatabaseSync['prepare']>;

export class SqliteDb implements Db {
  private readonly db: DatabaseSync;
  private depth = 0;
  private readonly statements = new Map<string, Statement>();
  private readonly begin: Statement;
  private readonly commit: Statement;
  private readonly rollback: Statement;

  /** `file` undefined or ':memory:' keeps everything in memory. */
  constructor(file?: string) {
    this.db = new DatabaseSync(file ?? ':memory:');
    if (file && file !== ':memory:') {
      this.db.exec('PRAGMA journal_mode = WAL');
      this.db.exec('PRAGMA synchronous = NORMAL');
    }
    this.db.exec('PRAGMA foreign_keys = ON');
    this.db.exec(SCHEMA);
    this.begin = this.db.prepare('BEGIN IMMEDIATE');
    this.commit = this.db.prepare('COMMIT');
    this.rollback = this.db.prepare('ROLLBACK');
  }

  private statement(sql: string): Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(preparedSql(sql));
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  run(sql: string, ...params: SqlValue[]): { changes: number } {
    const result = this.statement(sql).run(...params);
    return { changes: Number(result.changes) };
  }

  get<T = Row>(sql: string, ...params: SqlValue[]): T | undefined {
    return this.statement(sql).get(...params) as T | undefined;
  }

  all<T = Row>(sql: string, ...params: SqlValue[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  transaction<T>(fn: () => T): T {
    if (this.depth > 0) {
      this.depth++;
      try {
        return fn();
      } finally {
        this.depth--;
      }
    }
    this.begin.run();
    this.depth = 1;
    try {
      const result = fn();
      if (result instanceof Promise) throw new Error('a transaction must not await');
      this.commit.run();
      return result;
    } catch (error) {
      this.rollback.run();
      throw error;
    } finally {
      this.depth = 0;
    }
  }

  close(): void {
    this.db.close();
  }
}
