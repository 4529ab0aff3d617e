import { useId, useState } from 'preact/hooks';
import { ExportButton } from './ExportButton.js';
import { FileReading } from './FileReading.js';
import { importFileOf, type ImportFile } from './import-file.js';
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
  // The file chosen, until its import ends; null when it could not be read as text.
  const [file, setFile] = useState<ImportFile | null | undefined>(undefined);
  const [running, setRunning] = useState<Running | undefined>(undefined);
  const [report, setReport] = useState<{ readonly file: ImportFile; readonly lines: readonly ReportLine[] } | undefined>(undefined);
  const fileId = useId();
  const helpId = useId();

  const choose = async (input: HTMLInputElement) => {
    setReport(undefined);
    const chosen = input.files?.[0];
    setFile(chosen === undefined ? undefined : (importFileOf(new Uint8Array(await chosen.arrayBuffer())) ?? null));
  };

  const run = async (chosen: ImportFile) => {
    const lines: ReportLine[] = [];
    const importing = startImport(records, chosen.rows, {
      onRow: (line, done) => {
        lines.push(line);
        setRunning((now) => now && { ...now, done, waiting: '' });
      },
      onRetry: ({ delayMs }, row) => {
        setRunning((now) => now && { ...now, waiting: `${words.line} ${row.line}: ${words.unavailable(Math.ceil(delayMs / 1000))}` });
      },
      onRefused: refused,
    });
    setRunning({ stop: importing, done: 0, total: chosen.rows.length, waiting: '' });
    setReport({ file: chosen, lines: await importing.finished });
    setRunning(undefined);
    setFile(undefined);
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
        {file === null && <p role="alert">{words.importUnreadable}</p>}
        {file && running === undefined && <FileReading file={file} />}
        {file && running === undefined && (
          file.rows.length === 0 ? (
            <p role="alert">{words.importNothing}</p>
          ) : (
            <button type="button" onClick={() => void run(file)}>
              {words.importStart(file.rows.length)}
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
        {report !== undefined && <ImportReport resource={resource} file={report.file} report={report.lines} />}
      </div>
    </section>
  );
}
