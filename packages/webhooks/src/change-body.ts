import { type Change } from '@workplan/core';
import { resourceOfKind } from './resources.js';

/**
 * A change as JSON, as the HTTP API writes it: `{ id, resource, recordId, action, at, by,
 * data, previous }`, its records as the record endpoints write them (id, text field,
 * createdAt, updatedAt, which is the order `JSON.stringify` gives the core's records).
 *
 * Meant to give way to the HTTP adapter's own writer of changes once it is exported, so the
 * two cannot drift apart; the deliverer takes the writer as an option for that.
 */
export function changeBodyOf(change: Change): string {
  const resource = resourceOfKind(change.kind);
  // The storage keeps only the kinds the core knows, and each is a resource: a miss is a bug.
  if (resource === undefined) throw new TypeError(`no resource serves the changes of kind ${JSON.stringify(change.kind)}`);
  const { id, recordId, action, at, by, data, previous } = change;
  return JSON.stringify({ id, resource, recordId, action, at, by, data, previous });
}

