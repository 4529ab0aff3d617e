import { existsSync, readFileSync } from 'node:fs';

// The WAL file's layout (https://sqlite.org/fileformat.html#the_write_ahead_log): a header
// of 32 bytes, then frames, each a header of 24 bytes and a page.
const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

/**
 * How many commits the WAL of the database at `path` holds since it was last reset: its
 * frames that end a commit (their header carries the database's size in pages after it)
 * and carry the WAL header's salt (frames of an earlier generation do not). Read from the
 * file itself, so it counts what SQLite did, whatever the writer says it did.
 */
export function commitsInWal(path: string): number {
  const walPath = `${path}-wal`;
  if (!existsSync(walPath)) return 0;
  const wal = readFileSync(walPath);
  if (wal.length < WAL_HEADER_BYTES) return 0;
  const pageSize = wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let commits = 0;
  for (let at = WAL_HEADER_BYTES; at + FRAME_HEADER_BYTES + pageSize <= wal.length; at += FRAME_HEADER_BYTES + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    if (wal.readUInt32BE(at + 4) !== 0) commits += 1;
  }
  return commits;
}
