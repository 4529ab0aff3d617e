import { type PageRequest } from '@workplan/client';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { CreateForm } from './CreateForm.js';
import { FailureNotice } from './FailureNotice.js';
import { OpenedRecord } from './OpenedRecord.js';
import { RecordTable } from './RecordTable.js';
import { type AnyRecord, type ConsoleResource } from './resources.js';
import { useOperation, useServices } from './services.js';
import { Spreadsheets } from './Spreadsheets.js';
import { words } from './texts.js';

const PAGE_SIZES = [10, 25, 100] as const;

interface Props {
  readonly resource: ConsoleResource;
  readonly openedId: string | undefined;
}

/** A resource's tab: the record a link opened, a form for a new one, the paged table, and its spreadsheets. */
export function ResourcePanel({ resource, openedId }: Props) {
  const { client } = useServices();
  const records = useMemo(() => resource.recordsOf(client), [resource, client]);
  const listing = useOperation();
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const [shown, setShown] = useState<readonly AnyRecord[]>([]);
  const [next, setNext] = useState<PageRequest | undefined>(undefined);
  const [loaded, setLoaded] = useState(false);
  const listHeading = useRef<HTMLHeadingElement>(null);

  /** A page from the service; a later page is added below, without the records already shown. */
  const load = async (page: PageRequest, more: boolean) => {
    const answer = await listing.run(() => records.listPage(page));
    if (answer === undefined) return;
    setShown((before) => (more ? [...before, ...answer.records.filter((record) => !before.some((had) => had.id === record.id))] : answer.records));
    setNext(answer.next);
    setLoaded(true);
  };
  const reload = () => load({ limit: pageSize }, false);
  useEffect(() => {
    void reload();
  }, [records, pageSize]);

  const changed = (record: AnyRecord) => {
    setShown((before) => before.map((had) => (had.id === record.id ? record : had)));
  };
  const removed = (id: string) => {
    setShown((before) => before.filter((had) => had.id !== id));
    // The row that held the focus is gone: keyboard users go on from the list's heading,
    // once the confirmation (a modal, which keeps focus inside it while open) has closed.
    requestAnimationFrame(() => listHeading.current?.focus());
    // The records after it moved up one place: the next page starts one earlier.
    setNext((page) => (page === undefined ? page : { ...page, skip: Math.max(0, (page.skip ?? 0) - 1) }));
  };
  // New records come last in the service's order: shown at once when the last page is.
  const created = (record: AnyRecord) => {
    if (next === undefined) setShown((before) => [...before, record]);
  };

  return (
    <>
      {openedId !== undefined && <OpenedRecord resource={resource} records={records} id={openedId} onChanged={changed} onRemoved={removed} />}
      <CreateForm resource={resource} records={records} onCreated={created} />
      <section class="list" aria-labelledby="list-heading" aria-busy={listing.busy}>
        <div class="list-bar">
          <h2 id="list-heading" ref={listHeading} tabIndex={-1}>
            {words.listHeading}
          </h2>
          <label>
            {words.pageSize}{' '}
            <select
              value={String(pageSize)}
              onChange={(event) => {
                setPageSize(Number(event.currentTarget.value));
              }}
            >
              {PAGE_SIZES.map((size) => (
                <option key={size} value={String(size)}>
                  {size}
                </option>
              ))}
            </select>
          </label>
        </div>
        <FailureNotice failure={listing.failure} resource={resource} onRetry={() => void (loaded && next !== undefined ? load(next, true) : reload())} />
        {loaded && shown.length === 0 && <p class="empty">{words.empty}</p>}
        {shown.length > 0 && (
          <RecordTable resource={resource} records={records} shown={shown} caption={resource.words.title} onChanged={changed} onRemoved={removed} />
        )}
        <div class="list-foot">
          {loaded && <p>{words.showing(shown.length, next !== undefined)}</p>}
          {next !== undefined && (
            <button type="button" disabled={listing.busy} onClick={() => void load(next, true)}>
              {listing.busy ? words.loading : words.loadMore}
            </button>
          )}
        </div>
      </section>
      <Spreadsheets resource={resource} records={records} onImported={() => void reload()} />
    </>
  );
}
