import { useEffect, useId, useRef } from 'preact/hooks';
import { type Failure } from './failure.js';
import { FailureNotice } from './FailureNotice.js';
import { type ConsoleResource } from './resources.js';
import { words } from './texts.js';

interface Props {
  readonly resource: ConsoleResource;
  /** The record's text as last read. */
  readonly text: string;
  readonly busy: boolean;
  readonly failure: Failure | undefined;
  readonly onConfirm: () => void;
  readonly onReload: () => void;
  readonly onClose: () => void;
}

/** Asks before deleting, in a modal dialog: Escape or "Cancelar" keeps the record. */
export function ConfirmDelete({ resource, text, busy, failure, onConfirm, onReload, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const shown = dialog.current;
    shown?.showModal();
    return () => shown?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{words.removeTitle}</h2>
      <p>{words.removeQuestion(resource.words.theOne, text)}</p>
      <FailureNotice failure={failure} resource={resource} onReload={onReload} />
      <div class="buttons">
        <button type="button" class="danger" disabled={busy} onClick={onConfirm}>
          {words.remove}
        </button>
        <button type="button" class="secondary" autofocus onClick={onClose}>
          {words.cancel}
        </button>
      </div>
    </dialog>
  );
}
