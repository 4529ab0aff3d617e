// What an operator asked the list for: a search and an order. It lives in the page's
// address (`#/centros-de-custo?q=manut&sort=-updatedAt`), so a reload or a shared link
// shows the same list; the values are the API's own `q` and `sort`.

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
}

/** The service's own order, oldest first, asked for without a `sort`. */
export const DEFAULT_ORDER: ListOrder = { column: 'createdAt', descending: false };

/** The list before any search or order: everything, in the service's own order. */
export const DEFAULT_QUERY: ListQuery = { search: '', order: DEFAULT_ORDER };

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

/** The query of an address's `?q=...&sort=...`. */
export function listQueryOf(parameters: URLSearchParams, field: string): ListQuery {
  return { search: (parameters.get('q') ?? '').trim().slice(0, SEARCH_MAX_LENGTH), order: orderOf(parameters.get('sort'), field) };
}

/** The `?q=...&sort=...` of an address for `query`; empty for the default list. */
export function parametersOf(query: ListQuery, field: string): string {
  const parameters = new URLSearchParams();
  if (query.search !== '') parameters.set('q', query.search);
  if (!isDefaultOrder(query.order)) parameters.set('sort', sortOf(query.order, field));
  const text = parameters.toString();
  return text === '' ? '' : `?${text}`;
}
