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

/** A record's history in a modal dialog: each write, oldest first, who made it and when, the text before and after. */
export function RecordHistory({ resource, records, record, onClose }: Props) {
  const { live } = useServices();
  const reading = useOperation();
  const [changes, setChanges] = useState<readonly RecordChange[] | undefined>(undefined);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  const read = async () => {
    const found = await reading.run(() => records.history(record.id));
    if (found !== undefined) setChanges(found);
  };
  useEffect(() => {
    const shown = dialog.current;
    shown?.showModal();
    void read();
    return () => shown?.close();
  }, []);
  // A colleague's write while the dialog is open joins the history at once.
  useEffect(
    () =>
      live.listen((change) => {
        if (change === undefined) void read();
        else if (change.resource === resource.name && change.recordId === record.id) {
          setChanges((before) => (before === undefined || before.some((had) => had.id === change.id) ? before : [...before, change]));
        }
      }),
    [live, resource, record.id],
  );

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
      <FailureNotice failure={reading.failure} resource={resource} onRetry={() => void read()} />
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
        <button type="button" class="secondary" autofocus onClick={onClose}>
          {words.historyClose}
        </button>
      </div>
    </dialog>
  );
}
