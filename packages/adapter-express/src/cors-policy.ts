import cors from 'cors';
import { type RequestHandler } from 'express';

/**
 * Lets browser front ends on `origins` call the API. The preflight goes on to the route's
 * own OPTIONS answer (204 with `Allow`), so CORS adds headers and changes nothing else.
 */
export function corsPolicy(origins: readonly string[]): RequestHandler {
  return cors({
    origin: [...origins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['KEY', 'Content-Type', 'X-Request-Id', 'If-Match', 'If-None-Match'],
    exposedHeaders: ['ETag', 'Location', 'Link', 'X-Total-Count', 'X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy'],
    maxAge: 600,
    preflightContinue: true,
  });
}
