import express, { Router, type ErrorRequestHandler, type Express, type Request, type RequestHandler } from 'express';
import { type ApiKeys } from './api-keys.js';
import { type ApiRead } from './api-read.js';
import { createApiRouter } from './api-router.js';
import { type FollowerBounds, type FollowerRefusalWatch, type FollowerWatch } from './follower-bounds.js';
import { sendProblem, sendSuccess } from './envelope.js';
import { problemOf } from './problem-of.js';
import { type HitCounter } from './hit-store.js';
import { HttpFailure } from './http-failure.js';
import { consoleRouter } from './console-site.js';
import { corsPolicy } from './cors-policy.js';
import { deadline, type LateResult } from './deadline.js';
import { operation } from './operation.js';
import { identifyRequest } from './request-id.js';
import { docsRouter, openApiDocument } from './openapi/index.js';
import { routeMessages } from './problems.js';
import { contextOf } from './request-context.js';
import { noRateLimits, rateLimitsOf } from './rate-limits.js';
import { type ChangesFeed, type HttpResource } from './resources.js';
import { type ResponseObserver } from './response-observer.js';
import { routeTable } from './route-table.js';

export interface HttpAppOptions {
  readonly resources: readonly HttpResource[];
  /** The changes of every resource, in commit order: the workplan's `changes`. */
  readonly changes: ChangesFeed;
  readonly keys: ApiKeys;
  /** Resolves whether the storage answers; drives `/health/ready`. */
  readonly isReady: () => Promise<boolean>;
  /** Told of every failure answered 500, which callers never see the details of. */
  readonly onUnexpectedError?: (error: unknown, req: Request) => void;
  /** Told of a result that came after the deadline had answered it, and was dropped. */
  readonly onLateResult?: (late: LateResult) => void;
  /** Told of every answered request, for logs and metrics. */
  readonly onResponse?: ResponseObserver;
  /** Requests a minute per key, and failed key attempts a minute per client address. */
  readonly rateLimitPerMinute?: number;
  /** Where the rate limits count, shared by every instance; this process's memory when unset. */
  readonly hitCounter?: HitCounter;
  /** Origins whose browser pages may call the API; none by default. */
  readonly corsOrigins?: readonly string[];
  /** Express's `trust proxy`: which proxies' `X-Forwarded-For` names the client. */
  readonly trustProxy?: boolean | number | string;
  /** A request not answered within this many milliseconds is answered 503, or 408 while its body is still arriving. */
  readonly requestTimeoutMs?: number;
  /** The operator console's built files, served at `/console/` (and `GET /` redirects there); no console when unset. */
  readonly consoleDirectory?: string;
  /** Seconds between the comments an idle event stream of changes sends; 15 by default. */
  readonly heartbeatSeconds?: number;
  /** More read-only paths of `/api/v1`, behind its key check (such as `/webhooks`). */
  readonly reads?: readonly ApiRead[];
  /** Told of each follower of the changes held open (an event stream, a long poll), for metrics. */
  readonly onFollowerHeld?: FollowerWatch;
  /** How many followers of the changes may be held open, per key and in all; past one, 429 or 503 at once. No bound when unset. */
  readonly followerBounds?: FollowerBounds;
  /** Told of each follower refused by a bound, and which (metrics). */
  readonly onFollowerRefused?: FollowerRefusalWatch;
  /** More routes, mounted before the 404 fallback (such as `/metrics`). */
  readonly routes?: readonly RequestHandler[];
}

/** The whole HTTP face of the service: `/api/v1`, `/health`, the docs, the console, and the envelope for everything else. */
export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy);
  app.use(identifyRequest(options.onResponse));
  if (options.requestTimeoutMs !== undefined) app.use(deadline(options.requestTimeoutMs, options.onLateResult));
  if (options.corsOrigins !== undefined && options.corsOrigins.length > 0) app.use(corsPolicy(options.corsOrigins));
  const rateLimits =
    options.rateLimitPerMinute === undefined ? noRateLimits : rateLimitsOf(options.rateLimitPerMinute, options.hitCounter);
  const { resources, changes, keys, heartbeatSeconds, reads, onFollowerHeld, followerBounds, onFollowerRefused } = options;
  const followers = { onFollowerHeld, followerBounds, onFollowerRefused };
  app.use('/api/v1', createApiRouter({ resources, changes, keys, rateLimits, reads, ...followers, ...(heartbeatSeconds === undefined ? {} : { heartbeatSeconds }) }));
  app.use('/health', healthRouter(options.isReady));
  // The document describes the resources this app serves, not a list kept beside them.
  app.use(docsRouter(openApiDocument(options.resources)));
  if (options.consoleDirectory !== undefined) app.use(consoleRouter(options.consoleDirectory, options.resources));
  for (const route of options.routes ?? []) app.use(route);
  app.use((_req, _res, next) => {
    next(new HttpFailure('ROUTE_NOT_FOUND'));
  });
  app.use(answerFailure(options.onUnexpectedError));
  return app;
}

function healthRouter(isReady: () => Promise<boolean>): Router {
  const router = Router({ caseSensitive: false, strict: false });
  const health = (route: string) => operation(routeMessages.unavailable, route);
  routeTable(router, {
    '/live': { get: [health('/health/live'), (_req, res) => { sendSuccess(res, 200); }] },
    '/ready': {
      get: [
        health('/health/ready'),
        async (_req, res) => {
          const ready = await isReady().catch(() => false);
          if (!ready) throw new HttpFailure('STORAGE_UNAVAILABLE');
          sendSuccess(res, 200);
        },
      ],
    },
  });
  return router;
}

function answerFailure(onUnexpectedError: HttpAppOptions['onUnexpectedError']): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    // Already answered by the deadline: a late failure, or a late success that failed to set
    // a header on the answered response, is dropped, not reported as unexpected.
    const dropLate = contextOf(res).dropLateResult;
    if (dropLate !== undefined) {
      dropLate(error);
      return;
    }
    const problem = problemOf(error);
    if (problem.code === 'INTERNAL') onUnexpectedError?.(error, req);
    if (!res.headersSent) sendProblem(res, problem);
  };
}
