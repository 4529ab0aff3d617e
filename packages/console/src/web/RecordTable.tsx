import { RecordRow } from './RecordRow.js';
import { type AnyRecord, type ConsoleResource, type Records } from './resources.js';
import { words } from './texts.js';

interface Props {
  readonly resource: ConsoleResource;
  readonly records: Records;
  readonly shown: readonly AnyRecord[];
  readonly caption: string;
  readonly onChanged: (record: AnyRecord) => void;
  readonly onRemoved: (id: string) => void;
}

/** Records as rows, each with its edit and delete; on a narrow screen each row becomes a card (console.css). */
export function RecordTable({ resource, records, shown, caption, onChanged, onRemoved }: Props) {
  return (
    <table class="records">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{resource.words.column}</th>
          <th scope="col">{words.createdAt}</th>
          <th scope="col">{words.updatedAt}</th>
          <th scope="col">{words.actions}</th>
        </tr>
      </thead>
      <tbody>
        {shown.map((record) => (
          <RecordRow key={record.id} resource={resource} records={records} record={record} onChanged={onChanged} onRemoved={onRemoved} />
        ))}
      </tbody>
    </table>
  );
}
