import { useEffect, useRef } from 'preact/hooks';
import { FileReading } from './FileReading.js';
import { type ImportFile } from './import-file.js';
import { type Outcome, type ReportLine } from './import-rows.js';
import { type ConsoleResource } from './resources.js';
import { hrefOf } from './route.js';
import { words } from './texts.js';

interface Props {
  readonly resource: ConsoleResource;
  /** The file the lines came from, as it was read. */
  readonly file: ImportFile;
  readonly report: readonly ReportLine[];
  /** The import just ended in view: its progress and cancel went, and the focus with them. */
  readonly takeFocus: boolean;
}

/** What became of each row of the file, with a count of each outcome. */
export function ImportReport({ resource, file, report, takeFocus }: Props) {
  const count = (outcome: Outcome) => report.filter((line) => line.outcome === outcome).length;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // The report is what comes next; shown again on a return to the tab, it leaves the focus where it is.
    if (takeFocus) heading.current?.focus();
  }, [report, takeFocus]);
  return (
    <section class="report" aria-labelledby="import-report-heading">
      <h3 id="import-report-heading" ref={heading} tabIndex={-1}>{words.importReport}</h3>
      <FileReading file={file} />
      <p role="status">
        {resource.words.importSummary({ created: count('created'), exists: count('exists'), invalid: count('invalid'), failed: count('failed'), skipped: count('skipped') })}
      </p>
      <table class="report-table" role="table" aria-label={words.importReport}>
        <caption class="visually-hidden">{words.importReport}</caption>
        <thead role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">{words.line}</th>
            <th scope="col" role="columnheader">{resource.words.column}</th>
            <th scope="col" role="columnheader">{words.outcome}</th>
            <th scope="col" role="columnheader">{words.reason}</th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {report.map((line) => (
            <tr role="row" key={line.line} class={`outcome-${line.outcome}`}>
              <td role="cell" data-label={words.line}>{line.line}</td>
              <td role="cell" data-label={resource.words.column} class="text">
                {line.text}
              </td>
              <td role="cell" data-label={words.outcome}>{resource.words.outcomes[line.outcome]}</td>
              <td role="cell" data-label={words.reason}>
                {line.reason}{' '}
                {line.existingId !== undefined && <a href={hrefOf(resource, line.existingId)}>{words.openExisting}</a>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
