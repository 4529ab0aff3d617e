import { MAX_CHANGES_WAIT_SECONDS, type RecordBase } from '@workplan/core';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { type ApiKeys } from './api-keys.js';
import { apiReadRoute, type ApiRead } from './api-read.js';
import { changesJsonOf, type ChangesJson } from './change-json.js';
import { changesParametersOf, changesQueryStringOf, HISTORY_NAMES } from './changes-parameters.js';
import { changesRoute } from './changes-route.js';
import { entityTagOf, expectedRevisionsOf, noneMatchHits } from './entity-tags.js';
import { sendNotModified, sendSuccess, sendSuccessJson } from './envelope.js';
import { readJsonBody, requireJsonMediaType } from './json-body.js';
import { followerAdmission, type FollowerBounds, type FollowerRefusalWatch, type FollowerWatch } from './follower-bounds.js';
import { endWhenKeyGoes, identifyKey, requireKey, requireRole } from './key-check.js';
import { listRoute } from './list-route.js';
import { operation } from './operation.js';
import { changesJsonInTurns, PageTurns } from './page-turns.js';
import { noRateLimits, type RateLimits } from './rate-limits.js';
import { recordJsonOf, type RecordJson } from './record-json.js';
import { contextOf, requestSignal } from './request-context.js';
import { changesDescription, type ChangesFeed, type HttpResource } from './resources.js';
import { param, routeTable, type RouteMethods } from './route-table.js';

/** Seconds between the comments of an idle event stream, unless told otherwise. */
export const DEFAULT_HEARTBEAT_SECONDS = 15;

export interface ApiRouterOptions {
  readonly resources: readonly HttpResource[];
  /** The changes of every resource, in commit order (`/changes`, and each record's history). */
  readonly changes: ChangesFeed;
  readonly keys: ApiKeys;
  readonly rateLimits?: RateLimits;
  /** Where the router is mounted, for `Location` and `Link`; `/api/v1` by default. */
  readonly basePath?: string;
  /** Seconds between the comments an idle event stream of changes sends; 15 by default. */
  readonly heartbeatSeconds?: number;
  /** More read-only paths, served as every other (such as `/webhooks`). */
  readonly reads?: readonly ApiRead[] | undefined;
  /** Told of each follower of the changes held open (an event stream, a long poll), for metrics. */
  readonly onFollowerHeld?: FollowerWatch | undefined;
  /** How many followers of the changes may be held open, per key and in all; past one, 429 or 503 at once. No bound when unset. */
  readonly followerBounds?: FollowerBounds | undefined;
  /** Told of each follower refused by a bound, and which (metrics). */
  readonly onFollowerRefused?: FollowerRefusalWatch | undefined;
}

/** The handlers every operation of the interface runs first: its message, the key, the rate limits and the key's role. */
type Guard = (message: string, route: string, ...handlers: RequestHandler[]) => RequestHandler[];

/** A resource with the JSON its records are written in, shared by its routes and the changes. */
type ServedResource = HttpResource & { readonly json: RecordJson };

/** The router of every path of the interface, for every resource described, and the changes of them all. */
export function createApiRouter(options: ApiRouterOptions): Router {
  const router = Router({ caseSensitive: false, strict: false });
  const basePath = options.basePath ?? '/api/v1';
  const limits = options.rateLimits ?? noRateLimits;
  const guarded: Guard = (message, route, ...handlers) => [
    operation(message, `${basePath}${route}`),
    identifyKey(options.keys),
    ...limits.withoutKey,
    requireKey,
    ...limits.withKey,
    requireRole,
    ...handlers,
  ];
  const served = options.resources.map((resource) => ({ ...resource, json: recordJsonOf(resource.field) }));
  const changesJson = changesJsonOf(served.map(({ catalog, singular, json }) => ({ kind: catalog.kind.name, singular, json })));
  // One for the feed's pages and every history's: the bound holds across them all.
  const turns = new PageTurns();
  for (const resource of served) routeTable(router, resourceRoutes(resource, guarded, { json: changesJson, turns }, basePath));
  const changesPath = `/${changesDescription.path}`;
  const heartbeatSeconds = options.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS;
  // A stream waits for changes a heartbeat at a time, and a wait is 1 to 30 s: anything else would end every stream.
  if (!Number.isInteger(heartbeatSeconds) || heartbeatSeconds < 1 || heartbeatSeconds > MAX_CHANGES_WAIT_SECONDS) {
    throw new RangeError(`heartbeatSeconds must be a whole number from 1 to ${MAX_CHANGES_WAIT_SECONDS}, not ${heartbeatSeconds}`);
  }
  const changes = changesRoute({
    feed: options.changes,
    json: changesJson,
    turns,
    path: `${basePath}${changesPath}`,
    heartbeatSeconds,
    admitFollower: followerAdmission({ bounds: options.followerBounds, onHeld: options.onFollowerHeld, onRefused: options.onFollowerRefused }),
  });
  // The feed is the one path that reads on after its request began: a key that goes ends it.
  routeTable(router, { [changesPath]: { get: guarded(changesDescription.message, changesPath, endWhenKeyGoes(options.keys), changes) } });
  for (const read of options.reads ?? []) routeTable(router, { [read.path]: { get: guarded(read.message, read.path, apiReadRoute(read)) } });
  return router;
}

