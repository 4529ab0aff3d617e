import { WorkplanError, type Change, type ChangeLog } from '@workplan/core';

/**
 * Where the kept changes begin and end, found through the change log's one way of reading
 * (`read(after, 1)`) in a number of reads that grows with the logarithm of the distance:
 * the port says nothing else of its edges, and these are needed seldom (a retention skip,
 * the status page).
 */

/** True when a change follows `after`; `undefined` when the changes after `after` were pruned. */
async function hasChangeAfter(log: ChangeLog, after: number): Promise<boolean | undefined> {
  try {
    return (await log.read(after, 1)).length > 0;
  } catch (error) {
    if (WorkplanError.is(error) && error.kind === 'cursorExpired') return undefined;
    throw error;
  }
}

/**
 * The smallest place at or after `from` that can be read from: past `from` when pruning
 * removed the changes that followed it, `from` itself otherwise.
 */
export async function firstReadable(log: ChangeLog, from: number): Promise<number> {
  return smallestWhere(from, async (place) => (await hasChangeAfter(log, place)) !== undefined);
}

/** The oldest change after `cursor` still kept; `undefined` when none follows it. */
export async function oldestAfter(log: ChangeLog, cursor: number): Promise<Change | undefined> {
  const [oldest] = await log.read(await firstReadable(log, cursor), 1);
  return oldest;
}

/** The sequence of the latest change, found from `from`, a place the log can be read from. */
export async function latestSequence(log: ChangeLog, from: number): Promise<number> {
  // A place whose followers were pruned has later changes still: those kept, or none if all went.
  return smallestWhere(from, async (place) => (await hasChangeAfter(log, place)) === false);
}

/** The smallest place at or after `from` where `holds`, which once true stays true: doubling steps, then halving. */
async function smallestWhere(from: number, holds: (place: number) => Promise<boolean>): Promise<number> {
  if (await holds(from)) return from;
  let below = from;
  let step = 1;
  while (!(await holds(from + step))) {
    below = from + step;
    step *= 2;
  }
  let above = from + step;
  while (above - below > 1) {
    const middle = below + Math.floor((above - below) / 2);
    if (await holds(middle)) above = middle;
    else below = middle;
  }
  return above;
}
