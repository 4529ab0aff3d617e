import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { SqliteStorage, type SqliteStorageOptions } from '../sqlite-storage.js';

/** Something closed after a test: a storage, a raw connection, a writer. */
interface Closable {
  close(): unknown;
}

/** Fresh folders and storages for each test of a file, closed and removed after it. */
export interface TempFiles {
  /** A new empty folder under the system's temp folder. */
  folder(): string;
  /** A path for a database file in a new folder. */
  databasePath(): string;
  /** Opens a storage that is closed after the test. */
  open(options: SqliteStorageOptions): SqliteStorage;
  /** Registers something else to close after the test, such as a raw connection. */
  closeAfter(closable: Closable): void;
}

/** Call at the top of a test file. */
export function useTempFiles(): TempFiles {
  const folders: string[] = [];
  const closables: Closable[] = [];

  afterEach(async () => {
    for (const closable of closables.splice(0).reverse()) await closable.close();
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  const folder = (): string => {
    const made = mkdtempSync(join(tmpdir(), 'workplan-sqlite-'));
    folders.push(made);
    return made;
  };

  return {
    folder,
    databasePath: () => join(folder(), 'workplan.db'),
    open(options) {
      const storage = SqliteStorage.open(options);
      closables.push(storage);
      return storage;
    },
    closeAfter(closable) {
      closables.push(closable);
    },
  };
}
