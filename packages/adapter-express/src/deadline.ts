import { type RequestHandler } from 'express';
import { sendProblem } from './envelope.js';
import { problemFor } from './problem-of.js';

/**
 * Answers 503 STORAGE_UNAVAILABLE when a request is not answered within `ms`, so a slow
 * storage never holds a connection open; whatever the handler does later is dropped.
 */
export function deadline(ms: number): RequestHandler {
  return (_req, res, next) => {
    const timer = setTimeout(() => {
      if (!res.headersSent) sendProblem(res, problemFor('STORAGE_UNAVAILABLE'));
    }, ms);
    res.once('close', () => {
      clearTimeout(timer);
    });
    next();
  };
}
