import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { SQLITE_READONLY_DBMOVED, sqliteFailure } from './sqlite-errors.js';

/** Which file a path names: its device and inode, `undefined` when nothing is there. */
type Identity = `${bigint}:${bigint}` | undefined;

function identityOf(stats: { dev: bigint; ino: bigint }): Identity {
  return `${stats.dev}:${stats.ino}`;
}

/**
 * Tells whether the file a connection opened is still the one at its path. SQLite keeps
 * writing to a file deleted or replaced under it (in WAL mode it never notices), and those
 * writes end with the process: the next start finds a new, empty file. node:sqlite shows no
 * descriptor to `fstat`, so the path is read right after opening and compared later.
 */
export class FileIdentity {
  readonly #path: string;
  readonly #opened: Identity;

  /** Call right after the connection opened `path`. */
  constructor(path: string) {
    this.#path = path;
    this.#opened = FileIdentity.#read(path);
  }

  /** Whether the path still names the opened file; one `stat`, on the calling thread. */
  isUnchanged(): boolean {
    return this.#opened !== undefined && FileIdentity.#read(this.#path) === this.#opened;
  }

  /** The same, without holding the calling thread. */
  async isUnchangedAsync(): Promise<boolean> {
    const now = await stat(this.#path, { bigint: true }).then(identityOf, () => undefined);
    return this.#opened !== undefined && now === this.#opened;
  }

  static #read(path: string): Identity {
    try {
      return identityOf(statSync(path, { bigint: true }));
    } catch {
      // Gone, or no longer reachable: either way not the file that was opened.
      return undefined;
    }
  }
}

/** The failure of a call made when the path no longer names the opened file, as node:sqlite would report it. */
export function fileMovedError(): Error {
  return sqliteFailure('the path no longer names the file this process opened: deleted or replaced while in use', SQLITE_READONLY_DBMOVED);
}
