import { useId, useRef, useState } from 'preact/hooks';
import { FailureNotice } from './FailureNotice.js';
import { type AnyRecord, type ConsoleResource, type Records } from './resources.js';
import { useOperation, useServices } from './services.js';
import { words } from './texts.js';

interface Props {
  readonly resource: ConsoleResource;
  readonly records: Records;
  readonly onCreated: (record: AnyRecord) => void;
}

/** One field and a button: a new record; a broken rule or a clash is said beside the field. */
export function CreateForm({ resource, records, onCreated }: Props) {
  const { announce } = useServices();
  const [text, setText] = useState('');
  const creating = useOperation();
  const id = useId();
  const failureId = `${id}-failure`;
  const field = useRef<HTMLInputElement>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (creating.busy) return;
    const created = await creating.run(() => records.create(text));
    // Refused, the field is what the failure is about; created, it is where the next one goes.
    field.current?.focus();
    if (created === undefined) return;
    setText('');
    onCreated(created);
    announce(resource.words.created(resource.textOf(created)));
  };

  return (
    <form class="create" onSubmit={(event) => void submit(event)}>
      <label for={id}>{resource.words.newLabel}</label>
      <div class="field-row">
        <input
          id={id}
          ref={field}
          type="text"
          autocomplete="off"
          placeholder={resource.words.sample}
          value={text}
          aria-invalid={creating.failure !== undefined}
          aria-describedby={creating.failure === undefined ? undefined : failureId}
          onInput={(event) => {
            setText(event.currentTarget.value);
          }}
        />
        {/* Not disabled while it creates: a disabled button would drop the focus. */}
        <button type="submit" aria-disabled={creating.busy}>
          {creating.busy ? words.creating : words.create}
        </button>
      </div>
      <FailureNotice failure={creating.failure} resource={resource} id={failureId} />
    </form>
  );
}
