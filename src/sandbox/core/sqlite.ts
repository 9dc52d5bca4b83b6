// node:sqlite, loaded through process.getBuiltinModule rather than a static import: a static import of a
// module this Node lacks fails while the module graph is linked, before any of it runs, with
// ERR_UNKNOWN_BUILTIN_MODULE and a stack trace. Loaded here, an older Node gets one line instead, naming the
// version the sandbox needs (package.json engines: node:sqlite without a flag, from 22.13).
import type * as Sqlite from 'node:sqlite';
import { requireNode } from '../../package-info.js';

requireNode('The sandbox (@partner-api/contract/sandbox)');
const sqlite = withoutSqliteWarning(() => process.getBuiltinModule('node:sqlite') as typeof Sqlite);

/**
 * Loads node:sqlite without Node's "SQLite is an experimental feature" warning, which Node before 23.4 prints on
 * every start (on the floor, 22.13, too): the sandbox relies on the module's stable part, and a partner's test
 * output should not carry a warning they can do nothing about. Every other warning is emitted as usual.
 */
function withoutSqliteWarning<T>(load: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/\bSQLite\b/.test(text) && /experimental/i.test(text)) return;
    (emit as (w: string | Error, ...r: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return load();
  } finally {
    process.emitWarning = emit;
  }
}

export const DatabaseSync = sqlite.DatabaseSync;
export type DatabaseSync = Sqlite.DatabaseSync;
export type SQLInputValue = Sqlite.SQLInputValue;
