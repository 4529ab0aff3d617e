/** @workplan/adapter-express: the Express 5 HTTP adapter of the workplan service. */
export { ApiKeys, fingerprintOf, keyEntryOf, MAX_KEY_BYTES, type KeyEntry, type KeyHolder, type KeyRole } from './api-keys.js';
export { type ApiRead, type ApiReadOptions } from './api-read.js';
export { createApiRouter, DEFAULT_HEARTBEAT_SECONDS, type ApiRouterOptions } from './api-router.js';
export { describedChanges, type DescribedChanges } from './change-json.js';
export { type FollowerBound, type FollowerBounds, type FollowerRefusalWatch, type FollowerWatch } from './follower-bounds.js';
export { answerClientError } from './client-error.js';
export { CONSOLE_PATH, consoleRouter } from './console-site.js';
export { CONSOLE_CONTENT_SECURITY_POLICY, DOCS_CONTENT_SECURITY_POLICY } from './page-policy.js';
export { type LateResult } from './deadline.js';
export { type HitCounter } from './hit-store.js';
export { createHttpApp, type HttpAppOptions } from './http-app.js';
export { drainable, type CutShort, type Drain } from './drain.js';
export { createHttpServer, type HttpServerOptions } from './http-server.js';
export { docsRouter, openApiDocument, type Json } from './openapi/index.js';
export { routeName } from './operation.js';
export { routeTable, type RouteMethods } from './route-table.js';
export { BODY_LIMIT_BYTES, problems, type ErrorCode } from './problems.js';
export { type AnsweredRequest, type ResponseObserver } from './response-observer.js';
export { contextOf, type RequestContext } from './request-context.js';
export {
  changesDescription,
  webhooksDescription,
  httpResourcesOf,
  type ChangesFeed,
  type HttpResource,
  type RecordChange,
  type ResourceCatalog,
} from './resources.js';
