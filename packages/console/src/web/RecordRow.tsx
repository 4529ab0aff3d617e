import { useEffect, useRef, useState } from 'preact/hooks';
import { ConfirmDelete } from './ConfirmDelete.js';
import { EditRow } from './EditRow.js';
import { FailureNotice } from './FailureNotice.js';
import { RecordHistory } from './RecordHistory.js';
import { type AnyRecord, type ConsoleResource, type Records } from './resources.js';
import { useOperation, useServices } from './services.js';
import { shownDate, words } from './texts.js';

interface Props {
  readonly resource: ConsoleResource;
  readonly records: Records;
  readonly record: AnyRecord;
  readonly onChanged: (record: AnyRecord) => void;
  readonly onRemoved: (id: string) => void;
  /** Told while the row has its edit form or a dialog open, which a list keeps whatever a colleague does. */
  readonly onHold?: (id: string, held: boolean) => void;
}

/**
 * One record, edited in place. An edit or a delete starts by reading the record again, so
 * it goes ahead only while the record is as shown (If-Match): someone else's change in
 * the meantime is reported and offered for reloading, never overwritten.
 */
export function RecordRow({ resource, records, record, onChanged, onRemoved, onHold }: Props) {
  const { announce } = useServices();
  const operation = useOperation();
  const [editing, setEditing] = useState<AnyRecord | undefined>(undefined);
  const [deleting, setDeleting] = useState<AnyRecord | undefined>(undefined);
  const [text, setText] = useState('');
  const [reloadedMine, setReloadedMine] = useState<string | undefined>(undefined);
  const [showingHistory, setShowingHistory] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const historyButton = useRef<HTMLButtonElement>(null);
  const shown = resource.textOf(record);

  const open = editing !== undefined || deleting !== undefined || showingHistory;
  useEffect(() => {
    if (!open) return;
    onHold?.(record.id, true);
    return () => onHold?.(record.id, false);
  }, [open]);

  /** The record as it is now, with its entity tag; the row shows it too. */
  const readAgain = async () => {
    const found = await operation.run(
      () => records.find(record.id),
      (failure) => {
        if (failure.gone !== true) return;
        announce(words.goneOne(shown));
        onRemoved(record.id);
      },
    );
    if (found !== undefined) onChanged(found);
    return found;
  };

  const startEdit = async () => {
    const found = await readAgain();
    if (found === undefined) return;
    setText(resource.textOf(found));
    setReloadedMine(undefined);
    setEditing(found);
  };

  const stopEdit = () => {
    setEditing(undefined);
    operation.clear();
    requestAnimationFrame(() => editButton.current?.focus());
  };

  const save = async () => {
    if (editing === undefined) return;
    const updated = await operation.run(() => records.update(record.id, text, { ifMatch: editing }));
    if (updated === undefined) return;
    onChanged(updated);
    announce(words.saved(resource.textOf(updated)));
    stopEdit();
  };

  const reloadEdit = async () => {
    const mine = text;
    const found = await readAgain();
    if (found === undefined) return;
    setEditing(found);
    setText(resource.textOf(found));
    setReloadedMine(mine);
  };

  const startDelete = async () => {
    const found = await readAgain();
    if (found !== undefined) setDeleting(found);
  };

  const confirmDelete = async () => {
    if (deleting === undefined) return;
    const done = await operation.run(
      async () => {
        await records.delete(record.id, { ifMatch: deleting });
        return true;
      },
      (failure) => {
        if (failure.gone !== true) return;
        setDeleting(undefined);
        announce(words.goneOne(shown));
        onRemoved(record.id);
      },
    );
    if (done === true) {
      setDeleting(undefined);
      onRemoved(record.id);
      announce(resource.words.removed(resource.textOf(deleting)));
    }
  };

  const closeHistory = () => {
    setShowingHistory(false);
    // The dialog goes with the component, before it could give the focus back itself.
    requestAnimationFrame(() => historyButton.current?.focus());
  };

  const closeDelete = () => {
    setDeleting(undefined);
    operation.clear();
    // As for the history: the dialog goes before it could give the focus back itself.
    requestAnimationFrame(() => deleteButton.current?.focus());
  };

  const reloadDelete = async () => {
    const found = await readAgain();
    if (found !== undefined) setDeleting(found);
  };

  if (editing !== undefined) {
    return (
      <EditRow
        resource={resource}
        editing={editing}
        text={text}
        busy={operation.busy}
        failure={operation.failure}
        reloadedMine={reloadedMine}
        onText={setText}
        onSave={() => void save()}
        onCancel={stopEdit}
        onReload={() => void reloadEdit()}
      />
    );
  }

  return (
    <tr role="row">
      <td role="cell" data-label={resource.words.column} class="text">
        {shown}
      </td>
      <td role="cell" data-label={words.createdAt}>
        <time dateTime={record.createdAt}>{shownDate(record.createdAt)}</time>
      </td>
      <td role="cell" data-label={words.updatedAt}>
        <time dateTime={record.updatedAt}>{shownDate(record.updatedAt)}</time>
      </td>
      <td role="cell" data-label={words.actions} class="actions">
        <button type="button" ref={editButton} class="action" aria-label={words.editing(shown)} onClick={() => void startEdit()}>
          {words.edit}
        </button>
        <button type="button" ref={deleteButton} class="action danger" aria-label={words.removing(shown)} onClick={() => void startDelete()}>
          {words.remove}
        </button>
        <button type="button" ref={historyButton} class="action" aria-label={words.historyOf(shown)} onClick={() => { setShowingHistory(true); }}>
          {words.history}
        </button>
        {showingHistory && <RecordHistory resource={resource} records={records} record={record} onClose={closeHistory} />}
        {deleting === undefined && <FailureNotice failure={operation.failure} resource={resource} />}
        {deleting !== undefined && (
          <ConfirmDelete
            resource={resource}
            text={resource.textOf(deleting)}
            busy={operation.busy}
            failure={operation.failure}
            onConfirm={() => void confirmDelete()}
            onReload={() => void reloadDelete()}
            onClose={closeDelete}
          />
        )}
      </td>
    </tr>
  );
}
