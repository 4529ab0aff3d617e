import { realpathSync, statSync } from 'node:fs';
import { Gauge, type Registry } from 'prom-client';

/**
 * The sizes of the SQLite file and of its write-ahead log, read from the disk at each
 * scrape. A log that keeps growing means checkpoints cannot copy it back into the file (a
 * read held open for long): the disk fills with it. Not a number while the file is gone
 * from its path, which the storage reports as not ready.
 */
export function registerSqliteSizes(registry: Registry, path: string): void {
  const size = (name: string, help: string, file: () => string, missing: number): void => {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(sizeOf(file, missing));
      },
    });
  };
  // SQLite keeps its -wal beside the file a link leads to.
  size('workplan_sqlite_file_bytes', 'Size of the SQLite database file (SQLITE_PATH), in bytes', () => path, Number.NaN);
  size('workplan_sqlite_wal_bytes', 'Size of the SQLite write-ahead log (SQLITE_PATH-wal), in bytes; 0 when there is none', () => `${realpathSync(path)}-wal`, 0);
}

function sizeOf(file: () => string, missing: number): number {
  try {
    return statSync(file()).size;
  } catch {
    return missing;
  }
}
