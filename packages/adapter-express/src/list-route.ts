import { checkPage } from '@workplan/core';
import { type RequestHandler, type Response } from 'express';
import { sendSuccessJson } from './envelope.js';
import { cursorOfToken, cursorToken } from './list-cursor.js';
import { listParametersOf, listQueryStringOf, type ListParameters } from './list-parameters.js';
import { type RecordJson } from './record-json.js';
import { requestSignal } from './request-context.js';
import { type ListedRecords, type ResourceCatalog } from './resources.js';
import { param } from './route-table.js';

/**
 * The list of a resource at `listPath` (`/api/v1/scales`), for its three path forms: the
 * page in the path, the search, order, count and cursor in the query. The answer carries
 * `X-Total-Count` when asked, and a `Link` to the next page while one follows.
 */
export function listRoute(catalog: ResourceCatalog, json: RecordJson, listPath: string): RequestHandler {
  return async (req, res) => {
    const skip = pageNumber(param(req, 'skip'));
    const limit = pageNumber(param(req, 'limit'));
    // The page is checked before the query, so a request wrong in both is told of its page.
    checkPage({ skip: skip ?? 0, limit: limit ?? catalog.maxPageSize }, catalog.maxPageSize);
    const parameters = listParametersOf(req.url);
    const { q, sort, count } = parameters;
    const after = parameters.after === undefined ? undefined : cursorOfToken(parameters.after);
    const page = await catalog.list({ skip, limit, q, sort, count, after }, { signal: requestSignal(res) });
    const next = nextLinkOf(page, parameters, listPath, limit);
    if (next !== undefined) setHeader(res, 'Link', `<${next}>; rel="next"`);
    if (page.total !== undefined) setHeader(res, 'X-Total-Count', String(page.total));
    sendSuccessJson(res, 200, json.many(page.records, listKeyOf(parameters)));
  };
}

/**
 * The next page's path. A plain list goes on by `skip`, as it always has; a search, an
 * order or a cursor goes on after the page's last record, on the same path form with the
 * limit kept and no skip (the cursor already passed it), with the same parameters.
 */
function nextLinkOf(page: ListedRecords, parameters: ListParameters, listPath: string, limit: number | undefined): string | undefined {
  const count = parameters.count === undefined ? {} : { count: parameters.count };
  if (page.next !== undefined) return `${listPath}/${page.next.skip}/${page.next.limit}${listQueryStringOf(count)}`;
  if (page.nextAfter === undefined) return undefined;
  // A blank `q` is no search: left out, it says the same.
  const q = parameters.q === undefined || parameters.q.trim() === '' ? {} : { q: parameters.q };
  const sort = parameters.sort === undefined ? {} : { sort: parameters.sort };
  const path = limit === undefined ? listPath : `${listPath}/${limit}`;
  return `${path}${listQueryStringOf({ ...q, ...sort, ...count, after: cursorToken(page.nextAfter) })}`;
}

/** Which list a page belongs to, for the JSON kept of it: its search and order. */
function listKeyOf({ q, sort }: ListParameters): string {
  return q === undefined && sort === undefined ? '' : `${sort ?? ''} ${q ?? ''}`;
}

/** Sets a header unless the deadline has answered already; the answer then drops the late result. */
function setHeader(res: Response, name: string, value: string): void {
  if (!res.headersSent) res.setHeader(name, value);
}

/**
 * Plain decimal digits only: `007` is 7, while `-1`, `1.5` and `1e3` are no number, which
 * `checkPage` refuses saying the range it takes; absent stays unset.
 */
function pageNumber(segment: string | undefined): number | undefined {
  if (segment === undefined) return undefined;
  return /^[0-9]+$/u.test(segment) ? Number(segment) : Number.NaN;
}
