import { WorkplanClientError } from './errors.js';

/** The orders a list takes: by `createdAt` (the default), `updatedAt` or the text field `F`; a leading `-` reverses it. */
export type SortOrder<F extends string> = 'createdAt' | '-createdAt' | 'updatedAt' | '-updatedAt' | F | `-${F}`;

/**
 * The page of a list to ask for. Every member is optional: `limit` records (the service's
 * largest page when left out) after passing over `skip` (which needs a `limit`); `q`
 * keeps the records whose text contains it, accents and case aside; `sort` orders them;
 * `count` asks for the total; `after` is a cursor from a previous page's `next`, opaque.
 */
export interface PageRequest<F extends string = string> {
  readonly limit?: number;
  readonly skip?: number;
  readonly q?: string;
  readonly sort?: SortOrder<F>;
  readonly count?: boolean;
  readonly after?: string;
}

/** The path of the list at `/api/v1/{plural}` for `page`, its query parameters percent-encoded. */
export function listPathOf(plural: string, page: PageRequest = {}): string {
  const { limit, skip } = page;
  if (skip !== undefined && limit === undefined) throw new TypeError('a page with skip needs a limit: the service takes skip only as /{skip}/{limit}');
  const path = limit === undefined ? `/api/v1/${plural}` : `/api/v1/${plural}/${skip ?? 0}/${limit}`;
  // `count=true` or nothing: the service refuses `count=false`.
  const parameters: [string, string | undefined][] = [['q', page.q], ['sort', page.sort], ['count', page.count === true ? 'true' : undefined], ['after', page.after]];
  const query = parameters.flatMap(([name, value]) => (value === undefined ? [] : [`${name}=${encodeURIComponent(value)}`]));
  return query.length === 0 ? path : `${path}?${query.join('&')}`;
}

/**
 * The page a `next` link of the list at `/api/v1/{plural}` names: `/{skip}/{limit}`,
 * `/{limit}` or no page in the path, and the list's parameters in its query.
 */
export function pageOfLink<F extends string>(plural: string, next: string): PageRequest<F> {
  const url = new URL(next, 'http://service.invalid');
  const match = new RegExp(`/${plural}(?:/(\\d+))?(?:/(\\d+))?/?$`, 'iu').exec(url.pathname);
  if (match === null) throw new WorkplanClientError(200, 'UNEXPECTED_RESPONSE', 'HTTP 200', `O link da próxima página não é uma página: ${next}`, '');
  const [, first, second] = match;
  const numbers = second === undefined ? { ...(first === undefined ? {} : { limit: Number(first) }) } : { skip: Number(first), limit: Number(second) };
  const read = (name: string) => url.searchParams.get(name) ?? undefined;
  const q = read('q');
  const sort = read('sort') as SortOrder<F> | undefined;
  const count = read('count');
  const after = read('after');
  return {
    ...numbers,
    ...(q === undefined ? {} : { q }),
    ...(sort === undefined ? {} : { sort }),
    ...(count === undefined ? {} : { count: count === 'true' }),
    ...(after === undefined ? {} : { after }),
  };
}
