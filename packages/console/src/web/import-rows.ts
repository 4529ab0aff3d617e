import { WorkplanClientError, type RetryNotice } from '@workplan/client';
import { type ImportRow } from './import-file.js';
import { failureOf, isAbort, type Failure } from './failure.js';
import { type Records } from './resources.js';
import { words } from './texts.js';

/** What became of one row of the file. */
export type Outcome = 'created' | 'exists' | 'invalid' | 'failed' | 'skipped';

/** A line of the import's report. */
export interface ReportLine extends ImportRow {
  readonly outcome: Outcome;
  readonly reason: string;
  /** On `exists`: the record that already holds the value. */
  readonly existingId?: string;
}

/** How the import tells the screen what it is doing. */
export interface ImportWatch {
  readonly onRow: (line: ReportLine, done: number) => void;
  readonly onRetry: (notice: RetryNotice, row: ImportRow) => void;
  /** The key was refused: the import stops there. */
  readonly onRefused: (failure: Failure) => void;
}

/** Stops an import: at once while it waits to retry, else once the row being sent is answered. */
export interface ImportStop {
  readonly requested: boolean;
  request(): void;
}

// Waits before retrying a 503 are longer in an import than on a screen: the rows can wait.
const IMPORT_RETRY = { attempts: 5, maxDelayMs: 10_000 } as const;

/**
 * Creates a record per row, one at a time and in the file's order, so the report reads
 * like the file. A row answered with an error changed nothing, so the next row goes on.
 */
export function startImport(records: Records, rows: readonly ImportRow[], watch: ImportWatch): ImportStop & { readonly finished: Promise<ReportLine[]> } {
  const controller = new AbortController();
  let requested = false;
  let waitingUntil = 0;
  const report: ReportLine[] = [];
  const add = (line: ReportLine) => {
    report.push(line);
    watch.onRow(line, report.length);
  };
  const finished = (async () => {
    for (const row of rows) {
      if (requested) {
        add({ ...row, outcome: 'skipped', reason: words.importCancelled });
        continue;
      }
      const retry = {
        ...IMPORT_RETRY,
        onRetry: (notice: RetryNotice) => {
          waitingUntil = Date.now() + notice.delayMs;
          watch.onRetry(notice, row);
        },
      };
      try {
        await records.create(row.text, { signal: controller.signal, retry });
        add({ ...row, outcome: 'created', reason: '' });
      } catch (error) {
        if (error instanceof WorkplanClientError && error.code === 'UNAUTHORIZED') {
          requested = true;
          watch.onRefused(failureOf(error));
        }
        add(lineOfFailure(row, error, Date.now() < waitingUntil));
      }
      waitingUntil = 0;
    }
    return report;
  })();
  return {
    finished,
    get requested() {
      return requested;
    },
    request: () => {
      requested = true;
      // Abort only a wait: a row already sent is answered, so the report says what it did.
      if (Date.now() < waitingUntil) controller.abort();
    },
  };
}

function lineOfFailure(row: ImportRow, error: unknown, waiting: boolean): ReportLine {
  if (isAbort(error)) return { ...row, outcome: 'skipped', reason: waiting ? words.importCancelled : words.interrupted };
  const failure = failureOf(error);
  if (failure.existingId !== undefined) return { ...row, outcome: 'exists', reason: failure.detail, existingId: failure.existingId };
  if (error instanceof WorkplanClientError && error.code === 'VALIDATION_FAILED') {
    return { ...row, outcome: 'invalid', reason: failure.fieldIssue ?? failure.detail };
  }
  return { ...row, outcome: 'failed', reason: `${failure.message} ${failure.detail}` };
}
