import { assembleRecord, changeIdOf, kindNamed, type CatalogRecord, type Change, type ChangeAction, type ChangeDraft, type Kinds, type RecordKind } from '@workplan/core';
import { type WriteStep } from './write-statements.js';

/**
 * The tables of schema version 4: every change the repositories committed, and the highest
 * sequence `prune` removed (0 while none was). AUTOINCREMENT numbers each change above any
 * number the table ever held, so a number is never given twice, even once pruned; a write
 * rolled back takes its number back with it (`sqlite_sequence` is written in the same
 * transaction), so numbers stay contiguous. A record is kept in columns, not as JSON: its
 * id is the change's `record_id`, and a number takes fewer bytes than its digits. A
 * record's history is found by its id alone (ids are UUIDs, one kind's as another's), the
 * kind checked on the rows found, so the index holds no kind.
 */
export const CREATE_CHANGE_TABLES_SQL = `
  CREATE TABLE changes (
    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    record_id TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete')),
    at INTEGER NOT NULL,
    "by" TEXT NOT NULL,
    data_text TEXT,
    data_created_at INTEGER,
    data_updated_at INTEGER,
    previous_text TEXT,
    previous_created_at INTEGER,
    previous_updated_at INTEGER
  ) STRICT;
  CREATE INDEX changes_of_record ON changes (record_id);
  CREATE TABLE changes_pruned (
    only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
    sequence INTEGER NOT NULL
  ) STRICT;
  INSERT INTO changes_pruned (only_row, sequence) VALUES (1, 0);`;

/** The columns a change is read from, in the order of each row (rows are arrays). */
export const CHANGE_COLUMNS =
  'sequence, kind, record_id, action, at, "by", data_text, data_created_at, data_updated_at, previous_text, previous_created_at, previous_updated_at';

const INSERT_CHANGE_SQL = `INSERT INTO changes (kind, record_id, action, at, "by", data_text, data_created_at, data_updated_at, previous_text, previous_created_at, previous_updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING sequence`;

/** The step keeping `draft` in the log, to follow its record's write; its row is the change's sequence. */
export function changeStepOf<F extends string>(kind: RecordKind<F>, draft: ChangeDraft<F>): WriteStep {
  const columnsOf = (record: CatalogRecord<F> | null): [string | null, number | null, number | null] =>
    record === null ? [null, null, null] : [record[kind.field], record.createdAt.getTime(), record.updatedAt.getTime()];
  const { kind: name, recordId, action, at, by } = draft;
  return { method: 'get', sql: INSERT_CHANGE_SQL, params: [name, recordId, action, at.getTime(), by, ...columnsOf(draft.data), ...columnsOf(draft.previous)] };
}

/** The sequence in a row: a change step's, or a statement answering one. */
export function sequenceOfRow(row: unknown[] | undefined): number {
  const sequence = row?.[0];
  if (typeof sequence !== 'number') throw new Error('the changes table answered a sequence that is not a number');
  return sequence;
}

const ACTIONS: readonly unknown[] = ['create', 'update', 'delete'] satisfies ChangeAction[];

/** A row of `CHANGE_COLUMNS`, in their order, as a change of one of `kinds`. */
export function changeOfRow(row: unknown, kinds: Kinds): Change {
  const [sequence, kindName, recordId, action, at, by, ...records] = Array.isArray(row) ? (row as unknown[]) : [];
  const kind = kindNamed(kinds, String(kindName));
  // STRICT columns hold only these types; anything else is a file changed behind our back.
  if (typeof sequence !== 'number' || kind === undefined || typeof recordId !== 'string' || !ACTIONS.includes(action)) throw unshaped();
  if (typeof at !== 'number' || typeof by !== 'string') throw unshaped();
  const recordOf = ([text, createdAt, updatedAt]: unknown[]): CatalogRecord<string> | null => {
    if (text === null) return null;
    if (typeof text !== 'string' || typeof createdAt !== 'number' || typeof updatedAt !== 'number') throw unshaped();
    return assembleRecord(kind, { id: recordId, text, createdAt: new Date(createdAt), updatedAt: new Date(updatedAt) });
  };
  return {
    id: changeIdOf(sequence),
    kind: kind.name,
    recordId,
    action: action as ChangeAction,
    at: new Date(at),
    by,
    data: recordOf(records.slice(0, 3)),
    previous: recordOf(records.slice(3, 6)),
  };
}

function unshaped(): Error {
  return new Error('a row of changes does not have the shape this code wrote');
}
