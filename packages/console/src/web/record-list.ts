import { type PageRequest } from '@workplan/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { isDefaultOrder, sortOf, type ListOrder, type ListQuery } from './list-query.js';
import { useRefreshOnChanges } from './live-refresh.js';
import { type AnyRecord, type ConsoleResource, type Records } from './resources.js';
import { useOperation, useServices, type Operation } from './services.js';

/** The records a list shows, read page by page for a search and an order, and what the screen does to them. */
export interface RecordList {
  readonly shown: readonly AnyRecord[];
  /** The page "Carregar mais" asks for; undefined once the last page is shown. */
  readonly next: PageRequest | undefined;
  /** How many records match, as the service counted them with the first page. */
  readonly total: number | undefined;
  /** The order the rows shown are in: the one asked for, once its first page has been read. */
  readonly order: ListOrder;
  /** The first page of this search has been read. */
  readonly loaded: boolean;
  readonly listing: Operation;
  /** The reading again of the list after a colleague's change. */
  readonly refreshing: Operation;
  readonly reload: () => Promise<void>;
  /** Reads the records shown again, from the first page, keeping the place. */
  readonly refresh: () => Promise<void>;
  readonly loadMore: () => Promise<void>;
  readonly changed: (record: AnyRecord) => void;
  readonly removed: (id: string) => void;
  readonly created: (record: AnyRecord) => void;
  /** A row with a form or a dialog open stays in the list while `held`, whatever a colleague did to its record. */
  readonly hold: (id: string, held: boolean) => void;
}

/**
 * The first page of the list `query` asks for, counted. The order is always named: its next
 * pages then follow a cursor, not a `skip`, so a record deleted above them while no change
 * reaches the page pushes none out of sight.
 */
function firstPage(resource: ConsoleResource, query: ListQuery): PageRequest {
  return { limit: query.pageSize, count: true, ...(query.search === '' ? {} : { q: query.search }), sort: sortOf(query.order, resource.field) };
}

/** `read`, with the held rows of `before` that it no longer has put back where they were. */
function keepingHeld(before: readonly AnyRecord[], read: readonly AnyRecord[], held: ReadonlySet<string>): AnyRecord[] {
  const kept = [...read];
  before.forEach((record, place) => {
    if (held.has(record.id) && !read.some((each) => each.id === record.id)) kept.splice(Math.min(place, kept.length), 0, record);
  });
  return kept;
}

/**
 * The list of `query`, read again whenever the query changes, and when a
 * colleague changes a record of the resource. Only the latest query's reads are shown; the
 * reads of one query take turns, so a page loaded more and a reading again never cross.
 */
export function useRecordList(resource: ConsoleResource, records: Records, query: ListQuery): RecordList {
  const { live } = useServices();
  const listing = useOperation();
  const refreshing = useOperation();
  const [shown, setShown] = useState<readonly AnyRecord[]>([]);
  const [next, setNext] = useState<PageRequest | undefined>(undefined);
  const [total, setTotal] = useState<number | undefined>(undefined);
  const [loaded, setLoaded] = useState(false);
  // The search and order the rows and the total were read for: until the one asked for loads, it is another's.
  const [readFor, setReadFor] = useState<ListQuery | undefined>(undefined);
  const reads = useRef<AbortController>(new AbortController());
  const turn = useRef<Promise<void>>(Promise.resolve());
  const held = useRef(new Set<string>());
  // The held rows the last reading no longer had: they go once their form or dialog closes.
  const heldBack = useRef(new Set<string>());
  const shownNow = useRef(shown);
  shownNow.current = shown;

  /** Runs `read` after the reads before it, unless the query changes first. */
  const inTurn = (read: (signal: AbortSignal) => Promise<void>) => {
    const { signal } = reads.current;
    turn.current = turn.current.then(() => (signal.aborted ? undefined : read(signal)));
    return turn.current;
  };

  /** A page from the service; a later page is added below, without the records already shown. */
  const load = (page: PageRequest, more: boolean) =>
    inTurn(async (signal) => {
      const answer = await listing.run(() => records.listPage(page, { signal }));
      if (answer === undefined || signal.aborted) return;
      setShown((before) => (more ? [...before, ...answer.records.filter((record) => !before.some((had) => had.id === record.id))] : answer.records));
      setNext(answer.next);
      if (answer.total !== undefined || !more) setTotal(answer.total);
      if (!more) setReadFor(query);
      setLoaded(true);
    });

  const reload = async () => {
    reads.current.abort();
    const mine = new AbortController();
    reads.current = mine;
    turn.current = Promise.resolve();
    await live.ready;
    if (!mine.signal.aborted) await load(firstPage(resource, query), false);
  };

  /** As many records as shown, read again from the first page: the place kept, the colleague's change in it. */
  const refresh = () =>
    inTurn(async (signal) => {
      const wanted = Math.max(shownNow.current.length, query.pageSize);
      const read: AnyRecord[] = [];
      let page: PageRequest | undefined = firstPage(resource, query);
      let counted: number | undefined;
      while (page !== undefined && read.length < wanted) {
        const asked: PageRequest = page;
        const answer = await refreshing.run(() => records.listPage(asked, { signal }));
        if (answer === undefined || signal.aborted) return;
        counted ??= answer.total;
        read.push(...answer.records.filter((record) => !read.some((had) => had.id === record.id)));
        page = answer.next;
      }
      for (const id of held.current) if (!read.some((record) => record.id === id)) heldBack.current.add(id);
      setShown((before) => keepingHeld(before, read, held.current));
      setNext(page);
      setTotal(counted);
      setReadFor(query);
    });

  useEffect(() => {
    void reload();
    return () => {
      reads.current.abort();
    };
  }, [records, query.pageSize, query.search, query.order.column, query.order.descending]);

  // Called by listeners and cleanups that outlive a render: always the latest query's reading.
  const latestRefresh = useRef(refresh);
  latestRefresh.current = refresh;
  useRefreshOnChanges(resource, () => latestRefresh.current());

  // Another search's rows and total, shown under this one's, would pass for its result (a
  // search that failed, or waits out a 503): none are shown until its own load.
  const current = readFor?.search === query.search;
  return {
    order: readFor?.order ?? query.order,
    shown: current ? shown : [],
    next: current ? next : undefined,
    total: current ? total : undefined,
    loaded: loaded && current,
    listing,
    refreshing,
    reload,
    refresh,
    loadMore: () => (next === undefined ? Promise.resolve() : load(next, true)),
    changed: (record) => {
      setShown((before) => before.map((had) => (had.id === record.id ? record : had)));
    },
    removed: (id) => {
      setShown((before) => before.filter((had) => had.id !== id));
      setTotal((count) => (count === undefined ? count : Math.max(0, count - 1)));
    },
    // In the console's own order, newest first, a new record is at the top: shown there at
    // once. Under a search or another order, where it belongs is the service's to say.
    created: (record) => {
      if (query.search !== '' || !isDefaultOrder(query.order)) return;
      setShown((before) => [record, ...before.filter((had) => had.id !== record.id)]);
      setTotal((count) => (count === undefined ? count : count + 1));
    },
    hold: (id, holding) => {
      if (holding) held.current.add(id);
      else held.current.delete(id);
      if (!holding && heldBack.current.delete(id)) void latestRefresh.current();
    },
  };
}