/** How pages of changes are written: their JSON, and the turns of the event loop their pieces take. */
interface ChangePages {
  readonly json: ChangesJson;
  readonly turns: PageTurns;
}

function resourceRoutes(resource: ServedResource, guarded: Guard, changePages: ChangePages, basePath: string): Record<string, RouteMethods> {
  const { catalog, singular, plural, json, messages } = resource;
  const withBody = [requireJsonMediaType, ...readJsonBody];
  const list = listRoute(catalog, json, `${basePath}/${plural}`);

  return {
    [`/${singular}`]: {
      post: guarded(messages.create, `/${singular}`, ...withBody, async (req: Request, res: Response) => {
        const record = await catalog.create(req.body, writer(res));
        res.location(`${basePath}/${singular}/${record.id}`);
        sendRecord(res, 201, record, json);
      }),
    },
    [`/${singular}/:id`]: {
      get: guarded(messages.find, `/${singular}/:id`, async (req, res) => {
        const record = await catalog.find(idParam(req), { signal: requestSignal(res) });
        if (noneMatchHits(req.get('If-None-Match'), record)) sendNotModified(res, entityTagOf(record));
        else sendRecord(res, 200, record, json);
      }),
      put: guarded(messages.update, `/${singular}/:id`, ...withBody, async (req, res) => {
        sendRecord(res, 200, await catalog.update(idParam(req), req.body, expectedRevisionsOf(req.get('If-Match')), writer(res)), json);
      }),
      delete: guarded(messages.delete, `/${singular}/:id`, async (req, res) => {
        await catalog.delete(idParam(req), expectedRevisionsOf(req.get('If-Match')), writer(res));
        sendSuccess(res, 200);
      }),
    },
    [`/${plural}`]: { get: guarded(messages.list, `/${plural}`, list) },
    [`/${plural}/:limit`]: { get: guarded(messages.list, `/${plural}/:limit`, list) },
    [`/${plural}/:skip/:limit`]: { get: guarded(messages.list, `/${plural}/:skip/:limit`, list) },
    // A record's history is a read of the record: it fails as a find does (404 for an id that never was).
    // Last: Express tries the paths in turn, and the lists are asked for far more often.
    [`/${singular}/:id/history`]: {
      get: guarded(messages.find, `/${singular}/:id/history`, async (req, res) => {
        const id = idParam(req);
        const parameters = changesParametersOf(req.url, HISTORY_NAMES);
        const signal = requestSignal(res);
        const { json, turns } = changePages;
        // The read is a piece of the page's work (page-turns.ts): it waits for its turn.
        await turns.begin(signal);
        const page = await catalog.history(id, parameters, { signal });
        const body = await changesJsonInTurns(page.changes, json, turns, signal);
        if (page.next !== undefined && !res.headersSent) {
          res.setHeader('Link', `<${basePath}/${singular}/${encodeURIComponent(id)}/history${changesQueryStringOf(parameters, page.next)}>; rel="next"`);
        }
        sendSuccessJson(res, 200, body);
      }),
    },
  };
}

/** Who writes: the name of the request's key, which `requireKey` has made sure of. */
function writer(res: Response): { by: string } {
  const key = contextOf(res).key;
  if (key === undefined) throw new TypeError('a write reached its handler without a key');
  return { by: key.name };
}

/** Answers one record, with its entity tag. */
function sendRecord(res: Response, status: number, record: RecordBase, json: RecordJson): void {
  if (!res.headersSent) res.setHeader('ETag', entityTagOf(record));
  sendSuccessJson(res, status, json.one(record)); // Which drops a result that comes after the deadline answered.
}

function idParam(req: Request): string {
  return param(req, 'id') ?? '';
}
