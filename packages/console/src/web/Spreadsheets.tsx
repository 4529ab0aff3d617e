import { useId, useState } from 'preact/hooks';
import { importRowsOf, type ImportRow } from './csv.js';
import { ExportButton } from './ExportButton.js';
import { ImportReport } from './ImportReport.js';
import { startImport, type ImportStop, type ReportLine } from './import-rows.js';
import { type ConsoleResource, type Records } from './resources.js';
import { useServices } from './services.js';
import { words } from './texts.js';

interface Props {
  readonly resource: ConsoleResource;
  readonly records: Records;
  /** Records were created: the list should be read again. */
  readonly onImported: () => void;
}

interface Running {
  readonly stop: ImportStop;
  readonly done: number;
  readonly total: number;
  readonly waiting: string;
}

/** Export to CSV, and import a CSV of values with a progress bar, a cancel and a per-row report. */
export function Spreadsheets({ resource, records, onImported }: Props) {
  const { refused } = useServices();
  const [rows, setRows] = useState<readonly ImportRow[] | undefined>(undefined);
  const [running, setRunning] = useState<Running | undefined>(undefined);
  const [report, setReport] = useState<readonly ReportLine[] | undefined>(undefined);
  const fileId = useId();
  const helpId = useId();

  const choose = async (input: HTMLInputElement) => {
    setReport(undefined);
    const file = input.files?.[0];
    setRows(file === undefined ? undefined : importRowsOf(await file.text()));
  };

  const run = async (chosen: readonly ImportRow[]) => {
    const lines: ReportLine[] = [];
    const importing = startImport(records, chosen, {
      onRow: (line, done) => {
        lines.push(line);
        setRunning((now) => now && { ...now, done, waiting: '' });
      },
      onRetry: ({ delayMs }, row) => {
        setRunning((now) => now && { ...now, waiting: `${words.line} ${row.line}: ${words.unavailable(Math.ceil(delayMs / 1000))}` });
      },
      onRefused: refused,
    });
    setRunning({ stop: importing, done: 0, total: chosen.length, waiting: '' });
    setReport(await importing.finished);
    setRunning(undefined);
    setRows(undefined);
    if (lines.some((line) => line.outcome === 'created')) onImported();
  };

  return (
    <section class="sheets" aria-labelledby={`${fileId}-heading`}>
      <h2 id={`${fileId}-heading`}>{words.spreadsheets}</h2>
      <ExportButton resource={resource} records={records} />
      <div class="import">
        <label for={fileId}>{words.importFile}</label>
        <p id={helpId} class="help">
          {words.importHelp}
        </p>
        <input
          id={fileId}
          type="file"
          accept=".csv,text/csv"
          aria-describedby={helpId}
          disabled={running !== undefined}
          onChange={(event) => void choose(event.currentTarget)}
        />
        {rows !== undefined && running === undefined && (
          rows.length === 0 ? (
            <p role="alert">{words.importNothing}</p>
          ) : (
            <button type="button" onClick={() => void run(rows)}>
              {words.importStart(rows.length)}
            </button>
          )
        )}
        {running !== undefined && (
          <div class="progress">
            <label for={`${fileId}-progress`}>{words.importProgress(running.done, running.total)}</label>
            <progress id={`${fileId}-progress`} max={running.total} value={running.done} />
            <p role="status">{running.waiting}</p>
            <button type="button" class="secondary" disabled={running.stop.requested} onClick={() => { running.stop.request(); setRunning({ ...running }); }}>
              {words.importCancel}
            </button>
          </div>
        )}
        {report !== undefined && <ImportReport resource={resource} report={report} />}
      </div>
    </section>
  );
}
