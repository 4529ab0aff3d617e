import { WorkplanError } from '@workplan/core';
import {
  MongoClientClosedError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';

const DUPLICATE_KEY = 11000;

/** The name of the unique index on `key`. */
export const KEY_INDEX = 'key_unique';

// FerretDB 1.24 on SQLite answers an update or findAndModify that breaks a unique index
// with InternalError (code 1) and SQLite's own words instead of 11000; only insert gets 11000.
const FERRETDB_SQLITE_KEY_CLASH = new RegExp(`UNIQUE constraint failed: index '[^']*_${KEY_INDEX}'`, 'u');

/**
 * Server answers that mean "not now" rather than "no": a node shutting down or stepping
 * down, a time limit that ran out, and a cursor the server no longer has (it restarted, or
 * timed the cursor out, between two batches of a read). The driver retries the first ones
 * once; what is left over is an outage to the caller, whose read may be tried again.
 */
const UNAVAILABLE_SERVER_CODES = new Set([
  43, // CursorNotFound
  50, // MaxTimeMSExpired
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/** The write broke a unique index: here, always the one on `key` (ids are new UUIDs). */
export function isDuplicateKeyError(error: unknown): boolean {
  if (!(error instanceof MongoServerError)) return false;
  return error.code === DUPLICATE_KEY || (error.code === 1 && FERRETDB_SQLITE_KEY_CLASH.test(error.message));
}

/** One refusal of a bulk write broke a unique index (on FerretDB too: its inserts answer 11000). */
export function isDuplicateKeyRefusal(refusal: { readonly code: number }): boolean {
  return refusal.code === DUPLICATE_KEY;
}

/**
 * True when the error says the server cannot be reached in time, as opposed to a
 * refusal or a bug: no server selected, a broken or timed-out socket (a cleared pool is
 * one of these), a client that is not or no longer connected, a waiting queue that ran out.
 */
export function isUnavailableError(error: unknown): boolean {
  return (
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNetworkError ||
    error instanceof MongoOperationTimeoutError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoClientClosedError ||
    // Not exported by the driver; its name is part of its documented error list.
    (error instanceof Error && error.name === 'MongoWaitQueueTimeoutError') ||
    (error instanceof MongoServerError && typeof error.code === 'number' && UNAVAILABLE_SERVER_CODES.has(error.code))
  );
}

/** What a repository rejects with for a driver failure: an outage becomes storageUnavailable, the rest stays as it is. */
export function translateDriverError(error: unknown): unknown {
  return isUnavailableError(error) ? WorkplanError.storageUnavailable(error) : error;
}

/** Runs a driver call, turning an outage into `WorkplanError.storageUnavailable`. */
export async function guardDriverCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw translateDriverError(error);
  }
}
