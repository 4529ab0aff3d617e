import { isUtf8 } from 'node:buffer';
import { MIMEType } from 'node:util';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { HttpFailure } from './http-failure.js';
import { BODY_LIMIT_BYTES } from './problems.js';

/** Refuses a body that is not JSON in UTF-8 without a content encoding. */
export function requireJsonMediaType(req: Request, _res: Response, next: NextFunction): void {
  next(isJsonInUtf8(req) ? undefined : new HttpFailure('UNSUPPORTED_MEDIA_TYPE'));
}

function isJsonInUtf8(req: Request): boolean {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return false;
  const declared = req.headers['content-type'];
  if (declared === undefined) return false;
  let mediaType: MIMEType;
  try {
    mediaType = new MIMEType(declared);
  } catch {
    return false; // An unparseable Content-Type names no JSON media type.
  }
  const charset = mediaType.params.get('charset');
  const json = mediaType.essence === 'application/json' || /^application\/[^/]+\+json$/u.test(mediaType.essence);
  // MIME parsing keeps the first of two charsets and drops an empty one: either leaves the
  // charset in doubt, so a charset named other than once in the header is refused too.
  const named = declared.match(CHARSET_PARAMETER)?.length ?? 0;
  return json && (named === 0 || (named === 1 && charset?.toLowerCase() === 'utf-8'));
}

/** Each `charset` parameter of a Content-Type header, whatever its value. */
const CHARSET_PARAMETER = /;\s*charset=/giu;

/**
 * Refuses a body whose declared length is over the limit before reading any of it
 * (body-parser would read it all first), closing the connection so the rest is never read.
 */
function refuseDeclaredOversize(req: Request, res: Response, next: NextFunction): void {
  const declared = Number(req.headers['content-length']);
  if (declared > BODY_LIMIT_BYTES) {
    res.setHeader('Connection', 'close');
    next(new HttpFailure('PAYLOAD_TOO_LARGE'));
    return;
  }
  next();
}

/**
 * Asks a client that waits for it to send the body, now that it is to be read (see
 * `createHttpServer`): an HTTP/1.1 request whose `Expect` names `100-continue`, as Node
 * reads it (a 1xx answer is not for an HTTP/1.0 client).
 */
function inviteBody(req: Request, res: Response, next: NextFunction): void {
  const http11 = req.httpVersionMajor > 1 || (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1);
  if (http11 && CONTINUE_EXPECTED.test(req.headers.expect ?? '')) res.writeContinue();
  next();
}

const CONTINUE_EXPECTED = /(?:^|\W)100-continue(?:$|\W)/iu;

/** Reads the JSON document: size limit, then syntax; any JSON value, the core judges its shape. */
export const readJsonBody: RequestHandler[] = [
  refuseDeclaredOversize,
  inviteBody,
  express.json({
    limit: BODY_LIMIT_BYTES,
    strict: false,
    inflate: false,
    type: () => true,
    // An empty body is not a JSON document; body-parser would otherwise read it as `{}`.
    // Nor are bytes that are not UTF-8: body-parser's decoder would turn them into U+FFFD,
    // and a record would be stored with text the client never sent. `isUtf8` is the check a
    // fatal TextDecoder makes, without decoding; `verify` runs before the body is parsed.
    // What `verify` throws reaches the error handler as it is, so this is answered by its code.
    verify: (_req, _res, buffer) => {
      if (buffer.length === 0 || !isUtf8(buffer)) throw new HttpFailure('INVALID_JSON');
    },
  }),
  (req, _res, next) => {
    // No body at all (no length, not chunked) leaves req.body unset.
    next(req.body === undefined ? new HttpFailure('INVALID_JSON') : undefined);
  },
];
