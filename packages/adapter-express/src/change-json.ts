import { type Kinds } from '@workplan/core';
import { recordJsonOf, type RecordJson } from './record-json.js';
import { type RecordChange } from './resources.js';

/** How the changes of one kind of record are written: the path word they go by, and their records' JSON. */
export interface ChangeWriter {
  /** `Change.kind`, such as `workSchedule`. */
  readonly kind: string;
  /** The path word of one record (`scale`): the change's `resource`. */
  readonly singular: string;
  /** The JSON the record endpoints write, so a record reads the same in a change as in a find. */
  readonly json: RecordJson;
}

/** Writes changes, of every kind described, as the contract's JSON (a page of them: page-turns.ts). */
export interface ChangesJson {
  one(change: RecordChange): string;
}

/**
 * The JSON of changes: `{ id, resource, recordId, action, at, by, data, previous }`, with
 * `resource` the path word of the change's kind and each record written by its kind's
 * record JSON (`null` where there is none).
 */
export function changesJsonOf(writers: readonly ChangeWriter[]): ChangesJson {
  const byKind = new Map(writers.map((writer) => [writer.kind, { ...writer, resource: JSON.stringify(writer.singular) }]));
  const one = (change: RecordChange): string => {
    const writer = byKind.get(change.kind);
    // The storage keeps only the kinds the core knows, and each is served: a miss is a bug.
    if (writer === undefined) throw new TypeError(`no resource serves the changes of kind ${JSON.stringify(change.kind)}`);
    const record = (value: RecordChange['data']) => (value === null ? 'null' : writer.json.one(value));
    return (
      `{"id":${JSON.stringify(change.id)},"resource":${writer.resource},"recordId":${JSON.stringify(change.recordId)},` +
      `"action":${JSON.stringify(change.action)},"at":${JSON.stringify(change.at)},"by":${JSON.stringify(change.by)},` +
      `"data":${record(change.data)},"previous":${record(change.previous)}}`
    );
  };
  return { one };
}

/** The changes of every resource described, as the API writes them: for those that send them elsewhere (webhooks). */
export interface DescribedChanges {
  /** The resource words (`scale`, `costCenter`), in the order the API document lists them. */
  readonly resources: readonly string[];
  /** The resource word of a change's kind (`Change.kind`); `undefined` for a kind none serves. */
  resourceOf(kind: string): string | undefined;
  /** A change's JSON, exactly as the changes feed writes it. */
  bodyOf(change: RecordChange): string;
}

/** Writes the changes of every one of `kinds`, as the routes do. */
export function describedChanges(kinds: Kinds): DescribedChanges {
  const writers = Object.values(kinds).map(({ name, singular, field }) => ({ kind: name, singular, json: recordJsonOf(field) }));
  const json = changesJsonOf(writers);
  const words = new Map(writers.map(({ kind, singular }) => [kind, singular]));
  return { resources: writers.map(({ singular }) => singular), resourceOf: (kind) => words.get(kind), bodyOf: (change) => json.one(change) };
}
