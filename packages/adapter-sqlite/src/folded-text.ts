import { foldText } from '@workplan/core';
import type { DatabaseSync } from 'node:sqlite';

/** The SQL function a write computes a record's folded text with: core's `foldText`, the search's and the text order's key. */
export const FOLD_TEXT = 'fold_text';

/**
 * Lets `db` run `fold_text(text)`. The writes compute the folded text themselves, so it is
 * made where the record is written (the write thread) and never differs from the text
 * beside it; the migration that added the column fills it the same way. Direct only: no
 * trigger or view of a file could make it run.
 */
export function addFoldFunction(db: DatabaseSync): void {
  db.function(FOLD_TEXT, { deterministic: true, directOnly: true }, (text) => {
    if (typeof text !== 'string') throw new TypeError(`${FOLD_TEXT} folds text, not ${typeof text}`);
    return foldText(text);
  });
}
