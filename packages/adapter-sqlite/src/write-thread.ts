// The write thread of a storage (see sqlite-writer.ts): a connection of its own that runs
// the writes posted to it in order, those queued together in one commit (group-commit.ts),
// and posts back the answers of each commit's writes in one message.
import { DatabaseSync } from './node-sqlite.js';
import { receiveMessageOnPort, workerData } from 'node:worker_threads';
import { BegunWrites } from './begun-writes.js';
import { fileMovedError, FileIdentity, saveWalIntoFile } from './file-identity.js';
import { commitTogether, type GroupCommitOptions } from './group-commit.js';
import { type WriteRequest, type WriteThreadData } from './write-messages.js';
import { writesOn } from './write-statements.js';
import { type ThreadStart } from './storage-threads.js';

// SQLite waits for another connection's lock this long at a time, and the thread tries
// again until the write's deadline: between tries, a storage shutting down can stop it.
const LOCK_WAIT_SLICE_MS = 50;

const { data: options, port } = workerData as ThreadStart<WriteThreadData>;
const db = new DatabaseSync(options.path, { timeout: Math.min(options.busyTimeoutMs, LOCK_WAIT_SLICE_MS) });
const file = new FileIdentity(options.path);
const begun = new BegunWrites(options.begun);
// Commits sync the WAL as the storage's own connection would (and so do its checkpoints).
db.exec(`PRAGMA synchronous = ${options.synchronous}`);
const commit: GroupCommitOptions = {
  write: writesOn(db),
  busyTimeoutMs: options.busyTimeoutMs,
  // Between tries of a batch waiting for a lock: give it up (it changed nothing yet).
  isStopped: () => begun.isStopped(),
  checkCommitted: () => {
    const change = file.change();
    if (change === undefined) return;
    // Committed to a -wal gone from its path, the writes are stored once it is written into the file.
    if (change.of === 'companion' && saveWalIntoFile(db, true)) return;
    // Committed to a file no longer at its path, the writes end with the process: their callers must not hear them stored.
    throw fileMovedError(change);
  },
};

/** Set once 'close' was taken from the queue while writes were taken into a batch. */
let closing = false;

/** The next write queued, begun, if there is one and writes are not stopped. */
function takeQueued(): WriteRequest | undefined {
  const queued = receiveMessageOnPort(port)?.message as WriteRequest | 'close' | undefined;
  if (queued === 'close') closing = true;
  if (queued === undefined || queued === 'close') return undefined;
  // Stopped: the storage has refused it already, and every write after it.
  return begun.begin(queued.id) ? queued : undefined;
}

function close(): void {
  // Posted after every write the storage sent, so each of them has been answered.
  db.close();
  port.close();
}

port.on('message', (message: WriteRequest | 'close') => {
  if (message === 'close') {
    close();
    return;
  }
  // Stopped: the storage has refused this write already, and told its caller.
  if (!begun.begin(message.id)) return;
  port.postMessage(commitTogether(db, message, takeQueued, commit));
  if (closing) close();
});
