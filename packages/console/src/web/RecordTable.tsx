import { type ListOrder, type SortColumn } from './list-query.js';
import { RecordRow } from './RecordRow.js';
import { type AnyRecord, type ConsoleResource, type Records } from './resources.js';
import { words } from './texts.js';

interface Props {
  readonly resource: ConsoleResource;
  readonly records: Records;
  readonly shown: readonly AnyRecord[];
  readonly caption: string;
  /** The list's order, and how to change it; a table of one opened record has none. */
  readonly sorting?: { readonly order: ListOrder; readonly onSort: (order: ListOrder) => void };
  readonly onChanged: (record: AnyRecord) => void;
  readonly onRemoved: (id: string) => void;
  readonly onHold?: (id: string, held: boolean) => void;
}

/**
 * Records as rows, each with its edit and delete; on a narrow screen each row becomes a card
 * (console.css). The roles are spelled out because a browser drops a table's semantics
 * once CSS changes its display, and a screen reader would lose the rows and cells.
 */
export function RecordTable({ resource, records, shown, caption, sorting, onChanged, onRemoved, onHold }: Props) {
  const sortable: readonly (readonly [SortColumn, string])[] = [
    ['text', resource.words.column],
    ['createdAt', words.createdAt],
    ['updatedAt', words.updatedAt],
  ];
  return (
    <table class="records" role="table" aria-label={caption}>
      <caption class="visually-hidden">{caption}</caption>
      <thead role="rowgroup">
        <tr role="row">
          {sortable.map(([column, label]) =>
            sorting === undefined ? (
              <th key={column} scope="col" role="columnheader">{label}</th>
            ) : (
              <SortableHeader
                key={column}
                label={label}
                sorted={sorting.order.column === column ? sorting.order : undefined}
                onSort={(descending) => { sorting.onSort({ column, descending }); }}
              />
            ),
          )}
          <th scope="col" role="columnheader">{words.actions}</th>
        </tr>
      </thead>
      <tbody role="rowgroup">
        {shown.map((record) => (
          <RecordRow
            key={record.id}
            resource={resource}
            records={records}
            record={record}
            onChanged={onChanged}
            onRemoved={onRemoved}
            {...(onHold === undefined ? {} : { onHold })}
          />
        ))}
      </tbody>
    </table>
  );
}

interface HeaderProps {
  readonly label: string;
  /** The list's order, when it is by this column. */
  readonly sorted: ListOrder | undefined;
  readonly onSort: (descending: boolean) => void;
}

/** A column's header that orders the list by it: ascending first, then reversed on each press. */
function SortableHeader({ label, sorted, onSort }: HeaderProps) {
  const direction = sorted === undefined ? undefined : sorted.descending ? 'descending' : 'ascending';
  return (
    <th scope="col" role="columnheader" aria-sort={direction}>
      <button type="button" class="sort" onClick={() => { onSort(sorted?.descending === false); }}>
        {label}
        <span class="sort-mark" aria-hidden="true">
          {direction === undefined ? '↕' : direction === 'ascending' ? '▲' : '▼'}
        </span>
      </button>
    </th>
  );
}
