import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { WAL_FILES } from './database-files.js';
import { SQLITE_READONLY_DBMOVED, sqliteFailure } from './sqlite-errors.js';

/** Which file a path names: its device and inode, `undefined` when nothing is there. */
type Identity = `${bigint}:${bigint}` | undefined;

function identityOf(stats: { dev: bigint; ino: bigint }): Identity {
  return `${stats.dev}:${stats.ino}`;
}

/**
 * What a check found no longer as opened: the file itself (`file`), or only a file beside it
 * (`companion`: the file still holds everything committed once the -wal is checkpointed
 * into it, through the descriptor SQLite keeps); `undefined` when all is as opened.
 */
export type FileChange = { readonly of: 'file' | 'companion'; readonly what: string } | undefined;

/**
 * Tells whether the file a connection opened, and the files SQLite keeps beside it, are
 * still the ones at their paths. SQLite keeps writing to a file deleted or replaced under it
 * (in WAL mode it never notices), and those writes end with the process: the next start
 * finds a new, empty file, or a file without what its -wal held. node:sqlite shows no
 * descriptor to `fstat`, so each path is read and compared later: the file's right after
 * opening, each companion's the first time it is there (SQLite makes the -wal on the first
 * read), since it never goes while a connection is open.
 */
export class FileIdentity {
  readonly #path: string;
  readonly #opened: Identity;
  readonly #companions = new Map<string, Identity>();

  /** Call right after the connection opened `path` (it notes the companions there already). */
  constructor(path: string) {
    this.#path = path;
    this.#opened = FileIdentity.#read(path);
    this.change();
  }

  /** What changed at the paths; one `stat` each, on the calling thread. */
  change(): FileChange {
    return this.#compare((path) => FileIdentity.#read(path));
  }

  /** The same, without holding the calling thread. */
  async changeAsync(): Promise<FileChange> {
    const paths = [this.#path, ...WAL_FILES.map((suffix) => `${this.#path}${suffix}`)];
    const found = new Map(await Promise.all(paths.map(async (path) => [path, await stat(path, { bigint: true }).then(identityOf, () => undefined)] as const)));
    return this.#compare((path) => found.get(path));
  }

  #compare(identityAt: (path: string) => Identity): FileChange {
    if (this.#opened === undefined || identityAt(this.#path) !== this.#opened) return { of: 'file', what: 'deleted or replaced while in use' };
    for (const suffix of WAL_FILES) {
      const now = identityAt(`${this.#path}${suffix}`);
      const seen = this.#companions.get(suffix);
      if (seen === undefined) {
        if (now !== undefined) this.#companions.set(suffix, now);
      } else if (now !== seen) {
        return { of: 'companion', what: `its ${suffix} file was deleted or replaced while in use; restart the service` };
      }
    }
    return undefined;
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

/** The failure of a call made when the paths no longer name the files opened, as node:sqlite would report it. */
export function fileMovedError(change: NonNullable<FileChange>): Error {
  return sqliteFailure(`the path no longer names the file this process opened: ${change.what}`, SQLITE_READONLY_DBMOVED);
}

/**
 * Writes what the -wal holds into the file, through the descriptors the connection keeps
 * (the -wal may be gone from its path): what was committed then outlives the process.
 * Resolves whether all of it was; never waits for readers (`PASSIVE`) unless `full`.
 */
export function saveWalIntoFile(db: { prepare(sql: string): { get(): unknown } }, full: boolean): boolean {
  const row = db.prepare(`PRAGMA wal_checkpoint(${full ? 'FULL' : 'PASSIVE'})`).get() as { busy: number; log: number; checkpointed: number } | undefined;
  return row !== undefined && row.busy === 0 && row.log === row.checkpointed;
}
