import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ExportButton } from './ExportButton.js';
import { FileReading } from './FileReading.js';
import { importFileOf, valueHeadersOf, type ImportFile } from './import-file.js';
import { isRunning, useImportRun, type ImportRun } from './import-desk.js';
import { ImportReport } from './ImportReport.js';
import { type ConsoleResource, type Records } from './resources.js';
import { useServices } from './services.js';
import { words } from './texts.js';

interface Props {
  readonly resource: ConsoleResource;
  readonly records: Records;
  /** Records were created: the list should be read again. */
  readonly onImported: () => void;
}

/** Export to CSV, and import a CSV of values with a progress bar, a cancel and a per-row report. */
export function Spreadsheets({ resource, records, onImported }: Props) {
  const { imports, resources } = useServices();
  const run = useImportRun();
  const running = isRunning(run);
  // The file chosen, until its import starts; null when it could not be read as text.
  const [file, setFile] = useState<ImportFile | null | undefined>(undefined);
  // An import seen running here ends here: its report takes the focus, and its list reads itself again.
  const [watchedEnd, setWatchedEnd] = useState(false);
  const seenRunning = useRef<ImportRun | undefined>(undefined);
  useEffect(() => {
    if (running) {
      seenRunning.current = run;
      return;
    }
    const seen = seenRunning.current;
    seenRunning.current = undefined;
    if (seen === undefined || run?.stop !== seen.stop) return;
    setWatchedEnd(true);
    if (run.resource === resource && run.report?.some((line) => line.outcome === 'created') === true) onImported();
  }, [run]);
  const fileId = useId();
  const helpId = useId();

  const choose = async (input: HTMLInputElement) => {
    imports.clear();
    setWatchedEnd(false);
    const chosen = input.files?.[0];
    setFile(chosen === undefined ? undefined : (importFileOf(new Uint8Array(await chosen.arrayBuffer()), valueHeadersOf(resources)) ?? null));
  };

  const start = (chosen: ImportFile) => {
    setFile(undefined);
    imports.start(resource, records, chosen);
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
          disabled={running}
          onChange={(event) => void choose(event.currentTarget)}
        />
        {file === null && <p role="alert">{words.importUnreadable}</p>}
        {file && !running && <FileReading file={file} />}
        {file && !running && (
          file.rows.length === 0 ? (
            <p role="alert">{words.importNothing}</p>
          ) : (
            <button type="button" onClick={() => { start(file); }}>
              {words.importStart(file.rows.length)}
            </button>
          )
        )}
        {running && (
          <div class="progress">
            {run.resource !== resource && <p>{words.importElsewhere(run.resource.words.title)}</p>}
            <label for={`${fileId}-progress`}>{words.importProgress(run.done, run.file.rows.length)}</label>
            <progress id={`${fileId}-progress`} max={run.file.rows.length} value={run.done} />
            <p role="status">{run.waiting}</p>
            <button type="button" class="secondary" disabled={run.stop.requested} onClick={() => { imports.cancel(); }}>
              {words.importCancel}
            </button>
          </div>
        )}
        {run?.report !== undefined && <ImportReport resource={run.resource} file={run.file} report={run.report} takeFocus={watchedEnd} />}
      </div>
    </section>
  );
}
