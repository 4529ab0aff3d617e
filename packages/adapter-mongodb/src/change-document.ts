import {
  assembleRecord,
  changeIdOf,
  kindNamed,
  type CatalogRecord,
  type Change,
  type ChangeAction,
  type ChangeDraft,
  type Kinds,
  type RecordKind,
} from '@workplan/core';

/** A record as a change keeps it: its parts, the text under a name common to every kind. */
interface KeptRecord {
  id: string;
  text: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A change as MongoDB keeps it, in `changes`, under its number. It is inserted before its
 * write is carried out, and counts only once its outcome says committed (mongo-change-log.ts).
 */
export interface ChangeDocument {
  _id: number;
  /** The kind's name, such as `workSchedule`. */
  kind: string;
  recordId: string;
  action: ChangeAction;
  at: Date;
  by: string;
  data: KeptRecord | null;
  previous: KeptRecord | null;
  /** When the writer numbered it, by its own clock: how long it may still be undecided. */
  writtenAt: Date;
}

/** Whether change `_id` counts (its write was carried out) or not: decided once, by whoever inserts it first. */
export interface OutcomeDocument {
  _id: number;
  committed: boolean;
}

/** The kind of record among `kinds` named `name`; a name no kind has is a bug upstream, or a document of someone else's. */
function kindOf(kinds: Kinds, name: string): RecordKind<string> {
  const kind = kindNamed(kinds, name);
  if (kind === undefined) throw new TypeError(`no kind of record is named ${JSON.stringify(name)}`);
  return kind;
}

/** The document of `draft` numbered `sequence`, written at `writtenAt`. */
export function toChangeDocument<F extends string>(draft: ChangeDraft<F>, sequence: number, writtenAt: Date, kinds: Kinds): ChangeDocument {
  const kind = kindOf(kinds, draft.kind) as RecordKind<F>;
  const kept = (record: CatalogRecord<F> | null): KeptRecord | null =>
    record === null ? null : { id: record.id, text: record[kind.field], createdAt: record.createdAt, updatedAt: record.updatedAt };
  return {
    _id: sequence,
    kind: draft.kind,
    recordId: draft.recordId,
    action: draft.action,
    at: draft.at,
    by: draft.by,
    data: kept(draft.data),
    previous: kept(draft.previous),
    writtenAt,
  };
}

/** The change a document holds, of one of `kinds`. */
export function toChange(document: ChangeDocument, kinds: Kinds): Change {
  const kind = kindOf(kinds, document.kind);
  const record = (kept: KeptRecord | null): CatalogRecord<string> | null => (kept === null ? null : assembleRecord(kind, kept));
  return {
    id: changeIdOf(document._id),
    kind: document.kind,
    recordId: document.recordId,
    action: document.action,
    at: document.at,
    by: document.by,
    data: record(document.data),
    previous: record(document.previous),
  };
}
