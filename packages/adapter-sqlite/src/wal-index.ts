import { closeSync, openSync, readSync, realpathSync } from 'node:fs';

// The WAL-index header (https://sqlite.org/walformat.html, "The WAL-Index Header"): 48
// bytes at the start of the `-shm` file, written twice in a row. A writer rewrites both
// copies at each commit, the second copy first; a reader that finds them unequal caught
// a commit mid-write. Each commit changes it: it moves `mxFrame` (and `iChange`), or the
// salts when the log starts over.
const HEADER_WORDS = 12; // 48 bytes
const KNOWN_VERSION = 3_007_000; // iVersion, the first word; the same since SQLite 3.7.0
const IS_INIT_BYTE = 12;

/** One open descriptor per `-shm` file in this process (by its real path), and how many indexes read through it. */
const opened = new Map<string, { readonly fd: number; users: number }>();

/**
 * Tells, with one read of 96 bytes and no statement, whether anything was committed to a
 * database file in WAL mode since it last looked: by any connection, in any process. A
 * statement costs a read transaction, whose two locking calls were most of what a find by
 * id cost (`strace`, `pnpm bench --profile`).
 *
 * POSIX drops every lock a process holds on a file when it closes any descriptor of that
 * file, SQLite's among them. So the `-shm` file is opened once per process and closed only
 * when the last index over it closes, which must come after the connections of this
 * process to the database are closed (`SqliteStorage.close` does so).
 */
export class WalIndex {
  readonly #shmPath: string;
  readonly #fd: number;
  // Both copies, read as words in the machine's byte order, as SQLite wrote them; compared
  // in JavaScript, as a call into Buffer's native compare cost more than the words do.
  readonly #words = new Uint32Array(2 * HEADER_WORDS);
  readonly #bytes = new Uint8Array(this.#words.buffer);
  readonly #last = new Uint32Array(HEADER_WORDS);
  #stamp = 0;
  #open = true;

  private constructor(shmPath: string, fd: number) {
    this.#shmPath = shmPath;
    this.#fd = fd;
  }

  /** The index of the database at `databasePath`, which a connection has opened in WAL mode. */
  static open(databasePath: string): WalIndex {
    // The real path, so a file reached by two paths still has one descriptor here.
    const shmPath = realpathSync.native(`${databasePath}-shm`);
    let file = opened.get(shmPath);
    if (file === undefined) {
      file = { fd: openSync(shmPath, 'r'), users: 0 };
      opened.set(shmPath, file);
    }
    file.users += 1;
    return new WalIndex(shmPath, file.fd);
  }

  /**
   * A number that stays the same while nothing is committed, and moves with each commit;
   * undefined when the header was being written, is not in the format known here, or the
   * index is closed.
   */
  stamp(): number | undefined {
    // After close the descriptor may be another file's.
    if (!this.#open) return undefined;
    const words = this.#words;
    if (readSync(this.#fd, this.#bytes, 0, this.#bytes.length, 0) < this.#bytes.length) return undefined;
    if (words[0] !== KNOWN_VERSION || this.#bytes[IS_INIT_BYTE] !== 1) return undefined;
    let changed = false;
    for (let i = 0; i < HEADER_WORDS; i += 1) {
      const word = words[i];
      if (word !== words[i + HEADER_WORDS]) return undefined;
      if (word !== this.#last[i]) changed = true;
    }
    if (changed) {
      this.#last.set(words.subarray(0, HEADER_WORDS));
      this.#stamp += 1;
    }
    return this.#stamp;
  }

  /** Stops reading; the descriptor is closed with the last index over the file. Closing twice is harmless. */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    const file = opened.get(this.#shmPath);
    if (file === undefined) return;
    file.users -= 1;
    if (file.users > 0) return;
    opened.delete(this.#shmPath);
    closeSync(file.fd);
  }
}
