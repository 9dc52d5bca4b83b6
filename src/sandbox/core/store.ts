// The sandbox's storage: a small SQL interface (run / get / all / transaction) that the repositories of the
// product modules use, and its node:sqlite implementation (in memory by default, a file with --db, WAL,
// STRICT tables, money in INTEGER minor units with CHECK constraints). It is synchronous: a transaction
// never awaits, so a state change and the events it causes commit together or not at all. The tables here are
// the core's (the clocks, one per account, with the single `clock` of a file made before read once into them;
// accounts and their ops balances, usage, product access, the events, their webhook endpoints and deliveries,
// jobs, idempotency); each product module brings its own (its tables.ts).
import fs from 'node:fs';
import { DB_FILE_MODE } from './bounds.js';
import { DatabaseSync, type SQLInputValue } from './sqlite.js';
import { balanceTransactionDirectionValues, modeValues, webhookDeliveryStatusValues } from '../../../generated/openapi-values.js';
import { planValues } from '../../../generated/sandbox-values.js';

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
export const sqlSet = (values: readonly string[]): string => `(${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ')})`;

// The closed sets are the contract's (generated/*-values.js). The webhook endpoints are here, beside the events:
// the outbox fans each event out to them and the delivery keeps their health.
//
// Every list reads one account's rows (one endpoint's, one balance's) in the order the list gives them, and
// its index holds exactly that: the filter's columns, then the order's (the contract's: the time field, then
// the tie-break field each list's description names; an index of an earlier order is dropped). Without it a
// list scans the rows of every account and sorts them, and its cost grows with the whole database rather than with the account (tests/sandbox/list-plans.test.ts reads
// the plans). Deleting an endpoint finds its pending deliveries through the deliveries' index too.
const CORE_TABLES = `
CREATE TABLE IF NOT EXISTS clock (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  now_ms INTEGER NOT NULL,
  offset_ms INTEGER NOT NULL,
  frozen INTEGER NOT NULL CHECK (frozen IN (0, 1))
) STRICT;
CREATE TABLE IF NOT EXISTS clocks (
  account_id INTEGER PRIMARY KEY,
  now_ms INTEGER NOT NULL,
  offset_ms INTEGER NOT NULL,
  frozen INTEGER NOT NULL CHECK (frozen IN (0, 1))
) STRICT;
INSERT OR IGNORE INTO clocks (account_id, now_ms, offset_ms, frozen) SELECT 0, now_ms, offset_ms, frozen FROM clock WHERE id = 1;
CREATE TABLE IF NOT EXISTS accounts (
  id INTEGER PRIMARY KEY,
  api_key TEXT NOT NULL UNIQUE,
  mode TEXT NOT NULL CHECK (mode IN ${sqlSet(modeValues)}),
  plan TEXT NOT NULL CHECK (plan IN ${sqlSet(planValues)}),
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
  direction TEXT NOT NULL CHECK (direction IN ${sqlSet(balanceTransactionDirectionValues)}),
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  balance_after_minor INTEGER NOT NULL,
  reason TEXT NOT NULL,
  description TEXT NOT NULL,
  customer_code TEXT,
  created_at INTEGER NOT NULL
) STRICT;
DROP INDEX IF EXISTS balance_transactions_list;
CREATE INDEX IF NOT EXISTS balance_transactions_by_time ON balance_transactions (account_id, balance_type, created_at, id);
CREATE TABLE IF NOT EXISTS usage (
  account_id INTEGER NOT NULL,
  period TEXT NOT NULL,
  metric TEXT NOT NULL,
  value INTEGER NOT NULL CHECK (value >= 0),
  PRIMARY KEY (account_id, period, metric)
) STRICT;
CREATE TABLE IF NOT EXISTS account_products (
  account_id INTEGER PRIMARY KEY REFERENCES accounts(id),
  products TEXT NOT NULL
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
DROP INDEX IF EXISTS webhook_endpoints_list;
CREATE INDEX IF NOT EXISTS webhook_endpoints_by_time ON webhook_endpoints (account_id, created_at, code);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  type TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS events_list ON events (account_id, created_at, id);
CREATE TABLE IF NOT EXISTS deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  endpoint_code TEXT NOT NULL,
  event_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ${sqlSet(webhookDeliveryStatusValues)}),
  response_code INTEGER,
  failure_reason TEXT,
  attempt INTEGER NOT NULL CHECK (attempt >= 0),
  duration_ms INTEGER,
  idempotency_key TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_attempt_at INTEGER,
  next_retry_at INTEGER
) STRICT;
DROP INDEX IF EXISTS deliveries_list;
CREATE INDEX IF NOT EXISTS deliveries_by_time ON deliveries (account_id, endpoint_code, created_at, code);
CREATE TABLE IF NOT EXISTS jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_at INTEGER NOT NULL,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  account_id INTEGER NOT NULL DEFAULT 0
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
`;

