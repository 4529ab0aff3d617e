import { type PageRequest } from '@workplan/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { isDefaultOrder, sortOf, type ListQuery } from './list-query.js';
import { type AnyRecord, type ConsoleResource, type Records } from './resources.js';
import { useOperation, type Operation } from './services.js';

/** The records a list shows, read page by page for a search and an order, and what the screen does to them. */
export interface RecordList {
  readonly shown: readonly AnyRecord[];
  /** The page "Carregar mais" asks for; undefined once the last page is shown. */
  readonly next: PageRequest | undefined;
  /** How many records match, as the service counted them with the first page. */
  readonly total: number | undefined;
  /** The first page has been read. */
  readonly loaded: boolean;
  readonly listing: Operation;
  readonly reload: () => Promise<void>;
  readonly loadMore: () => Promise<void>;
  readonly changed: (record: AnyRecord) => void;
  readonly removed: (id: string) => void;
  readonly created: (record: AnyRecord) => void;
}

/** The first page of the list `query` asks for, counted. Without a sort the service's own order is kept, paged by `skip`. */
function firstPage(resource: ConsoleResource, query: ListQuery, limit: number): PageRequest {
  return {
    limit,
    count: true,
    ...(query.search === '' ? {} : { q: query.search }),
    ...(isDefaultOrder(query.order) ? {} : { sort: sortOf(query.order, resource.field) }),
  };
}

/**
 * The list of `query`, read again whenever the query or the page size changes. Only the
 * latest read is shown: one still on its way when the operator types on is cancelled.
 */
export function useRecordList(resource: ConsoleResource, records: Records, query: ListQuery, pageSize: number): RecordList {
  const listing = useOperation();
  const [shown, setShown] = useState<readonly AnyRecord[]>([]);
  const [next, setNext] = useState<PageRequest | undefined>(undefined);
  const [total, setTotal] = useState<number | undefined>(undefined);
  const [loaded, setLoaded] = useState(false);
  const latest = useRef<AbortController>(undefined);

  /** A page from the service; a later page is added below, without the records already shown. */
  const load = async (page: PageRequest, more: boolean) => {
    latest.current?.abort();
    const reading = new AbortController();
    latest.current = reading;
    const answer = await listing.run(() => records.listPage(page, { signal: reading.signal }));
    if (answer === undefined || reading.signal.aborted) return;
    setShown((before) => (more ? [...before, ...answer.records.filter((record) => !before.some((had) => had.id === record.id))] : answer.records));
    setNext(answer.next);
    if (answer.total !== undefined || !more) setTotal(answer.total);
    setLoaded(true);
  };
  const reload = () => load(firstPage(resource, query, pageSize), false);
  useEffect(() => {
    void reload();
    return () => latest.current?.abort();
  }, [records, pageSize, query.search, query.order.column, query.order.descending]);

  return {
    shown,
    next,
    total,
    loaded,
    listing,
    reload,
    loadMore: () => (next === undefined ? Promise.resolve() : load(next, true)),
    changed: (record) => {
      setShown((before) => before.map((had) => (had.id === record.id ? record : had)));
    },
    removed: (id) => {
      setShown((before) => before.filter((had) => had.id !== id));
      setTotal((count) => (count === undefined ? count : Math.max(0, count - 1)));
      // Paged by skip, the records after it moved up one place: the next page starts one
      // earlier. A cursor (after a search or an order) stays where it is.
      setNext((page) => (page === undefined || page.after !== undefined ? page : { ...page, skip: Math.max(0, (page.skip ?? 0) - 1) }));
    },
    // In the service's own order new records come last: shown at once when the last page
    // is. Under a search or another order, where it belongs is the service's to say.
    created: (record) => {
      if (next !== undefined || query.search !== '' || !isDefaultOrder(query.order)) return;
      setShown((before) => [...before, record]);
      setTotal((count) => (count === undefined ? count : count + 1));
    },
  };
}
