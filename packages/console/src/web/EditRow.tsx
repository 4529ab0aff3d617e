import { useEffect, useId, useRef } from 'preact/hooks';
import { type Failure } from './failure.js';
import { FailureNotice } from './FailureNotice.js';
import { type AnyRecord, type ConsoleResource } from './resources.js';
import { words } from './texts.js';

interface Props {
  readonly resource: ConsoleResource;
  /** The record as last read, whose entity tag the save will send. */
  readonly editing: AnyRecord;
  readonly text: string;
  readonly busy: boolean;
  readonly failure: Failure | undefined;
  /** After a reload: what the operator had typed, which the reload replaced. */
  readonly reloadedMine: string | undefined;
  readonly onText: (text: string) => void;
  readonly onSave: () => void;
  readonly onCancel: () => void;
  readonly onReload: () => void;
}

/** A row turned into its edit form: Enter saves, Escape or "Cancelar" leaves it as it was. */
export function EditRow({ resource, editing, text, busy, failure, reloadedMine, onText, onSave, onCancel, onReload }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  useEffect(() => {
    input.current?.focus();
  }, [editing]);
  useEffect(() => {
    // A refused save is about the text: back to its field, which the failure describes.
    if (failure !== undefined) input.current?.focus();
  }, [failure]);
  return (
    <tr role="row" class="editing">
      <td role="cell" colSpan={4}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!busy) onSave();
          }}
        >
          <label for={id}>{words.editing(resource.textOf(editing))}</label>
          <div class="field-row">
            <input
              id={id}
              ref={input}
              type="text"
              autocomplete="off"
              value={text}
              aria-invalid={failure !== undefined}
              aria-describedby={failure === undefined ? undefined : `${id}-failure`}
              onInput={(event) => {
                onText(event.currentTarget.value);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Escape') onCancel();
              }}
            />
            {/* Not disabled while it saves: a disabled button would drop the focus. */}
            <button type="submit" aria-disabled={busy}>
              {busy ? words.saving : words.save}
            </button>
            <button type="button" class="secondary" onClick={onCancel}>
              {words.cancel}
            </button>
          </div>
          {reloadedMine !== undefined && failure === undefined && <p class="info">{words.reloaded(reloadedMine)}</p>}
          <FailureNotice failure={failure} resource={resource} id={`${id}-failure`} onReload={onReload} />
        </form>
      </td>
    </tr>
  );
}
