import { type RequestHandler } from 'express';
import { contextOf } from './request-context.js';

/** Names the operation the route matched, so every failure from here on carries its message. */
export function operation(message: string, route: string): RequestHandler {
  return (_req, res, next) => {
    const context = contextOf(res);
    context.message = message;
    context.route = route;
    next();
  };
}
