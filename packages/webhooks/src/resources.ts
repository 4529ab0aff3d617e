import { type Change } from '@workplan/core';

/**
 * How changes read to a receiver: the HTTP API's resource words and change JSON, given by
 * whoever composes the service (the HTTP adapter's), so each is written in one place and a
 * POSTed change reads exactly as the changes feed writes it.
 */
export interface ChangeWording {
  /** The resources a subscription may ask for, as the API calls them (`scale`, `costCenter`). */
  readonly resources: readonly string[];
  /** The resource word of a change's kind (`Change.kind`); `undefined` for a kind no resource serves. */
  resourceOf(kind: string): string | undefined;
  /** The JSON a change is POSTed as. */
  bodyOf(change: Change): string;
}
