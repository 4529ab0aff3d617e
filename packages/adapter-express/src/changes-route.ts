import { type Request, type RequestHandler, type Response } from 'express';
import { streamChanges, type StreamOptions } from './change-stream.js';
import { changesParametersOf, changesQueryStringOf, type ChangesParameters } from './changes-parameters.js';
import { postponeDeadline } from './deadline.js';
import { sendSuccessJson } from './envelope.js';
import { holdOpen, refusalOf } from './held-open.js';
import { qualityOf } from './media-preference.js';
import { changesJsonInTurns, type PageTurns } from './page-turns.js';
import { requestSignal } from './request-context.js';

/** How the feed is served: as a stream is, and where, for `Link`. */
export interface ChangesRouteOptions extends StreamOptions {
  /** The feed's path: `/api/v1/changes`. */
  readonly path: string;
  /** The turns of the event loop a page's pieces take (page-turns.ts). */
  readonly turns: PageTurns;
}

/**
 * The changes feed: a page of changes after `after`, held up to `wait` seconds while none
 * follows, with a `Link` to the next page; or, asked for `text/event-stream`, the same
 * changes as a stream of events, from `Last-Event-ID` (else `after`).
 */
export function changesRoute(options: ChangesRouteOptions): RequestHandler {
  // Not an async function of its own: a follower is held for as long as its answer takes,
  // and each async call still under way keeps its frame, so the handler hands Express the
  // promise of the answer rather than awaiting it.
  return (req, res) => {
    const parameters = changesParametersOf(req.url);
    // One path, two answers chosen by Accept: a cache must not give one for the other.
    res.vary('Accept');
    return wantsStream(req) ? streamChanges(req, res, parameters, options) : answerPage(res, parameters, options);
  };
}

/** A GET whose `Accept` prefers an event stream to JSON; one that takes both equally, HEAD and the rest are answered a page. */
function wantsStream(req: Request): boolean {
  if (req.method !== 'GET') return false;
  const accept = req.headers.accept;
  return qualityOf(accept, 'text/event-stream') > qualityOf(accept, 'application/json');
}

async function answerPage(res: Response, parameters: ChangesParameters, options: ChangesRouteOptions): Promise<void> {
  // The read is a piece of the page's work, which waits for its turn; a long poll's read after its wait is not.
  await options.turns.begin(requestSignal(res));
  // A long poll waits on purpose: its deadline counts from the end of its wait.
  if (parameters.wait !== undefined) postponeDeadline(res, parameters.wait * 1000);
  // A page without `wait` is not held, so no bound counts it; a long poll is refused past one before anything is read.
  const letGo = parameters.wait === undefined ? undefined : options.admitFollower(res, 'poll');
  const held = holdOpen(res);
  const page = await options.feed
    .read(parameters, { signal: AbortSignal.any([requestSignal(res), held]) })
    .catch((error: unknown) => {
      // Let go while it waited (the server drains, or the client left): nothing more came, and
      // the follower asks again from where it was.
      if (held.aborted && error === held.reason && refusalOf(held) === undefined) return { changes: [], next: parameters.after ?? '0' };
      throw error;
    })
    .finally(letGo);
  const body = await changesJsonInTurns(page.changes, options.json, options.turns, requestSignal(res));
  // Refused (its key is gone) once the page was read, but before it was sent: it is not sent.
  const refusal = refusalOf(held);
  if (refusal !== undefined) throw refusal;
  if (!res.headersSent) res.setHeader('Link', `<${options.path}${changesQueryStringOf(parameters, page.next)}>; rel="next"`);
  sendSuccessJson(res, 200, body);
}
