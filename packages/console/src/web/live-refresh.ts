import { useEffect } from 'preact/hooks';
import { type ConsoleResource } from './resources.js';
import { useServices } from './services.js';

// Changes come in bursts (a colleague's import): one reading of the list for a burst.
const REFRESH_DELAY_MS = 150;

/**
 * Calls `refresh` a moment after a colleague changes a record of `resource`, once for a burst
 * of changes, and when the console may have missed some (it started following again).
 * `refresh` is the one of the first render: it must itself call the latest reading.
 */
export function useRefreshOnChanges(resource: ConsoleResource, refresh: () => Promise<void>): void {
  const { live } = useServices();
  useEffect(() => {
    let pending: ReturnType<typeof setTimeout> | undefined;
    const stop = live.listen((change) => {
      if (pending !== undefined || (change !== undefined && change.resource !== resource.name)) return;
      pending = setTimeout(() => {
        pending = undefined;
        void refresh();
      }, REFRESH_DELAY_MS);
    });
    return () => {
      stop();
      clearTimeout(pending);
    };
  }, [live, resource]);
}
