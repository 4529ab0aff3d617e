import { type RecordKind } from '@workplan/core';

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
 * The statements that create a kind's table: STRICT so a wrong type is refused rather
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
