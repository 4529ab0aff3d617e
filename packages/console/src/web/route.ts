import { useEffect, useState } from 'preact/hooks';
import { listQueryOf, namesList, parametersOf, type ListQuery } from './list-query.js';
import { type ConsoleResource } from './resources.js';

/** Where the operator is: a resource's tab, the record opened in it, if any (`#/escalas/{id}`), and the list's search and order. */
export interface Route {
  readonly resource: ConsoleResource;
  readonly openedId: string | undefined;
  /** The list's search, order and page size, when the address names them (`q`, `sort`, `limit`). */
  readonly query: ListQuery | undefined;
  /** The address named a record in a form no link makes (`%E0%A4%A`, cut short when copied): the list is shown instead. */
  readonly misread: boolean;
}

/** The address of a resource's tab, or of one of its records, with the list's search and order when given. */
export function hrefOf(resource: ConsoleResource, id?: string, query?: ListQuery): string {
  const path = id === undefined ? `#/${resource.slug}` : `#/${resource.slug}/${encodeURIComponent(id)}`;
  return query === undefined ? path : path + parametersOf(query, resource.field);
}

function routeOf(hash: string, resources: readonly ConsoleResource[]): Route {
  const [place = '', parameters = ''] = hash.replace(/^#\/?/u, '').split('?');
  const [slug, id] = place.split('/');
  const resource = resources.find((candidate) => candidate.slug === slug) ?? resources[0];
  if (resource === undefined) throw new Error('the service describes no resource');
  const openedId = id === undefined || id === '' || resource.slug !== slug ? undefined : decoded(id);
  const asked = new URLSearchParams(resource.slug === slug ? parameters : '');
  const query = namesList(asked) ? listQueryOf(asked, resource.field) : undefined;
  return { resource, openedId: openedId ?? undefined, query, misread: openedId === null };
}

/** The id as written in the address, or null when its percent-escapes are no text. */
function decoded(id: string): string | null {
  try {
    return decodeURIComponent(id);
  } catch (error) {
    // The one failure decodeURIComponent has: a malformed escape.
    if (error instanceof URIError) return null;
    throw error;
  }
}

/** The route of the page's address among `resources`, kept current as links and the back button change it. */
export function useRoute(resources: readonly ConsoleResource[]): Route {
  const [route, setRoute] = useState(() => routeOf(location.hash, resources));
  useEffect(() => {
    const follow = () => {
      setRoute(routeOf(location.hash, resources));
    };
    addEventListener('hashchange', follow);
    return () => {
      removeEventListener('hashchange', follow);
    };
  }, [resources]);
  return route;
}

/**
 * Writes the list's search and order into the page's address, in place (no new history
 * entry for each letter typed, and no hashchange), so a reload shows the same list.
 */
export function keepInAddress(resources: readonly ConsoleResource[], resource: ConsoleResource, openedId: string | undefined, query: ListQuery): void {
  // The effect that calls this runs after the paint: by then a link or the back button may
  // have moved to another tab, whose address must stay (its hashchange reads it).
  if (routeOf(location.hash, resources).resource !== resource) return;
  const href = hrefOf(resource, openedId, query);
  if (location.hash !== href) history.replaceState(history.state, '', href);
}
