import { type RecordBase } from '@workplan/core';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { type ApiKeys } from './api-keys.js';
import { entityTagOf, expectedRevisionsOf, noneMatchHits } from './entity-tags.js';
import { sendNotModified, sendSuccess, sendSuccessJson } from './envelope.js';
import { readJsonBody, requireJsonMediaType } from './json-body.js';
import { identifyKey, requireKey, requireRole } from './key-check.js';
import { listRoute } from './list-route.js';
import { operation } from './operation.js';
import { noRateLimits, type RateLimits } from './rate-limits.js';
import { recordJsonOf, type RecordJson } from './record-json.js';
import { requestSignal } from './request-context.js';
import { type HttpResource, type Operation } from './resources.js';
import { param, routeTable, type RouteMethods } from './route-table.js';

export interface ApiRouterOptions {
  readonly resources: readonly HttpResource[];
  readonly keys: ApiKeys;
  readonly rateLimits?: RateLimits;
  /** Where the router is mounted, for `Location` and `Link`; `/api/v1` by default. */
  readonly basePath?: string;
}

/** The router of every path of the interface, for every resource described. */
export function createApiRouter(options: ApiRouterOptions): Router {
  const router = Router({ caseSensitive: false, strict: false });
  const basePath = options.basePath ?? '/api/v1';
  for (const resource of options.resources) {
    routeTable(router, resourceRoutes(resource, options.keys, options.rateLimits ?? noRateLimits, basePath));
  }
  return router;
}

function resourceRoutes(
  resource: HttpResource,
  keys: ApiKeys,
  limits: RateLimits,
  basePath: string,
): Record<string, RouteMethods> {
  const { catalog, singular, plural } = resource;
  const json = recordJsonOf(resource.field);
  const guarded = (op: Operation, route: string, ...handlers: RequestHandler[]): RequestHandler[] => [
    operation(resource.messages[op], `${basePath}${route}`),
    identifyKey(keys),
    ...limits.withoutKey,
    requireKey,
    ...limits.withKey,
    requireRole,
    ...handlers,
  ];
  const withBody = [requireJsonMediaType, ...readJsonBody];
  const list = listRoute(catalog, json, `${basePath}/${plural}`);

  return {
    [`/${singular}`]: {
      post: guarded('create', `/${singular}`, ...withBody, async (req: Request, res: Response) => {
        const record = await catalog.create(req.body);
        res.location(`${basePath}/${singular}/${record.id}`);
        sendRecord(res, 201, record, json);
      }),
    },
    [`/${singular}/:id`]: {
      get: guarded('find', `/${singular}/:id`, async (req, res) => {
        const record = await catalog.find(idParam(req), { signal: requestSignal(res) });
        if (noneMatchHits(req.get('If-None-Match'), record)) sendNotModified(res, entityTagOf(record));
        else sendRecord(res, 200, record, json);
      }),
      put: guarded('update', `/${singular}/:id`, ...withBody, async (req, res) => {
        sendRecord(res, 200, await catalog.update(idParam(req), req.body, expectedRevisionsOf(req.get('If-Match'))), json);
      }),
      delete: guarded('delete', `/${singular}/:id`, async (req, res) => {
        await catalog.delete(idParam(req), expectedRevisionsOf(req.get('If-Match')));
        sendSuccess(res, 200);
      }),
    },
    [`/${plural}`]: { get: guarded('list', `/${plural}`, list) },
    [`/${plural}/:limit`]: { get: guarded('list', `/${plural}/:limit`, list) },
    [`/${plural}/:skip/:limit`]: { get: guarded('list', `/${plural}/:skip/:limit`, list) },
  };
}

/** Answers one record, with its entity tag. */
function sendRecord(res: Response, status: number, record: RecordBase, json: RecordJson): void {
  if (!res.headersSent) res.setHeader('ETag', entityTagOf(record));
  sendSuccessJson(res, status, json.one(record)); // Which drops a result that comes after the deadline answered.
}

function idParam(req: Request): string {
  return param(req, 'id') ?? '';
}
