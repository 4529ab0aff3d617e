import { type RecordKind } from '@workplan/core';
import { tableNameOf } from './record-table.js';

/** The number of records in each record table, so a count is one row read rather than a walk of every record. */
export const CREATE_RECORD_COUNTS_SQL = `
  CREATE TABLE record_counts (
    record_table TEXT PRIMARY KEY,
    records INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;`;

/**
 * Counts a kind's records as they are now, and keeps the count by triggers: each runs in
 * the statement that inserted or deleted the record, so a write that fails or is rolled
 * back leaves the count as it was, whichever connection or process wrote. (A REPLACE
 * would delete without its trigger firing; no write of ours replaces.)
 */
export function countRecordsSql(kind: RecordKind<string>): string {
  const table = tableNameOf(kind);
  const counted = `UPDATE record_counts SET records = records`;
  return `
    INSERT INTO record_counts (record_table, records) SELECT '${table}', count(*) FROM ${table};
    CREATE TRIGGER ${table}_counted_in AFTER INSERT ON ${table}
      BEGIN ${counted} + 1 WHERE record_table = '${table}'; END;
    CREATE TRIGGER ${table}_counted_out AFTER DELETE ON ${table}
      BEGIN ${counted} - 1 WHERE record_table = '${table}'; END;`;
}

/** The statement reading a table's count; its one parameter is the table's name. */
export const RECORD_COUNT_SQL = 'SELECT records FROM record_counts WHERE record_table = ?';
