import { WorkplanClientError, type WorkplanClient } from '@workplan/client';
import { useEffect, useState } from 'preact/hooks';
import { PAGE_SIZES } from './list-query.js';

// The service's page maximum (LIST_MAX_LIMIT) is a setting of its own, said only by a page
// over it being refused (INVALID_PAGINATION): so the console asks for its larger sizes, the
// largest first, and offers those the service accepts. Once a key, whichever tab is shown.
const learned = new WeakMap<WorkplanClient, Promise<readonly number[]>>();

/** The page sizes the service accepts, of those the console has; undefined until it has answered. */
export function usePageSizes(client: WorkplanClient): readonly number[] | undefined {
  const [sizes, setSizes] = useState<readonly number[] | undefined>(undefined);
  useEffect(() => {
    let shown = true;
    void acceptedSizes(client).then((accepted) => {
      if (shown) setSizes(accepted);
    });
    return () => {
      shown = false;
    };
  }, [client]);
  return sizes;
}

function acceptedSizes(client: WorkplanClient): Promise<readonly number[]> {
  let sizes = learned.get(client);
  if (sizes === undefined) {
    sizes = largestAccepted(client).then((largest) => PAGE_SIZES.filter((size, n) => n === 0 || size <= largest));
    learned.set(client, sizes);
  }
  return sizes;
}

/** The largest of the console's sizes the service gives a page of; any other failure says nothing of the maximum, so every size stays. */
async function largestAccepted(client: WorkplanClient): Promise<number> {
  const [smallest, ...larger] = PAGE_SIZES;
  for (const size of larger.toReversed()) {
    try {
      await client.scales.listPage({ limit: size });
      return size;
    } catch (error) {
      if (!(error instanceof WorkplanClientError && error.code === 'INVALID_PAGINATION')) return Number.POSITIVE_INFINITY;
    }
  }
  return smallest;
}
