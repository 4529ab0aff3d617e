import { type RequestHandler } from 'express';
import { sendProblem } from './envelope.js';

/**
 * Answers 503 STORAGE_UNAVAILABLE when a request is not answered within `ms`, so a slow
 * storage never holds a connection open; whatever the handler does later is dropped.
 */
export function deadline(ms: number): RequestHandler {
  return (_req, res, next) => {
    const timer = setTimeout(() => {
      if (!res.headersSent) sendProblem(res, { code: 'STORAGE_UNAVAILABLE', extra: {}, headers: { 'Retry-After': '2' } });
    }, ms);
    res.once('close', () => {
      clearTimeout(timer);
    });
    next();
  };
}
