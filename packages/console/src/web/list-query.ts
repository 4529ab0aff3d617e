// What an operator asked the list for: a search, an order and a page size. It lives in the
// page's address (`#/centros-de-custo?q=manut&sort=-updatedAt&limit=25`), so a reload or a
// shared link shows the same list; the values are the API's own `q`, `sort` and `limit`.

/** The columns the list orders by: the record's text, or a date. */
export type SortColumn = 'text' | 'createdAt' | 'updatedAt';

export interface ListOrder {
  readonly column: SortColumn;
  readonly descending: boolean;
}

export interface ListQuery {
  /** The search as typed, trimmed; empty is no search. */
  readonly search: string;
  readonly order: ListOrder;
  /** How many records a page reads: one of PAGE_SIZES. */
  readonly pageSize: number;
}

/** The console's own order, newest first, so the record just created is at the top. */
export const DEFAULT_ORDER: ListOrder = { column: 'createdAt', descending: true };

/** The page sizes offered, the first the default. */
export const PAGE_SIZES = [10, 25, 100] as const;

/** The list before any search, order or page size: everything, newest first, 10 a page. */
export const DEFAULT_QUERY: ListQuery = { search: '', order: DEFAULT_ORDER, pageSize: PAGE_SIZES[0] };

/** The contract's longest `q`. */
export const SEARCH_MAX_LENGTH = 200;

export function isDefaultOrder(order: ListOrder): boolean {
  return order.column === DEFAULT_ORDER.column && order.descending === DEFAULT_ORDER.descending;
}

/** The API's `sort` for `order`, on a resource whose text is `field` (`value`, `title`). */
export function sortOf(order: ListOrder, field: string): string {
  return `${order.descending ? '-' : ''}${order.column === 'text' ? field : order.column}`;
}

/** The order an API `sort` names; an unknown one (an old link, a typo) is the default. */
export function orderOf(sort: string | null, field: string): ListOrder {
  const name = sort?.replace(/^-/u, '');
  const column = name === field ? 'text' : name === 'createdAt' || name === 'updatedAt' ? name : undefined;
  return column === undefined ? DEFAULT_ORDER : { column, descending: sort?.startsWith('-') === true };
}

/** The page size an address's `limit` names; one not offered is the default. */
function pageSizeOf(limit: string | null): number {
  return PAGE_SIZES.find((size) => String(size) === limit) ?? DEFAULT_QUERY.pageSize;
}

/** Whether an address names a list (`q`, `sort` or `limit`), rather than leaving it as it is. */
export function namesList(parameters: URLSearchParams): boolean {
  return ['q', 'sort', 'limit'].some((name) => parameters.has(name));
}

/** The query of an address's `?q=...&sort=...&limit=...`. */
export function listQueryOf(parameters: URLSearchParams, field: string): ListQuery {
  return {
    search: (parameters.get('q') ?? '').trim().slice(0, SEARCH_MAX_LENGTH),
    order: orderOf(parameters.get('sort'), field),
    pageSize: pageSizeOf(parameters.get('limit')),
  };
}

/** The `?q=...&sort=...&limit=...` of an address for `query`; empty for the default list. */
export function parametersOf(query: ListQuery, field: string): string {
  const parameters = new URLSearchParams();
  if (query.search !== '') parameters.set('q', query.search);
  if (!isDefaultOrder(query.order)) parameters.set('sort', sortOf(query.order, field));
  if (query.pageSize !== DEFAULT_QUERY.pageSize) parameters.set('limit', String(query.pageSize));
  const text = parameters.toString();
  return text === '' ? '' : `?${text}`;
}
