import { type ReadOptions } from '@workplan/core';
import { type RequestHandler } from 'express';
import { sendSuccess } from './envelope.js';
import { requestSignal } from './request-context.js';

/**
 * A read-only path of the interface whose answer the app composes (such as `/webhooks`):
 * served behind the key check, the rate limits and the contract's envelope like every other.
 */
export interface ApiRead {
  /** The path under the interface's base, such as `/webhooks`. */
  readonly path: string;
  /** The message of its failures, in the contract's words. */
  readonly message: string;
  /** The data of the answer, anything `JSON.stringify` writes. */
  read(options: ReadOptions): Promise<unknown>;
}

/** Answers `{ success: true, data }` with what `read` resolves. */
export function apiReadRoute(read: ApiRead): RequestHandler {
  return async (_req, res) => {
    sendSuccess(res, 200, await read.read({ signal: requestSignal(res) }));
  };
}
