import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ConfirmDelete } from './ConfirmDelete.js';
import { FailureNotice } from './FailureNotice.js';
import { type AnyRecord, type ConsoleResource, type Records } from './resources.js';
import { useOperation, useServices } from './services.js';
import { shownDate, words } from './texts.js';

interface Props {
  readonly resource: ConsoleResource;
  readonly records: Records;
  readonly record: AnyRecord;
  readonly onChanged: (record: AnyRecord) => void;
  readonly onRemoved: (id: string) => void;
}

/**
 * One record, edited in place. An edit or a delete starts by reading the record again, so
 * it goes ahead only while the record is as shown (If-Match): someone else's change in
 * the meantime is reported and offered for reloading, never overwritten.
 */
export function RecordRow({ resource, records, record, onChanged, onRemoved }: Props) {
  const { announce } = useServices();
  const operation = useOperation();
  const [editing, setEditing] = useState<AnyRecord | undefined>(undefined);
  const [deleting, setDeleting] = useState<AnyRecord | undefined>(undefined);
  const [text, setText] = useState('');
  const [reloadedMine, setReloadedMine] = useState<string | undefined>(undefined);
  const input = useRef<HTMLInputElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const id = useId();
  const shown = resource.textOf(record);

  useEffect(() => {
    if (editing !== undefined) input.current?.focus();
  }, [editing]);

  /** The record as it is now, with its entity tag; the row shows it too. */
  const readAgain = async () => {
    const found = await operation.run(
      () => records.find(record.id),
      (failure) => {
        if (failure.gone !== true) return;
        announce(`«${shown}»: ${words.gone}`);
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

  const save = async (event: Event) => {
    event.preventDefault();
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
        announce(`«${shown}»: ${words.gone}`);
        onRemoved(record.id);
      },
    );
    if (done === true) {
      setDeleting(undefined);
      onRemoved(record.id);
      announce(words.removed(resource.textOf(deleting)));
    }
  };

  const reloadDelete = async () => {
    const found = await readAgain();
    if (found !== undefined) setDeleting(found);
  };

  if (editing !== undefined) {
    return (
      <tr role="row" class="editing">
        <td role="cell" colSpan={4}>
          <form onSubmit={(event) => void save(event)}>
            <label for={id}>{words.editing(resource.textOf(editing))}</label>
            <div class="field-row">
              <input
                id={id}
                ref={input}
                type="text"
                autocomplete="off"
                value={text}
                aria-invalid={operation.failure !== undefined}
                aria-describedby={operation.failure === undefined ? undefined : `${id}-failure`}
                onInput={(event) => {
                  setText(event.currentTarget.value);
                }}
                onKeyDown={(event) => {
                  if (event.key === 'Escape') stopEdit();
                }}
              />
              <button type="submit" disabled={operation.busy}>
                {operation.busy ? words.saving : words.save}
              </button>
              <button type="button" class="secondary" onClick={stopEdit}>
                {words.cancel}
              </button>
            </div>
            {reloadedMine !== undefined && operation.failure === undefined && <p class="info">{words.reloaded(reloadedMine)}</p>}
            <FailureNotice failure={operation.failure} resource={resource} id={`${id}-failure`} onReload={() => void reloadEdit()} />
          </form>
        </td>
      </tr>
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
        <button type="button" ref={editButton} class="secondary" aria-label={`${words.edit} «${shown}»`} onClick={() => void startEdit()}>
          {words.edit}
        </button>
        <button type="button" class="secondary danger" aria-label={`${words.remove} «${shown}»`} onClick={() => void startDelete()}>
          {words.remove}
        </button>
        {deleting === undefined && <FailureNotice failure={operation.failure} resource={resource} />}
        {deleting !== undefined && (
          <ConfirmDelete
            resource={resource}
            text={resource.textOf(deleting)}
            busy={operation.busy}
            failure={operation.failure}
            onConfirm={() => void confirmDelete()}
            onReload={() => void reloadDelete()}
            onClose={() => {
              setDeleting(undefined);
              operation.clear();
            }}
          />
        )}
      </td>
    </tr>
  );
}
