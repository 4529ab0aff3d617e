import { type RecordKind } from '@workplan/core';
import { FOLD_TEXT } from './folded-text.js';

// A kind's name becomes SQL text, so only plain camelCase names are let through.
const KIND_NAME = /^[a-z][a-zA-Z0-9]*$/u;

/** The table holding one kind of record: the kind's name in snake_case, plural (`workSchedule` -> `work_schedules`). */
export function tableNameOf(kind: RecordKind<string>): string {
  if (!KIND_NAME.test(kind.name)) {
    throw new Error(`a kind's name must be camelCase letters and digits, not ${JSON.stringify(kind.name)}`);
  }
  return `${kind.name.replace(/[A-Z]/gu, (letter) => `_${letter.toLowerCase()}`)}s`;
}

/**
 * The statements that create a kind's table, as schema version 1 made it (later versions
 * change it: see `foldRecordTableSql`): STRICT so a wrong type is refused rather
 * than stored, a UNIQUE `key` so the database itself settles clashes, times as integer
 * milliseconds, and an index that serves lists in `created_at`, then `id`, order; it holds
 * every listed column too, so a page is read from the index alone, never from the table.
 */
export function createRecordTableSql(kind: RecordKind<string>): string {
  const table = tableNameOf(kind);
  return `
    CREATE TABLE ${table} (
      id TEXT PRIMARY KEY,
      "text" TEXT NOT NULL,
      "key" TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX ${table}_list_order ON ${table} (created_at, id, "text", updated_at);`;
}

/**
 * The statements of schema version 3 for a kind's table: the folded text beside the text
 * (`folded`, core's `foldText`, filled here for the records already stored and by every
 * write after), and an index for each order a list may ask for, ascending or descending.
 * SQLite adds a NOT NULL column only with a default: every write sets it. Each index holds
 * every column a page or a search reads, so a page is read from the index alone, and a
 * search walks one index in the order asked for, stopping once the page is full. The index
 * of version 1 is the first of them without `folded`, so it goes.
 */
export function foldRecordTableSql(kind: RecordKind<string>): string {
  const table = tableNameOf(kind);
  return `
    DROP INDEX ${table}_list_order;
    ALTER TABLE ${table} ADD COLUMN folded TEXT NOT NULL DEFAULT '';
    UPDATE ${table} SET folded = ${FOLD_TEXT}("text");
    CREATE INDEX ${table}_by_created_at ON ${table} (created_at, id, folded, "text", updated_at);
    CREATE INDEX ${table}_by_updated_at ON ${table} (updated_at, id, folded, "text", created_at);
    CREATE INDEX ${table}_by_folded ON ${table} (folded, id, "text", created_at, updated_at);`;
}

/** The statement folding again the text of every record of a kind's table, as `foldText` folds now. */
export function refoldRecordTableSql(kind: RecordKind<string>): string {
  return `UPDATE ${tableNameOf(kind)} SET folded = ${FOLD_TEXT}("text")`;
}
