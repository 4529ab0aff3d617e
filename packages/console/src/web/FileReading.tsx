import { type ImportFile } from './import-file.js';
import { words } from './texts.js';

/** How a file chosen for an import was read: its encoding, and the header row left out. */
export function FileReading({ file }: { readonly file: ImportFile }) {
  return (
    <p class="file-reading">
      {words.readAs[file.encoding]}
      {file.header !== undefined && ` ${words.headerSkipped(file.header)}`}
    </p>
  );
}
