import { type ReadOptions } from '@workplan/core';
import { type RequestHandler } from 'express';
import { type KeyHolder } from './api-keys.js';
import { sendSuccess } from './envelope.js';
import { contextOf, requestSignal } from './request-context.js';

/** What a read is given: the request's signal, and who asks (the name and role of its key), for what only a `write` key may see. */
export interface ApiReadOptions extends ReadOptions {
  readonly key: KeyHolder;
}

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
  read(options: ApiReadOptions): Promise<unknown>;
}

/** Answers `{ success: true, data }` with what `read` resolves. */
export function apiReadRoute(read: ApiRead): RequestHandler {
  return async (_req, res) => {
    const key = contextOf(res).key;
    if (key === undefined) throw new TypeError('a read reached its handler without a key');
    sendSuccess(res, 200, await read.read({ signal: requestSignal(res), key }));
  };
}
