import { useEffect, useState } from 'preact/hooks';
import { type Failure } from './failure.js';
import { type ImportFile } from './import-file.js';
import { startImport, type ImportStop, type ReportLine } from './import-rows.js';
import { type ConsoleResource, type Records } from './resources.js';
import { useServices } from './services.js';
import { words } from './texts.js';

// The clerk's one import at a time, kept above the tabs: a click on the other tab neither
// drops its progress and report nor lets a second import start over it.

/** The import running, or the last one, with its report once it ended. */
export interface ImportRun {
  readonly resource: ConsoleResource;
  readonly file: ImportFile;
  readonly stop: ImportStop;
  readonly done: number;
  /** What the import waits for, when it waits out an outage. */
  readonly waiting: string;
  /** What became of each row, once the import ended. */
  readonly report: readonly ReportLine[] | undefined;
}

export interface ImportDesk {
  readonly current: ImportRun | undefined;
  /** Tells `listener` each change of `current`; returns how to stop telling it. */
  watch(listener: () => void): () => void;
  /** Starts importing `file`, unless an import is running. */
  start(resource: ConsoleResource, records: Records, file: ImportFile): void;
  /** Asks the running import to stop: at once while it waits, else once the row sent is answered. */
  cancel(): void;
  /** Forgets the last import's report (a new file was chosen). */
  clear(): void;
}

/** Whether an import is running: its report is not there yet. */
export function isRunning(run: ImportRun | undefined): run is ImportRun & { readonly report: undefined } {
  return run !== undefined && run.report === undefined;
}

/** A desk for one signed-in session; a refused key goes to `refused`. */
export function createImportDesk(refused: (failure: Failure) => void): ImportDesk {
  const listeners = new Set<() => void>();
  let current: ImportRun | undefined;
  const change = (next: ImportRun | undefined) => {
    current = next;
    for (const listener of listeners) listener();
  };
  // Only the import it was told about: the one running now.
  const update = (stop: ImportStop, changes: Partial<ImportRun>) => {
    if (current?.stop === stop) change({ ...current, ...changes });
  };
  return {
    get current() {
      return current;
    },
    watch: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start: (resource, records, file) => {
      if (isRunning(current)) return;
      const importing = startImport(records, file.rows, {
        onRow: (_, done) => { update(importing, { done, waiting: '' }); },
        onRetry: ({ delayMs }, row) => { update(importing, { waiting: `${words.line} ${row.line}: ${words.unavailable(Math.ceil(delayMs / 1000))}` }); },
        onRefused: refused,
      });
      change({ resource, file, stop: importing, done: 0, waiting: '', report: undefined });
      void importing.finished.then((report) => { update(importing, { report }); });
    },
    cancel: () => {
      if (!isRunning(current)) return;
      current.stop.request();
      change({ ...current });
    },
    clear: () => {
      if (current !== undefined && !isRunning(current)) change(undefined);
    },
  };
}

/** The session's import as it is now, the component rendered again at each change. */
export function useImportRun(): ImportRun | undefined {
  const { imports } = useServices();
  const [run, setRun] = useState(imports.current);
  useEffect(() => {
    setRun(imports.current);
    return imports.watch(() => { setRun(imports.current); });
  }, [imports]);
  return run;
}
