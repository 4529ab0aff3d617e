import { type Request, type RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { HitCounterStore, LocalHitCounter, type HitCounter } from './hit-store.js';
import { HttpFailure } from './http-failure.js';
import { contextOf } from './request-context.js';

/**
 * The limiters around the key check, once the key is identified: by client address for a
 * request without a valid key, by key for a request with one.
 */
export interface RateLimits {
  readonly withoutKey: readonly RequestHandler[];
  readonly withKey: readonly RequestHandler[];
}

export const noRateLimits: RateLimits = { withoutKey: [], withKey: [] };

/**
 * `perMinute` requests a minute (of the clock) for each key, and as many failed key attempts
 * a minute for each client address, counted by `counter` where every instance sees the
 * counts, else in this process's memory. A request with a valid key is never counted against
 * its address, so clients that fail at one address (a shared NAT, a proxy without
 * `TRUST_PROXY`) cannot lock out a valid key there.
 */
export function rateLimitsOf(perMinute: number, counter: HitCounter = new LocalHitCounter()): RateLimits {
  const storeOf = (identifier: string) => ({ store: new HitCounterStore(counter, `${identifier}:`) });
  const common = {
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req: Request, _res: unknown, next: (error: HttpFailure) => void) => {
      next(new HttpFailure('RATE_LIMITED'));
    },
  } as const;
  const failedKeyAttempts = rateLimit({
    ...common,
    ...storeOf('failed-keys'),
    identifier: 'failed-keys',
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''),
    skip: (_req, res) => contextOf(res).key !== undefined,
  });
  const requestsPerKey = rateLimit({
    ...common,
    ...storeOf('requests'),
    identifier: 'requests',
    // Names are unique among the configured keys, so a key's name counts for that key alone.
    keyGenerator: (_req, res) => contextOf(res).key?.name ?? '',
  });
  return { withoutKey: [failedKeyAttempts], withKey: [requestsPerKey] };
}
