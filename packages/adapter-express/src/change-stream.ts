import { once } from 'node:events';
import { checkChangesWait, type ChangesRequest } from '@workplan/core';
import { type Request, type Response } from 'express';
import { type ChangesJson } from './change-json.js';
import { type ChangesParameters } from './changes-parameters.js';
import { endDeadline } from './deadline.js';
import { problemJson } from './envelope.js';
import { type FollowerAdmission } from './follower-bounds.js';
import { holdOpen, refusalOf } from './held-open.js';
import { type HttpFailure } from './http-failure.js';
import { contextOf, requestSignal } from './request-context.js';
import { type ChangesFeed } from './resources.js';

/** What a stream reads, how it writes it, and how often an idle stream says it is alive. */
export interface StreamOptions {
  readonly feed: ChangesFeed;
  readonly json: ChangesJson;
  /** Seconds between the comments an event stream sends while no change comes. */
  readonly heartbeatSeconds: number;
  /** Takes each follower in (counted, bounded) before anything is read for it, or refuses it. */
  readonly admitFollower: FollowerAdmission;
}

/**
 * Serves the changes as `text/event-stream`: each change an event (`id:` its id, `data:` its
 * JSON), from `Last-Event-ID` when the client resumes, else from `after`, and on without end:
 * a comment line every `heartbeatSeconds` while no change comes keeps proxies from closing
 * an idle connection. The first page is read before the stream begins, so a bad or expired
 * starting point is answered as any request is (400, 410) rather than as a stream that ends.
 * The stream ends when the client leaves or the server drains; when its key is gone, after
 * an event `problem` whose data is the failure a request with that key is answered.
 */
export function streamChanges(req: Request, res: Response, parameters: ChangesParameters, options: StreamOptions): Promise<void> {
  // A stream takes no `wait` of its own, but a bad one is refused as on a page.
  checkChangesWait(parameters.wait);
  const request = { after: req.get('Last-Event-ID') ?? parameters.after, limit: parameters.limit };
  // Refused past a bound before anything is read; counted from here until it is let go.
  const letGo = options.admitFollower(res, 'stream');
  // Handed on, not awaited: the one frame a stream holds while it waits is `follow`'s.
  return follow(res, parameters, options, request).finally(letGo);
}

/** The stream of a follower taken in: its first page, or the refusal of it, then every change until it is let go. */
async function follow(res: Response, parameters: ChangesParameters, options: StreamOptions, request: ChangesRequest): Promise<void> {
  const { feed, json } = options;
  const held = holdOpen(res);
  let page = await feed.read(request, { signal: requestSignal(res) });
  if (res.headersSent) {
    contextOf(res).dropLateResult?.(); // The deadline answered while the first page was read.
    return;
  }
  const refusedEarly = refusalOf(held);
  if (refusedEarly !== undefined) throw refusedEarly; // Before the stream began: answered as any request.
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    // Proxies that buffer answers (nginx) would hold the events back.
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  // Begun: its deadline has nothing left to answer.
  endDeadline(res);
  const whileHeld = { signal: held };
  try {
    for (;;) {
      if (held.aborted) break; // Let go while a page was read (or before the first): that page is not sent.
      const events = page.changes.map((change) => `id: ${change.id}\ndata: ${json.one(change)}\n\n`).join('');
      // Once the buffer is full, the next page waits for the client to read: a slow reader holds no more than that.
      if (!res.write(events.length === 0 ? ':\n\n' : events)) await once(res, 'drain', whileHeld);
      page = await feed.read({ after: page.next, limit: parameters.limit, wait: options.heartbeatSeconds }, whileHeld);
    }
  } catch (error) {
    if (!held.aborted) throw error; // After the end of the stream, for the logs: the client sees the stream end.
  } finally {
    const refusal = refusalOf(held);
    res.end(refusal === undefined ? undefined : lastEvent(res, refusal));
  }
}

/** The event a stream refused on its way ends with: `problem`, the failure as a request is answered it, with no id to resume from. */
function lastEvent(res: Response, refusal: HttpFailure): string {
  const { message = '', requestId } = contextOf(res);
  return `event: problem\ndata: ${problemJson(refusal.code, message, requestId)}\n\n`;
}
