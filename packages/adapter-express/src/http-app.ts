import express, { Router, type ErrorRequestHandler, type Express, type Request } from 'express';
import { type ApiKeys } from './api-keys.js';
import { createApiRouter } from './api-router.js';
import { problemOf, sendProblem, sendSuccess } from './envelope.js';
import { HttpFailure } from './http-failure.js';
import { identifyRequest, operation } from './middleware.js';
import { routeMessages } from './problems.js';
import { type HttpResource } from './resources.js';
import { routeTable } from './route-table.js';

export interface HttpAppOptions {
  readonly resources: readonly HttpResource[];
  readonly keys: ApiKeys;
  /** Resolves whether the storage answers; drives `/health/ready`. */
  readonly isReady: () => Promise<boolean>;
  /** Told of every failure answered 500, which callers never see the details of. */
  readonly onUnexpectedError?: (error: unknown, req: Request) => void;
}

/** The whole HTTP face of the service: `/api/v1`, `/health`, and the envelope for everything else. */
export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(identifyRequest);
  app.use('/api/v1', createApiRouter({ resources: options.resources, keys: options.keys }));
  app.use('/health', healthRouter(options.isReady));
  app.use((_req, _res, next) => {
    next(new HttpFailure('ROUTE_NOT_FOUND'));
  });
  app.use(answerFailure(options.onUnexpectedError));
  return app;
}

function healthRouter(isReady: () => Promise<boolean>): Router {
  const router = Router({ caseSensitive: false, strict: false });
  const unavailable = operation(routeMessages.unavailable, '/health');
  routeTable(router, {
    '/live': { get: [unavailable, (_req, res) => { sendSuccess(res, 200); }] },
    '/ready': {
      get: [
        unavailable,
        async (_req, res) => {
          const ready = await isReady().catch(() => false);
          if (!ready) throw new HttpFailure('STORAGE_UNAVAILABLE', { 'Retry-After': '2' });
          sendSuccess(res, 200);
        },
      ],
    },
  });
  return router;
}

function answerFailure(onUnexpectedError: HttpAppOptions['onUnexpectedError']): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const problem = problemOf(error);
    if (problem.code === 'INTERNAL') onUnexpectedError?.(error, req);
    sendProblem(res, problem);
  };
}
