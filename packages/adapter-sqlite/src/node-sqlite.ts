// node:sqlite as this package loads it. A static import of it is linked before any code of
// the package runs, so on a Node without it the caller would get ERR_UNKNOWN_BUILTIN_MODULE,
// naming neither the Node needed nor the one found. Taken from process.getBuiltinModule
// after the version check, the failure says both; and, being synchronous (no top-level
// await), the package still loads through require() of an ES module.
import type * as Sqlite from 'node:sqlite';
import { unsupportedNode } from './node-support.js';

function loadSqlite(): typeof Sqlite {
  const unsupported = unsupportedNode(process.versions.node);
  if (unsupported !== undefined) throw new Error(unsupported);
  return process.getBuiltinModule('node:sqlite');
}

const sqlite = loadSqlite();

export const { backup } = sqlite;
export const DatabaseSync = sqlite.DatabaseSync;
export type DatabaseSync = Sqlite.DatabaseSync;
