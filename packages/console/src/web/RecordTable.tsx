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

/**
 * Records as rows, each with its edit and delete; on a narrow screen each row becomes a card
 * (console.css). The roles are spelled out because a browser drops a table's semantics
 * once CSS changes its display, and a screen reader would lose the rows and cells.
 */
export function RecordTable({ resource, records, shown, caption, onChanged, onRemoved }: Props) {
  return (
    <table class="records" role="table" aria-label={caption}>
      <caption class="visually-hidden">{caption}</caption>
      <thead role="rowgroup">
        <tr role="row">
          <th scope="col" role="columnheader">{resource.words.column}</th>
          <th scope="col" role="columnheader">{words.createdAt}</th>
          <th scope="col" role="columnheader">{words.updatedAt}</th>
          <th scope="col" role="columnheader">{words.actions}</th>
        </tr>
      </thead>
      <tbody role="rowgroup">
        {shown.map((record) => (
          <RecordRow key={record.id} resource={resource} records={records} record={record} onChanged={onChanged} onRemoved={onRemoved} />
        ))}
      </tbody>
    </table>
  );
}
