import cors from 'cors';
import { type RequestHandler } from 'express';

/**
 * Lets browser front ends on `origins` call the API. The preflight goes on to the route's
 * own OPTIONS answer (204 with `Allow`), so CORS adds headers and changes nothing else; a
 * request from any other origin, or from none, gets no CORS header at all (the `cors`
 * package, given the list itself, still sent the others the methods, headers and max age).
 */
export function corsPolicy(origins: readonly string[]): RequestHandler {
  const allowed: ReadonlySet<string> = new Set(origins);
  const policy = corsFor();
  return (req, res, next) => {
    // The answer differs by Origin, whichever it is: caches must keep them apart.
    res.vary('Origin');
    if (allowed.has(req.headers.origin ?? '')) policy(req, res, next);
    else next();
  };
}

/** The CORS headers for an origin already found allowed, which they name. */
function corsFor(): RequestHandler {
  return cors({
    origin: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['KEY', 'Content-Type', 'X-Request-Id', 'If-Match', 'If-None-Match', 'Last-Event-ID'],
    exposedHeaders: ['ETag', 'Location', 'Link', 'X-Total-Count', 'X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy'],
    maxAge: 600,
    preflightContinue: true,
  });
}
