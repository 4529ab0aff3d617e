import { useEffect, useState } from 'preact/hooks';
import { consoleResources, type ConsoleResource } from './resources.js';

/** Where the operator is: a resource's tab, and the record opened in it, if any (`#/escalas/{id}`). */
export interface Route {
  readonly resource: ConsoleResource;
  readonly openedId: string | undefined;
}

/** The address of a resource's tab, or of one of its records. */
export function hrefOf(resource: ConsoleResource, id?: string): string {
  return id === undefined ? `#/${resource.slug}` : `#/${resource.slug}/${encodeURIComponent(id)}`;
}

function routeOf(hash: string): Route {
  const [slug, id] = hash.replace(/^#\/?/u, '').split('/');
  const resource = consoleResources.find((candidate) => candidate.slug === slug) ?? consoleResources[0];
  if (resource === undefined) throw new Error('the console describes no resource');
  const openedId = id === undefined || id === '' || resource.slug !== slug ? undefined : decodeURIComponent(id);
  return { resource, openedId };
}

/** The route of the page's address, kept current as links and the back button change it. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location.hash));
  useEffect(() => {
    const follow = () => {
      setRoute(routeOf(location.hash));
    };
    addEventListener('hashchange', follow);
    return () => {
      removeEventListener('hashchange', follow);
    };
  }, []);
  return route;
}
