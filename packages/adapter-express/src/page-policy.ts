import { type RequestHandler } from 'express';

/**
 * What a page the service serves may do: run only its own files and talk only to this
 * origin (no inline script or style, no other host, fonts and icons included), never be
 * framed by another site. `images` widens where its images may come from, and nothing else.
 */
function pagePolicy(images: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    ["img-src 'self'", ...images].join(' '),
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The operator console's pages. */
export const CONSOLE_CONTENT_SECURITY_POLICY = pagePolicy();

/** The `/docs` page: Swagger UI's stylesheet draws its icons as `data:` images, which run nothing. */
export const DOCS_CONTENT_SECURITY_POLICY = pagePolicy(['data:']);

/** Sends a page and its files under `policy`, and tells the browser to send no `Referer` from it. */
export function pageHeaders(policy: string): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', policy);
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  };
}