/**
 * Columns added to a core table after its first release: a --db file made before has the table without them, and
 * `CREATE TABLE IF NOT EXISTS` leaves it so; each is added when missing.
 */
const ADDED_COLUMNS: readonly { table: string; column: string; ddl: string }[] = [
  { table: 'deliveries', column: 'failure_reason', ddl: 'failure_reason TEXT' },
  // The account whose clock a job waits for (0: the sandbox's own clock, which a file made before had alone).
  { table: 'jobs', column: 'account_id', ddl: 'account_id INTEGER NOT NULL DEFAULT 0' },
];

/**
 * A bare `LIMIT ?` or `OFFSET ?`. SQLite plans a statement for the values bound there and re-prepares it
 * whenever they are bound again, which node:sqlite does on every call (about 8 µs for a `SELECT *` of a page,
 * several times the query itself). Bound as an expression, `CAST(? AS INTEGER)`, they are plain values.
 */
const BARE_LIMIT = /\b(LIMIT|OFFSET) \?/g;

/** The SQL node:sqlite prepares for `sql`: the same statement, with LIMIT and OFFSET values bound as expressions. */
export const preparedSql = (sql: string): string => sql.replace(BARE_LIMIT, '$1 CAST(? AS INTEGER)');

type Statement = ReturnType<DatabaseSync['prepare']>;

/** Gives `file` the mode DB_FILE_MODE, creating it with that mode when `create` (never readable by others in between). */
function restrictMode(file: string, create = true): void {
  if (create) fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_RDWR, DB_FILE_MODE));
  else if (!fs.existsSync(file)) return;
  if ((fs.statSync(file).mode & 0o777) !== DB_FILE_MODE) fs.chmodSync(file, DB_FILE_MODE);
}

export class SqliteDb implements Db {
  private readonly db: DatabaseSync;
  private depth = 0;
  private readonly statements = new Map<string, Statement>();
  private readonly begin: Statement;
  private readonly commit: Statement;
  private readonly rollback: Statement;

  /** `file` undefined or ':memory:' keeps everything in memory; `tables` is the DDL of the product modules. */
  constructor(file?: string, tables: readonly string[] = []) {
    const onDisk = file !== undefined && file !== ':memory:';
    // The file holds API keys, webhook secrets and card numbers: it is made readable by its owner only before
    // SQLite opens it (SQLite gives the -wal and -shm files the database's mode), and an existing file with a
    // wider mode is narrowed.
    if (onDisk) restrictMode(file);
    this.db = new DatabaseSync(file ?? ':memory:');
    if (onDisk) {
      this.db.exec('PRAGMA journal_mode = WAL');
      this.db.exec('PRAGMA synchronous = NORMAL');
    }
    this.db.exec('PRAGMA foreign_keys = ON');
    this.db.exec(CORE_TABLES);
    for (const { table, column, ddl } of ADDED_COLUMNS) {
      const columns = this.db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
      if (!columns.some((c) => c.name === column)) this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${ddl}`);
    }
    for (const ddl of tables) this.db.exec(ddl);
    // Written once, the -wal and -shm files exist: narrowed too, whatever SQLite gave them.
    if (onDisk) for (const suffix of ['-wal', '-shm']) restrictMode(`${file}${suffix}`, false);
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
