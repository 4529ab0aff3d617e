import { useEffect, useRef, useState } from 'preact/hooks';
import { FailureNotice } from './FailureNotice.js';
import { type ListQuery } from './list-query.js';
import { RecordTable } from './RecordTable.js';
import { type AnyRecord, type ConsoleResource, type Records } from './resources.js';
import { hrefOf } from './route.js';
import { useOperation, useServices } from './services.js';
import { words } from './texts.js';

interface Props {
  readonly resource: ConsoleResource;
  readonly records: Records;
  readonly id: string;
  /** The list's search and order, which closing the record goes back to. */
  readonly listQuery: ListQuery;
  readonly onChanged: (record: AnyRecord) => void;
  readonly onRemoved: (id: string) => void;
}

/** The record a link opened (`#/escalas/{id}`), such as the one a conflict named, wherever it is in the list. */
export function OpenedRecord({ resource, records, id, listQuery, onChanged, onRemoved }: Props) {
  const { live } = useServices();
  const reading = useOperation();
  const [record, setRecord] = useState<AnyRecord | undefined>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);

  const read = async () => {
    setRecord(await reading.run(() => records.find(id)));
    heading.current?.focus();
  };
  useEffect(() => {
    void read();
  }, [id, records]);
  // A colleague's update shows at once; after a delete, reading it again says it is gone.
  useEffect(
    () =>
      live.listen((change) => {
        if (change !== undefined && (change.resource !== resource.name || change.recordId !== id)) return;
        if (change?.data == null) void reading.run(() => records.find(id)).then(setRecord);
        else setRecord(change.data);
      }),
    [live, resource, id, records],
  );

  return (
    <section class="opened" aria-labelledby="opened-heading">
      <h2 id="opened-heading" ref={heading} tabIndex={-1}>
        {words.opened}
      </h2>
      <FailureNotice failure={reading.failure} resource={resource} onRetry={() => void read()} />
      {record !== undefined && (
        <RecordTable
          resource={resource}
          records={records}
          shown={[record]}
          caption={words.opened}
          onChanged={(changed) => {
            setRecord(changed);
            onChanged(changed);
          }}
          onRemoved={(removed) => {
            onRemoved(removed);
            location.hash = hrefOf(resource, undefined, listQuery);
          }}
        />
      )}
      <p>
        <a href={hrefOf(resource, undefined, listQuery)}>{words.closeOpened}</a>
      </p>
    </section>
  );
}
