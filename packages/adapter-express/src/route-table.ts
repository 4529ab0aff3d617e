import { type Request, type RequestHandler, type Router } from 'express';
import { HttpFailure } from './http-failure.js';

/** The handlers of one path, by method. */
export type RouteMethods = Partial<Record<'get' | 'post' | 'put' | 'delete', RequestHandler[]>>;

/**
 * Mounts each path with its methods, and for every path the two answers the contract
 * asks of any existing path: OPTIONS (204 with `Allow`) and 405 for any other method.
 */
export function routeTable(router: Router, table: Record<string, RouteMethods>): void {
  for (const [path, methods] of Object.entries(table)) {
    const allow = allowHeader(Object.keys(methods));
    const route = router.route(path);
    for (const method of ['get', 'post', 'put', 'delete'] as const) {
      const handlers = methods[method];
      if (handlers !== undefined) route[method](...handlers);
    }
    route.options((_req, res) => {
      res.setHeader('Allow', allow);
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.status(204).end();
    });
    route.all((_req, _res, next) => {
      next(new HttpFailure('METHOD_NOT_ALLOWED', { Allow: allow }));
    });
  }
}

function allowHeader(methods: readonly string[]): string {
  const upper = methods.map((m) => m.toUpperCase());
  if (upper.includes('GET')) upper.splice(upper.indexOf('GET') + 1, 0, 'HEAD');
  return [...upper, 'OPTIONS'].join(', ');
}

/** A named path segment; these routes have no wildcard, so a segment is one string. */
export function param(req: Request, name: string): string | undefined {
  const value = req.params[name];
  return typeof value === 'string' ? value : undefined;
}
