import { closeSync, openSync, readSync, realpathSync } from 'node:fs';
import { endianness } from 'node:os';

// The WAL-index header (https://sqlite.org/walformat.html, "The WAL-Index Header"): 48
// bytes at the start of the `-shm` file, written twice in a row. A writer rewrites both
// copies at each commit, the second copy first; a reader that finds them unequal caught
// a commit mid-write. Each commit changes it: it moves `mxFrame` (and `iChange`), or the
// salts when the log starts over. Its fields are in the machine's byte order.
const HEADER_BYTES = 48;
const KNOWN_VERSION = 3_007_000; // iVersion, the same since SQLite 3.7.0
const IS_INIT_OFFSET = 12;
const LITTLE_ENDIAN = endianness() === 'LE';

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
  readonly #read = Buffer.alloc(2 * HEADER_BYTES);
  readonly #last = Buffer.alloc(HEADER_BYTES);
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
    const read = this.#read;
    if (readSync(this.#fd, read, 0, read.length, 0) < read.length) return undefined;
    const version = LITTLE_ENDIAN ? read.readUInt32LE(0) : read.readUInt32BE(0);
    if (version !== KNOWN_VERSION || read[IS_INIT_OFFSET] !== 1) return undefined;
    // Compared in place: a find runs this, and a view of a buffer is an object to collect.
    if (read.compare(read, HEADER_BYTES, 2 * HEADER_BYTES, 0, HEADER_BYTES) !== 0) return undefined;
    if (read.compare(this.#last, 0, HEADER_BYTES, 0, HEADER_BYTES) !== 0) {
      read.copy(this.#last, 0, 0, HEADER_BYTES);
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
