import { type ChangeLog, type Clock } from '@workplan/core';
import { type Logger } from 'pino';

const DAY_MS = 86_400_000;

/** How often the old changes are removed, besides at start: hourly, and a minute after a prune the storage refused. */
export const RETENTION_SCHEDULE = { everyMs: 60 * 60 * 1000, retryMs: 60 * 1000 } as const;

/** A retention running in the background. */
export interface ChangeRetention {
  /** Schedules no more prunes, calls off the one running (if any), and resolves once it is over. */
  stop(): Promise<void>;
}

/**
 * Keeps `days` days of changes: removes the older ones now, then every `everyMs`, each time
 * logged in one line with the count. A prune the storage refuses (MongoDB still connecting
 * at start, an outage) is logged and tried again after `retryMs`: retention is housekeeping,
 * and never stops the service.
 */
export function keepChangesFor(
  days: number,
  changes: ChangeLog,
  clock: Clock,
  log: Logger,
  schedule: { readonly everyMs: number; readonly retryMs: number } = RETENTION_SCHEDULE,
): ChangeRetention {
  let timer: NodeJS.Timeout | undefined;
  // A prune may take a while over a large backlog or a slow database; a stopping service
  // does not wait for it, since the next start's prune removes whatever it left.
  const stopping = new AbortController();
  const again = (ms: number): void => {
    if (stopping.signal.aborted) return;
    timer = setTimeout(() => {
      running = prune();
    }, ms);
    timer.unref(); // A pending prune must not keep the process alive.
  };
  const prune = async (): Promise<void> => {
    const before = new Date(clock.now().getTime() - days * DAY_MS);
    try {
      const removed = await changes.prune(before, { signal: stopping.signal });
      log.info({ removed, before }, `changes retention: removed ${removed} change(s) older than ${days} day(s)`);
      again(schedule.everyMs);
    } catch (error) {
      if (stopping.signal.aborted) return;
      log.warn({ err: error }, `changes retention: the storage did not remove old changes; trying again in ${schedule.retryMs / 1000} s`);
      again(schedule.retryMs);
    }
  };
  let running = prune();
  return {
    stop: async () => {
      clearTimeout(timer);
      stopping.abort(new Error('the service is stopping'));
      await running;
    },
  };
}
