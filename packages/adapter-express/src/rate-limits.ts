import { type Request, type RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { HttpFailure } from './http-failure.js';
import { contextOf } from './request-context.js';

/** The limiters around the key check: by client address before it, by key after it. */
export interface RateLimits {
  readonly beforeKey: readonly RequestHandler[];
  readonly afterKey: readonly RequestHandler[];
}

export const noRateLimits: RateLimits = { beforeKey: [], afterKey: [] };

/**
 * `perMinute` requests a minute for each key, and as many failed key attempts a minute
 * for each client address (counted only when the answer is 401), in process memory.
 */
export function rateLimitsOf(perMinute: number): RateLimits {
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
    identifier: 'failed-keys',
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''),
    requestWasSuccessful: (_req, res) => res.statusCode !== 401,
    skipSuccessfulRequests: true,
  });
  const requestsPerKey = rateLimit({
    ...common,
    identifier: 'requests',
    keyGenerator: (_req, res) => contextOf(res).keyFingerprint ?? '',
  });
  return { beforeKey: [failedKeyAttempts], afterKey: [requestsPerKey] };
}
