import { randomUUID } from 'node:crypto';
import { type RequestHandler } from 'express';
import { beginContext } from './request-context.js';
import { observeResponse, type ResponseObserver } from './response-observer.js';

const VISIBLE_ASCII_ID = /^[\x21-\x7E]{1,128}$/u;

/**
 * Gives the request its id (the caller's when well formed) and the headers every answer
 * carries, and has `observe` told of the answer.
 */
export function identifyRequest(observe?: ResponseObserver): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && VISIBLE_ASCII_ID.test(given) ? given : randomUUID();
    beginContext(res, requestId);
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (observe !== undefined) observeResponse(req, res, observe);
    next();
  };
}
