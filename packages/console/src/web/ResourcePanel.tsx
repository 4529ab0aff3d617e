import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { CreateForm } from './CreateForm.js';
import { FailureNotice } from './FailureNotice.js';
import { DEFAULT_QUERY } from './list-query.js';
import { OpenedRecord } from './OpenedRecord.js';
import { useRecordList } from './record-list.js';
import { RecordTable } from './RecordTable.js';
import { keepInAddress, type Route } from './route.js';
import { SearchBox } from './SearchBox.js';
import { useServices } from './services.js';
import { Spreadsheets } from './Spreadsheets.js';
import { words } from './texts.js';

interface Props {
  /** The page's address, read again at each change: a new object each time. */
  readonly route: Route;
}

/** A resource's tab: the record a link opened, a form for a new one, the list with its search and order, and its spreadsheets. */
export function ResourcePanel({ route }: Props) {
  const { resource, openedId } = route;
  const { client, resources } = useServices();
  const records = useMemo(() => resource.recordsOf(client), [resource, client]);
  const [query, setQuery] = useState(route.query ?? DEFAULT_QUERY);
  // The address says which list is shown: a link, a pasted address or the back button brings
  // its own. Only a link that opens a record and names no list (a conflict's holder) leaves it.
  const arrived = useRef(route);
  useEffect(() => {
    if (arrived.current === route) return;
    arrived.current = route;
    if (route.query !== undefined || route.openedId === undefined) setQuery(route.query ?? DEFAULT_QUERY);
  }, [route]);
  const { pageSizes } = resource;
  // A size the service refuses (an address kept from a service with a larger maximum) is the default.
  useEffect(() => {
    if (!pageSizes.includes(query.pageSize)) setQuery((now) => ({ ...now, pageSize: DEFAULT_QUERY.pageSize }));
  }, [pageSizes, query.pageSize]);
  const list = useRecordList(resource, records, query);
  const listHeading = useRef<HTMLHeadingElement>(null);
  // The address carries the list's search, order and page size, also after a link opened a record.
  useEffect(() => {
    keepInAddress(resources, resource, openedId, query);
  }, [resources, resource, openedId, query]);

  const removed = (id: string) => {
    list.removed(id);
    // The row that held the focus is gone: keyboard users go on from the list's heading,
    // once the confirmation (a modal, which keeps focus inside it while open) has closed.
    requestAnimationFrame(() => listHeading.current?.focus());
  };
  const loadMore = async () => {
    await list.loadMore();
    // After the last page the button goes, and the focus with it: back to the list's heading.
    requestAnimationFrame(() => {
      if (document.activeElement === document.body) listHeading.current?.focus();
    });
  };
  // A colleague's delete may take away the row that held the focus: keyboard users then go
  // on from the list's heading rather than from the top of the page.
  const lastFocused = useRef<Element | null>(null);
  useEffect(() => {
    if (document.activeElement === document.body && lastFocused.current?.isConnected === false) listHeading.current?.focus();
  }, [list.shown]);
  const searching = query.search !== '';
  const retry = () => {
    if (list.refreshing.failure !== undefined) void list.refresh();
    else void (list.loaded && list.next !== undefined ? loadMore() : list.reload());
  };

  return (
    <>
      {openedId !== undefined && <OpenedRecord resource={resource} records={records} id={openedId} listQuery={query} onChanged={list.changed} onRemoved={removed} />}
      <CreateForm resource={resource} records={records} onCreated={list.created} />
      <section
        class="list"
        aria-labelledby="list-heading"
        aria-busy={list.listing.busy}
        onFocusIn={(event) => {
          lastFocused.current = event.target instanceof Element ? event.target : null;
        }}
      >
        <div class="list-bar">
          <h2 id="list-heading" ref={listHeading} tabIndex={-1}>
            {words.listHeading}
          </h2>
          <SearchBox search={query.search} onSearch={(search) => { setQuery((now) => (now.search === search ? now : { ...now, search })); }} />
          <label>
            {words.pageSize}{' '}
            <select
              value={String(query.pageSize)}
              onChange={(event) => {
                const pageSize = Number(event.currentTarget.value);
                setQuery((now) => ({ ...now, pageSize }));
              }}
            >
              {pageSizes.map((size) => (
                <option key={size} value={String(size)}>
                  {size}
                </option>
              ))}
            </select>
          </label>
        </div>
        <p class="total" role="status">
          {list.total !== undefined && resource.words.counted(list.total, searching)}
        </p>
        <FailureNotice failure={list.listing.failure ?? list.refreshing.failure} resource={resource} onRetry={retry} />
        {list.loaded && list.shown.length === 0 && <p class="empty">{searching ? words.noneFound : words.empty}</p>}
        {list.shown.length > 0 && (
          <RecordTable
            resource={resource}
            records={records}
            shown={list.shown}
            caption={resource.words.title}
            sorting={{ order: list.order, onSort: (order) => { setQuery((now) => ({ ...now, order })); } }}
            onChanged={list.changed}
            onRemoved={removed}
            onHold={list.hold}
          />
        )}
        <div class="list-foot">
          {list.loaded && <p>{words.showing(list.shown.length, list.next !== undefined)}</p>}
          {list.shown.length > 0 && <p class="zone">{words.inTimeZone}</p>}
          {list.next !== undefined && (
            // Not disabled while it loads: a disabled button would drop the focus, and the place with it.
            <button type="button" aria-disabled={list.listing.busy} onClick={() => void (list.listing.busy ? undefined : loadMore())}>
              {list.listing.busy ? words.loading : words.loadMore}
            </button>
          )}
        </div>
      </section>
      <Spreadsheets resource={resource} records={records} onImported={() => void list.reload()} />
    </>
  );
}
