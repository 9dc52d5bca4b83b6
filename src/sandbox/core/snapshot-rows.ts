// The stored rows of a snapshot: an account's rows of every table (or every row of the sandbox), copied out and put
// back in one transaction. It reads the tables from the database itself, not from a list, so that a product's new
// table is in every snapshot: a table belongs to an account through its `account_id` column, or through a foreign
// key to a table that has one (a top-up's failure reason, through its top-up); the accounts table through `id`.
// Jobs have no account column: a job is the account's when its payload names it (`account`) or names one of its
// records by a unique key (a card's code, a delivery's code, a KYC session's token). The clock's row is left to the
// clock (./snapshot-clock.ts).
import type { Db, Row, SqlValue } from './store.js';

/** An account's rows (by its id), or every row of the sandbox. */
export type SnapshotScope = { accountId: number } | 'sandbox';

interface TableRows {
  table: string;
  columns: string[];
  rows: SqlValue[][];
}

export interface SavedRows {
  tables: TableRows[];
  jobs: Row[];
  /** How many rows it holds, jobs included (the snapshot's answer reports it). */
  count: number;
}

interface Table {
  name: string;
  /** The condition that picks an account's rows (its one parameter is the account id); null: no account's. */
  owned: string | null;
  /** Whether its rows are picked through another table's (deleted before that table's rows). */
  child: boolean;
  /** Its TEXT columns whose values are unique (a job's payload names a record by one of them). */
  keys: string[];
  /** Its rowid is not a column of its own (no INTEGER PRIMARY KEY): it is copied as ROWID, so rows come back in their order. */
  rowid: boolean;
}

/** The name a copied row gives the rowid of a table without an INTEGER PRIMARY KEY. */
const ROWID = '__rowid';

/** Tables whose rows no snapshot copies as rows: the clock's (./snapshot-clock.ts) and SQLite's own. */
const NOT_COPIED = new Set(['clock', 'sqlite_sequence']);
const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

const layouts = new WeakMap<Db, Table[]>();

/** The tables of the database and how each belongs to an account (read once per database: the schema is fixed at start). */
export function tablesOf(db: Db): Table[] {
  const known = layouts.get(db);
  if (known) return known;
  const names = db
    .all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .map((t) => t.name)
    .filter((name) => !NOT_COPIED.has(name));
  const columns = new Map(
    names.map((name) => [name, db.all<{ name: string; type: string; pk: number }>(`PRAGMA table_info(${quote(name)})`)]),
  );
  const direct = (name: string): string | null =>
    name === 'accounts' ? 'id = ?' : columns.get(name)!.some((c) => c.name === 'account_id') ? 'account_id = ?' : null;
  const tables = names.map((name): Table => {
    const own = direct(name);
    const parent = own
      ? undefined
      : db.all<{ table: string; from: string; to: string }>(`PRAGMA foreign_key_list(${quote(name)})`).find((fk) => direct(fk.table));
    const owned =
      own ??
      (parent ? `${quote(parent.from)} IN (SELECT ${quote(parent.to)} FROM ${quote(parent.table)} WHERE ${direct(parent.table)})` : null);
    const pk = columns.get(name)!.filter((c) => c.pk > 0);
    const rowid = !(pk.length === 1 && pk[0]!.type.toUpperCase() === 'INTEGER');
    return { name, owned, child: parent !== undefined, keys: uniqueTextColumns(db, name, columns.get(name)!), rowid };
  });
  layouts.set(db, tables);
  return tables;
}

function uniqueTextColumns(db: Db, table: string, columns: { name: string; type: string; pk: number }[]): string[] {
  const text = new Set(columns.filter((c) => c.type.toUpperCase() === 'TEXT').map((c) => c.name));
  const pk = columns.filter((c) => c.pk > 0);
  const keys = pk.length === 1 && text.has(pk[0]!.name) ? [pk[0]!.name] : [];
  for (const index of db.all<{ name: string; unique: number }>(`PRAGMA index_list(${quote(table)})`)) {
    if (index.unique !== 1) continue;
    const cols = db.all<{ name: string }>(`PRAGMA index_info(${quote(index.name)})`);
    if (cols.length === 1 && text.has(cols[0]!.name) && !keys.includes(cols[0]!.name)) keys.push(cols[0]!.name);
  }
  return keys;
}

function rowsOf(db: Db, table: Table, scope: SnapshotScope): Row[] {
  const select = `SELECT ${table.rowid ? `rowid AS ${ROWID}, ` : ''}* FROM ${quote(table.name)}`;
  if (scope === 'sandbox') return db.all(select);
  return table.owned === null ? [] : db.all(`${select} WHERE ${table.owned}`, scope.accountId);
}

/** The account's jobs: those whose payload names the account, or names one of `keys` (its records' unique values). */
function jobsOf(db: Db, scope: SnapshotScope, keys: Set<string>): Row[] {
  const jobs = db.all<Row>('SELECT * FROM jobs ORDER BY id');
  if (scope === 'sandbox') return jobs;
  return jobs.filter((job) => {
    const payload = JSON.parse(String(job['payload'])) as Record<string, unknown>;
    return Object.entries(payload).some(([field, value]) =>
      field === 'account' ? value === scope.accountId : typeof value === 'string' && keys.has(value),
    );
  });
}

