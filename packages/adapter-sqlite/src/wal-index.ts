import { closeSync, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';

// The WAL-index header (https://sqlite.org/walformat.html, "The WAL-Index Header"): 48
// bytes at the start of the `-shm` file, written twice in a row. A writer rewrites both
// copies at each commit, the second copy first; a reader that finds them unequal caught
// a commit mid-write. Each commit changes it: it moves `mxFrame` (and `iChange`), or the
// salts when the log starts over. Read here in one call, copy 0 before copy 1: a read
// that overlaps a commit sees the copies unequal, or both old (then the commit has not
// ended), or both new; either way the stamp moves no later than the commit ends.
const HEADER_WORDS = 12; // 48 bytes
const KNOWN_VERSION = 3_007_000; // iVersion, the first word; the same since SQLite 3.7.0
const IS_INIT_BYTE = 12;

/** An open descriptor of a `-shm` file, and how many indexes read through it. */
interface OpenFile {
  readonly path: string;
  readonly fd: number;
  users: number;
}

/**
 * The descriptor of each `-shm` file this thread reads, by its real path: kept on the
 * global object, so two copies of this package loaded in one thread share it too.
 */
const opened = ((globalThis as Record<symbol, unknown>)[Symbol.for('@workplan/adapter-sqlite: WAL indexes')] ??= new Map()) as Map<string, OpenFile>;

/**
 * Tells, with one read of 96 bytes and no statement, whether anything was committed to a
 * database file in WAL mode since it last looked: by any connection, in any process. A
 * statement costs a read transaction, whose two locking calls were most of what a find by
 * id cost (`strace`, `pnpm bench --profile`).
 *
 * POSIX drops every lock a process holds on a file when it closes any descriptor of that
 * file, SQLite's among them. So the `-shm` file is opened once per thread and closed only
 * when the last index over it closes, which must come after the connections of this
 * process to the database are closed (`SqliteStorage.close` does so). Storages of one
 * file in two threads of a process would each close their own: open them from one.
 */
export class WalIndex {
  readonly #file: OpenFile;
  // Both copies, read as words in the machine's byte order, as SQLite wrote them; compared
  // in JavaScript, as a call into Buffer's native compare cost more than the words do.
  readonly #words = new Uint32Array(2 * HEADER_WORDS);
  readonly #bytes = new Uint8Array(this.#words.buffer);
  readonly #last = new Uint32Array(HEADER_WORDS);
  #stamp = 0;
  #open = true;

  private constructor(file: OpenFile) {
    this.#file = file;
  }

  /**
   * The index of the database at `databasePath`, which a connection of this process has
   * open in WAL mode (so the `-shm` file exists, and stays while that connection is open).
   */
  static open(databasePath: string): WalIndex {
    // Where SQLite puts it: beside the file a link points to. By its real path, so a file
    // reached by two paths still has one descriptor here.
    const path = `${realpathSync.native(databasePath)}-shm`;
    let file = opened.get(path);
    // One left from a file since deleted (SQLite's last connection may remove it) is not
    // this one; it is closed by its own last index.
    if (file === undefined || fstatSync(file.fd).ino !== statSync(path).ino) {
      file = { path, fd: openSync(path, 'r'), users: 0 };
      opened.set(path, file);
    }
    file.users += 1;
    return new WalIndex(file);
  }

  /**
   * A number that stays the same while nothing is committed, and moves with each commit;
   * undefined when the header was being written, is not in the format known here, cannot
   * be read, or the index is closed: then the caller asks SQLite.
   */
  stamp(): number | undefined {
    // After close the descriptor may be another file's.
    if (!this.#open || !this.#readHeader()) return undefined;
    const words = this.#words;
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
    const file = this.#file;
    file.users -= 1;
    if (file.users > 0) return;
    if (opened.get(file.path) === file) opened.delete(file.path);
    closeSync(file.fd);
  }

  /** Reads both copies of the header; false when they could not be read whole. */
  #readHeader(): boolean {
    try {
      return readSync(this.#file.fd, this.#bytes, 0, this.#bytes.length, 0) === this.#bytes.length;
    } catch {
      // The stamp only saves a query; a file that cannot be read leaves it to SQLite.
      return false;
    }
  }
}
