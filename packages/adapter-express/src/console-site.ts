import express, { Router, type RequestHandler } from 'express';
import { HttpFailure } from './http-failure.js';
import { CONSOLE_CONTENT_SECURITY_POLICY, pageHeaders } from './page-policy.js';
import { contextOf } from './request-context.js';
import { type HttpResource } from './resources.js';

/** Where the operator console is served; `GET /` sends a browser there. */
export const CONSOLE_PATH = '/console/';

const ALLOW = 'GET, HEAD, OPTIONS';

/** Names the route for logs and metrics: the console's files are one route, not `unmatched`. */
const named =
  (route: string): RequestHandler =>
  (_req, res, next) => {
    contextOf(res).route = route;
    next();
  };

/** The console's pages are read, never written: OPTIONS says so, any other method is a 405. */
const readOnly: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') {
    next();
    return;
  }
  if (req.method === 'OPTIONS') {
    res.setHeader('Allow', ALLOW);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.status(204).end();
    return;
  }
  next(new HttpFailure('METHOD_NOT_ALLOWED', { Allow: ALLOW }));
};

/** Where the console reads, at start-up, the kinds of record it shows a tab for. */
export const CONSOLE_KINDS_PATH = '/console/kinds.json';

/**
 * What the console reads of each kind: its words for people, its path words, its field, and
 * the largest page a list of it may ask for (LIST_MAX_LIMIT), so the page offers no size the
 * service would refuse.
 */
function consoleKindsJson(resources: readonly HttpResource[]): string {
  return JSON.stringify(
    resources.map(({ singular, plural, field, one, many, gender, label, sample, slug, catalog }) => ({
      singular,
      plural,
      field,
      one,
      many,
      gender,
      label,
      sample,
      slug,
      maxPageSize: catalog.maxPageSize,
    })),
  );
}

/**
 * Serves the console's built files from `directory` at `/console/`, with the kinds of
 * record it shows (`kinds.json`, from `resources`), and redirects `GET /` there with 302: a
 * temporary redirect, so a browser does not remember it for good and `/` stays free for
 * something else later. Vite names each asset by its content hash, so an asset is cached
 * for a year; `index.html`, which names them, and the kinds are checked on every load.
 */
export function consoleRouter(directory: string, resources: readonly HttpResource[]): Router {
  const kindsJson = consoleKindsJson(resources);
  const router = Router({ caseSensitive: false, strict: false });
  router.all('/', named('/'), (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      readOnly(req, res, next);
      return;
    }
    res.statusCode = 302;
    res.setHeader('Location', CONSOLE_PATH);
    res.setHeader('Content-Length', '0');
    res.end();
  });
  router.all(CONSOLE_KINDS_PATH, named('/console'), pageHeaders(CONSOLE_CONTENT_SECURITY_POLICY), readOnly, (_req, res) => {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.send(kindsJson);
  });
  router.use(
    '/console',
    named('/console'),
    pageHeaders(CONSOLE_CONTENT_SECURITY_POLICY),
    readOnly,
    express.static(directory, {
      index: 'index.html',
      fallthrough: true,
      setHeaders: (res, path) => {
        res.setHeader('Cache-Control', /[\\/]assets[\\/]/u.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    }),
  );
  return router;
}