/** The unique TEXT values of the rows (a job's payload names a record by one of them). */
function keysOf(tables: Table[], rows: Map<string, Row[]>): Set<string> {
  const keys = new Set<string>();
  for (const table of tables) {
    for (const row of rows.get(table.name) ?? []) for (const key of table.keys) if (typeof row[key] === 'string') keys.add(row[key]);
  }
  return keys;
}

function readRows(db: Db, scope: SnapshotScope): { tables: Table[]; rows: Map<string, Row[]>; jobs: Row[] } {
  const tables = tablesOf(db).filter((t) => t.name !== 'jobs');
  const rows = new Map(tables.map((t) => [t.name, rowsOf(db, t, scope)]));
  return { tables, rows, jobs: jobsOf(db, scope, keysOf(tables, rows)) };
}

/** Deletes the scope's jobs: those of its records now, and those of its records in the snapshot (all, for the sandbox). */
function deleteJobs(db: Db, scope: SnapshotScope, tables: Table[], saved: SavedRows): void {
  if (scope === 'sandbox') {
    db.run('DELETE FROM jobs');
    return;
  }
  // Only the key columns are read: a job names a record by one of them.
  const keys = new Set<string>();
  for (const table of tables) {
    if (table.owned === null || table.keys.length === 0) continue;
    for (const row of db.all<Row>(
      `SELECT ${table.keys.map(quote).join(', ')} FROM ${quote(table.name)} WHERE ${table.owned}`,
      scope.accountId,
    ))
      for (const value of Object.values(row)) if (typeof value === 'string') keys.add(value);
  }
  for (const { table, columns, rows } of saved.tables) {
    const at = (tables.find((t) => t.name === table)?.keys ?? []).map((key) => columns.indexOf(key));
    for (const values of rows) for (const i of at) if (typeof values[i] === 'string') keys.add(values[i]);
  }
  for (const job of jobsOf(db, scope, keys)) db.run('DELETE FROM jobs WHERE id = ?', job['id']!);
  for (const job of saved.jobs) db.run('DELETE FROM jobs WHERE id = ?', job['id']!);
}

/**
 * Inserts saved rows, each with its rowid, so that they come back in their order; a rowid another account's row
 * took meanwhile (SQLite reuses the highest one once deleted) is left to SQLite, and that row comes back last.
 */
function insertRows(db: Db, { table, columns, rows }: TableRows): void {
  const at = columns.indexOf(ROWID);
  const names = columns.map((c) => (c === ROWID ? 'rowid' : quote(c)));
  const insert = `INSERT INTO ${quote(table)} (${names.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
  const others = columns.filter((c) => c !== ROWID);
  const insertWithout = `INSERT INTO ${quote(table)} (${others.map(quote).join(', ')}) VALUES (${others.map(() => '?').join(', ')})`;
  for (const values of rows) {
    if (at < 0) db.run(insert, ...values);
    else if (!db.get(`SELECT 1 FROM ${quote(table)} WHERE rowid = ?`, values[at]!)) db.run(insert, ...values);
    else db.run(insertWithout, ...values.filter((_, i) => i !== at));
  }
}

/** Copies the scope's rows out (call inside a transaction, so that they are of one moment). */
export function saveRows(db: Db, scope: SnapshotScope): SavedRows {
  const { rows, jobs } = readRows(db, scope);
  const tables: TableRows[] = [];
  let count = jobs.length;
  for (const [table, list] of rows) {
    if (list.length === 0) continue;
    const columns = Object.keys(list[0]!);
    tables.push({ table, columns, rows: list.map((row) => columns.map((c) => row[c] as SqlValue)) });
    count += list.length;
  }
  return { tables, jobs, count };
}

/**
 * Replaces the scope's rows by saved ones (inside the caller's transaction): its rows now, and its jobs, are
 * deleted, and the saved ones inserted with their own keys (row ids are never reused, so none is taken meanwhile).
 * Foreign keys are checked at the commit, once every row is back.
 */
export function replaceRows(db: Db, scope: SnapshotScope, saved: SavedRows): void {
  db.run('PRAGMA defer_foreign_keys = ON');
  const tables = tablesOf(db).filter((t) => t.name !== 'jobs');
  deleteJobs(db, scope, tables, saved);
  // A table whose rows are picked through another's is emptied first, while that one still names them.
  const order = [...tables.filter((t) => t.child), ...tables.filter((t) => !t.child)];
  for (const table of order) {
    if (scope === 'sandbox') db.run(`DELETE FROM ${quote(table.name)}`);
    else if (table.owned !== null) db.run(`DELETE FROM ${quote(table.name)} WHERE ${table.owned}`, scope.accountId);
  }
  for (const table of saved.tables) insertRows(db, table);
  for (const job of saved.jobs)
    db.run('INSERT INTO jobs (id, run_at, kind, payload) VALUES (?, ?, ?, ?)', job['id']!, job['run_at']!, job['kind']!, job['payload']!);
}
