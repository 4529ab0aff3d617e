import { type RecordChange } from './changes.js';

/**
 * Which page of a record's history to read: its changes after the change `after` (from its
 * first when left out), at most `limit` (1 to 1000; the service's 100 when left out). Read
 * on from a page's `next`, as the service's `Link: rel="next"` says.
 */
export interface HistoryRequest {
  readonly after?: string | undefined;
  readonly limit?: number | undefined;
}

/** A page of a record's history, oldest first, and the page after it while more changes follow. */
export interface HistoryPage<F extends string> {
  readonly changes: RecordChange<F>[];
  /** The next page to ask for; undefined on the last page. */
  readonly next: HistoryRequest | undefined;
  /** Whether more changes follow this page. */
  readonly hasMore: boolean;
}

/** The query of a page of a history at `path` (`/api/v1/scale/{id}/history`), percent-encoded. */
export function historyPathOf(path: string, { after, limit }: HistoryRequest = {}): string {
  const parameters: [string, string | number | undefined][] = [['after', after], ['limit', limit]];
  const query = parameters.flatMap(([name, value]) => (value === undefined ? [] : [`${name}=${encodeURIComponent(value)}`]));
  return query.length === 0 ? path : `${path}?${query.join('&')}`;
}

/** The page a history's `next` link names: its `after`, and its `limit` when it has one. */
export function historyRequestOfLink(next: string): HistoryRequest {
  const query = new URL(next, 'http://service.invalid').searchParams;
  const after = query.get('after') ?? undefined;
  const limit = query.get('limit') ?? undefined;
  return { ...(after === undefined ? {} : { after }), ...(limit === undefined ? {} : { limit: Number(limit) }) };
}
