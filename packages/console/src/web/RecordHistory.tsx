import { type RecordChange } from '@workplan/client';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { FailureNotice } from './FailureNotice.js';
import { type AnyRecord, type ConsoleResource, type Records } from './resources.js';
import { useOperation, useServices } from './services.js';
import { keyNameOf, quoted, shownDate, words } from './texts.js';

interface Props {
  readonly resource: ConsoleResource;
  readonly records: Records;
  readonly record: AnyRecord;
  readonly onClose: () => void;
}

/** What the dialog shows: the changes read so far, oldest first, and the `after` of the next page while more follow. */
interface Shown {
  readonly changes: readonly RecordChange[];
  readonly next: string | undefined;
}

/** Changes a page of the dialog shows: a screenful a clerk reads, fewer than the service's default page. */
const HISTORY_PAGE = 20;

/**
 * A record's history in a modal dialog: each write, oldest first, who made it and when, the
 * text before and after. The service answers it a page at a time: the first page shows at
 * once, and the clerk loads the next ones, as a list's.
 */
export function RecordHistory({ resource, records, record, onClose }: Props) {
  const { live } = useServices();
  const reading = useOperation();
  const [shown, setShown] = useState<Shown | undefined>(undefined);
  // What the live listener reads: the state of the last render.
  const latest = useRef<Shown | undefined>(undefined);
  latest.current = shown;
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();

  /** Reads the page after `after` (the first without it) and shows it after what is shown, each change once. */
  const readFrom = async (after: string | undefined) => {
    const page = await reading.run(() => records.historyPage(record.id, { after, limit: HISTORY_PAGE }));
    if (page === undefined) return undefined;
    setShown((before) => {
      const had = after === undefined || before === undefined ? [] : before.changes;
      const added = page.changes.filter((change) => !had.some((kept) => kept.id === change.id));
      return { changes: [...had, ...added], next: page.next?.after };
    });
    return page;
  };
  /** Reads on from what is shown: the next page, or, when every page was read, what came after the last change. */
  const readOn = () => {
    const now = latest.current;
    return readFrom(now === undefined ? undefined : (now.next ?? now.changes.at(-1)?.id));
  };
  const loadMore = async () => {
    const page = await readOn();
    // The button goes with the last page: the focus goes to the dialog's other button, not to the page behind.
    if (page !== undefined && page.next === undefined) closeButton.current?.focus();
  };
  useEffect(() => {
    const opened = dialog.current;
    opened?.showModal();
    void readFrom(undefined);
    return () => opened?.close();
  }, []);
  // A colleague's write while the dialog is open joins the history at once, when its last page is shown (else a later page holds it).
  useEffect(
    () =>
      live.listen((change) => {
        // The feed came back after a break: what was missed follows the last change shown.
        if (change === undefined) {
          if (latest.current?.next === undefined) void readOn();
        } else if (change.resource === resource.name && change.recordId === record.id) {
          setShown((before) =>
            before === undefined || before.next !== undefined || before.changes.some((had) => had.id === change.id)
              ? before
              : { ...before, changes: [...before.changes, change] },
          );
        }
      }),
    [live, resource, record.id],
  );

  const changes = shown?.changes;
  const textOf = (version: AnyRecord | null) => (version === null ? words.historyNothing : quoted(resource.textOf(version)));
  return (
    <dialog
      ref={dialog}
      class="history"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{words.historyOf(resource.textOf(record))}</h2>
      <FailureNotice failure={reading.failure} resource={resource} onRetry={() => void readOn()} />
      {changes === undefined && reading.busy && <p>{words.historyLoading}</p>}
      {changes?.length === 0 && <p>{words.historyEmpty}</p>}
      {changes !== undefined && changes.length > 0 && <p class="zone">{words.inTimeZone}</p>}
      {changes !== undefined && changes.length > 0 && (
        <ol class="changes">
          {changes.map((change) => (
            <li key={change.id}>
              <h3>{words.historyActions[change.action]}</h3>
              <dl>
                <dt>{words.historyWhen}</dt>
                <dd>
                  <time dateTime={change.at}>{shownDate(change.at)}</time>
                </dd>
                <dt>{words.historyWho}</dt>
                <dd>{keyNameOf(change.by)}</dd>
                <dt>{words.historyBefore}</dt>
                <dd>{textOf(change.previous)}</dd>
                <dt>{words.historyAfter}</dt>
                <dd>{textOf(change.data)}</dd>
              </dl>
            </li>
          ))}
        </ol>
      )}
      <div class="buttons">
        {shown?.next !== undefined && (
          // Not disabled while it loads: a disabled button would drop the focus, as the list's.
          <button type="button" class="secondary" aria-disabled={reading.busy} onClick={() => void (reading.busy ? undefined : loadMore())}>
            {reading.busy ? words.loading : words.historyMore}
          </button>
        )}
        <button type="button" ref={closeButton} class="secondary" autofocus onClick={onClose}>
          {words.historyClose}
        </button>
      </div>
    </dialog>
  );
}
