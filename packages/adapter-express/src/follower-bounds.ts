import { type ServerResponse } from 'node:http';
import { HttpFailure } from './http-failure.js';
import { contextOf } from './request-context.js';

/** How many followers of the changes (event streams, long polls waiting) may be held open: per key, and in all. */
export interface FollowerBounds {
  readonly perKey: number;
  readonly total: number;
}

/** Which bound refused a follower: its key's, or the total. */
export type FollowerBound = 'key' | 'total';

/** What is told of a follower held open: an event stream or a long poll (`wait`); returns what to call once it is let go. */
export type FollowerWatch = (kind: 'stream' | 'poll') => () => void;

/** Told of each follower refused, and by which bound (metrics). */
export type FollowerRefusalWatch = (bound: FollowerBound) => void;

/** Takes a follower in before anything is read for it, or refuses it; returns what lets it go. */
export type FollowerAdmission = (res: ServerResponse, kind: 'stream' | 'poll') => () => void;

export interface FollowerAdmissionOptions {
  /** Unset: no bound, every follower is held. */
  readonly bounds?: FollowerBounds | undefined;
  readonly onHeld?: FollowerWatch | undefined;
  readonly onRefused?: FollowerRefusalWatch | undefined;
}

/**
 * Counts the followers held open, by the name of their key (names are unique among the
 * keys), and refuses one past a bound at once: 429 past its key's, 503 past the total. Each
 * is counted from when it is taken in until the function returned is called (once counts).
 */
export function followerAdmission({ bounds, onHeld, onRefused }: FollowerAdmissionOptions): FollowerAdmission {
  const byKey = new Map<string, number>();
  let total = 0;
  return (res, kind) => {
    const name = contextOf(res).key?.name ?? '';
    const ofKey = byKey.get(name) ?? 0;
    const refused: FollowerBound | undefined =
      bounds === undefined ? undefined : ofKey >= bounds.perKey ? 'key' : total >= bounds.total ? 'total' : undefined;
    if (refused !== undefined) {
      onRefused?.(refused);
      throw new HttpFailure(refused === 'key' ? 'TOO_MANY_FOLLOWERS' : 'FOLLOWERS_FULL');
    }
    byKey.set(name, ofKey + 1);
    total += 1;
    const watched = onHeld?.(kind);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      total -= 1;
      const left = (byKey.get(name) ?? 1) - 1;
      if (left === 0) byKey.delete(name);
      else byKey.set(name, left);
      watched?.();
    };
  };
}
