import { useState } from 'preact/hooks';
import { csvOf } from './csv.js';
import { FailureNotice } from './FailureNotice.js';
import { type AnyRecord, type ConsoleResource, type Records } from './resources.js';
import { useOperation, useServices } from './services.js';
import { fileDate, sheetDate, words } from './texts.js';

interface Props {
  readonly resource: ConsoleResource;
  readonly records: Records;
}

/** Every record of the resource, walking the pages to the end, saved as a CSV file. */
export function ExportButton({ resource, records }: Props) {
  const { announce } = useServices();
  const exporting = useOperation();
  const [read, setRead] = useState(0);

  const exportAll = async () => {
    if (exporting.busy) return;
    setRead(0);
    const all = await exporting.run(async () => {
      const found: AnyRecord[] = [];
      for await (const page of records.pages()) {
        found.push(...page.records);
        setRead(found.length);
      }
      return found;
    });
    if (all === undefined) return;
    // Local dates a spreadsheet in Portuguese reads as dates, then the exact instants.
    const header = [words.id, resource.words.column, ...words.sheetDates];
    const rows = all.map((record) => [record.id, resource.textOf(record), sheetDate(record.createdAt), sheetDate(record.updatedAt), record.createdAt, record.updatedAt]);
    const name = `${resource.words.fileName}-${fileDate()}.csv`;
    save(csvOf([header, ...rows]), name);
    announce(words.exported(all.length, name));
  };

  return (
    <div class="export">
      {/* Not disabled while it exports: a disabled button would drop the focus. */}
      <button type="button" aria-disabled={exporting.busy} onClick={() => void exportAll()}>
        {exporting.busy ? words.exporting(read) : words.exportCsv}
      </button>
      <FailureNotice failure={exporting.failure} resource={resource} />
    </div>
  );
}

/** Hands the text to the browser as a download; nothing leaves the page. */
function save(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 60_000);
}
