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

/**
 * Names the route a request matched, for logs and metrics, on routes that are no operation
 * of the API (the document, its page and assets, metrics): their failures keep the default message.
 */
export function routeName(route: string): RequestHandler {
  return (_req, res, next) => {
    contextOf(res).route = route;
    next();
  };
}
