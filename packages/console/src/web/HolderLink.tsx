import { useEffect, useMemo, useState } from 'preact/hooks';
import { type ConsoleResource } from './resources.js';
import { hrefOf } from './route.js';
import { useServices } from './services.js';
import { words } from './texts.js';

interface Props {
  readonly resource: ConsoleResource;
  /** The record that already holds the value, from the conflict's `existingId`. */
  readonly id: string;
}

/** Names the record a conflict is with (its text as stored, which may differ in case or spaces), with a link to open it. */
export function HolderLink({ resource, id }: Props) {
  const { client } = useServices();
  const records = useMemo(() => resource.recordsOf(client), [resource, client]);
  const [text, setText] = useState<string | undefined>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    // Only a courtesy: without it the link alone still leads there.
    records.find(id, { signal: controller.signal, retry: false }).then(
      (holder) => { setText(resource.textOf(holder)); },
      () => undefined,
    );
    return () => { controller.abort(); };
  }, [records, id]);
  return (
    <p>
      {text !== undefined && `${resource.words.heldBy(text)} `}
      <a href={hrefOf(resource, id)}>{words.openExisting}</a>
    </p>
  );
}
