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
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  useEffect(() => {
    const shown = dialog.current;
    shown?.showModal();
    return () => shown?.close();
  }, []);
  useEffect(() => {
    // A failure's "Recarregar o registro" goes once pressed, and the focus with it: back to
    // "Cancelar", where the dialog opened, rather than to the page under the modal.
    if (dialog.current?.contains(document.activeElement) === false) cancel.current?.focus();
  }, [failure, text]);
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
        {/* Not disabled while it deletes: a disabled button would drop the focus. */}
        <button type="button" class="danger" aria-disabled={busy} onClick={busy ? undefined : onConfirm}>
          {words.remove}
        </button>
        <button type="button" ref={cancel} class="secondary" autofocus onClick={onClose}>
          {words.cancel}
        </button>
      </div>
    </dialog>
  );
}
