// node:sqlite, loaded through process.getBuiltinModule rather than a static import: a static import of a
// module this Node lacks fails while the module graph is linked, before any of it runs, with
// ERR_UNKNOWN_BUILTIN_MODULE and a stack trace. Loaded here, an older Node gets one line instead, naming the
// version the sandbox needs (package.json engines: node:sqlite without a flag, from 22.13).
import type * as Sqlite from 'node:sqlite';
import { requireNode } from '../../package-info.js';

requireNode('The sandbox (@partner-api/contract/sandbox)');
const sqlite = process.getBuiltinModule('node:sqlite') as typeof Sqlite;

export const DatabaseSync = sqlite.DatabaseSync;
export type DatabaseSync = Sqlite.DatabaseSync;
export type SQLInputValue = Sqlite.SQLInputValue;
