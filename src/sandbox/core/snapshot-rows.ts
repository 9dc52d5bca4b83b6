// The stored rows of a snapshot: an account's rows of every table (or every row of the sandbox), copied out and put
// back in one transaction. It reads the tables from the database itself, not from a list, so that a product's new
// table is in every snapshot: a table belongs to an account through its `account_id` column, or through a foreign
// key to a table that has one (a top-up's failure reason, through its top-up); the accounts table through `id`.
// Jobs are an account's by their `account_id` too (the account whose clock they wait for). The clocks' rows are left
// to the clock (./snapshot-clock.ts).
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
  /** How many rows it holds, jobs included (the snapshot's answer reports it). */
  count: number;
}

interface Table {
  name: string;
  /** The condition that picks an account's rows (its one parameter is the account id); null: no account's. */
  owned: string | null;
  /** Whether its rows are picked through another table's (deleted before that table's rows). */
  child: boolean;
  /** Its rowid is not a column of its own (no INTEGER PRIMARY KEY): it is copied as ROWID, so rows come back in their order. */
  rowid: boolean;
}

/** The name a copied row gives the rowid of a table without an INTEGER PRIMARY KEY. */
const ROWID = '__rowid';

/** Tables whose rows no snapshot copies as rows: the clock's (./snapshot-clock.ts) and SQLite's own. */
const NOT_COPIED = new Set(['clock', 'clocks', 'sqlite_sequence']);
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
    return { name, owned, child: parent !== undefined, rowid };
  });
  layouts.set(db, tables);
  return tables;
}

function rowsOf(db: Db, table: Table, scope: SnapshotScope): Row[] {
  const select = `SELECT ${table.rowid ? `rowid AS ${ROWID}, ` : ''}* FROM ${quote(table.name)}`;
  if (scope === 'sandbox') return db.all(select);
  return table.owned === null ? [] : db.all(`${select} WHERE ${table.owned}`, scope.accountId);
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
  const tables: TableRows[] = [];
  let count = 0;
  for (const table of tablesOf(db)) {
    const list = rowsOf(db, table, scope);
    if (list.length === 0) continue;
    const columns = Object.keys(list[0]!);
    tables.push({ table: table.name, columns, rows: list.map((row) => columns.map((c) => row[c] as SqlValue)) });
    count += list.length;
  }
  return { tables, count };
}

/**
 * Replaces the scope's rows by saved ones (inside the caller's transaction): its rows now are deleted, and the
 * saved ones inserted with their own keys. Foreign keys are checked at the commit, once every row is back.
 */
export function replaceRows(db: Db, scope: SnapshotScope, saved: SavedRows): void {
  db.run('PRAGMA defer_foreign_keys = ON');
  const tables = tablesOf(db);
  // A table whose rows are picked through another's is emptied first, while that one still names them.
  const order = [...tables.filter((t) => t.child), ...tables.filter((t) => !t.child)];
  for (const table of order) {
    if (scope === 'sandbox') db.run(`DELETE FROM ${quote(table.name)}`);
    else if (table.owned !== null) db.run(`DELETE FROM ${quote(table.name)} WHERE ${table.owned}`, scope.accountId);
  }
  for (const table of saved.tables) insertRows(db, table);
}
