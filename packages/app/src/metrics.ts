import { routeName, routeTable, type AnsweredRequest, type FollowerBounds, type FollowerRefusalWatch, type FollowerWatch } from '@workplan/adapter-express';
import { Router } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The files whose reload on SIGHUP can fail, as the operator names them. */
export type ReloadedFile = 'API_KEYS_FILE' | 'WEBHOOKS_FILE';

/**
 * The service's Prometheus metrics, in a registry of its own (so tests can make several):
 * what every request did, and each failure an operator acts on (docs/operations.md says
 * what each means and what to do).
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  // Its `_count` series counts the answered requests: a separate counter would cost every
  // request a second label lookup for the same number.
  readonly #duration = new Histogram({
    name: 'workplan_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  // The key's name, never the key; the names come from the operator's keys, so the series
  // stay as few as the keys configured. A label of its own counter rather than of the
  // histogram: a series per bucket for every key would cost more than it tells.
  readonly #byKey = new Counter({
    name: 'workplan_http_requests_by_key_total',
    help: 'Requests made with a valid key, by the key name and status',
    labelNames: ['key', 'status'] as const,
    registers: [this.registry],
  });
  readonly #storageErrors = new Counter({
    name: 'workplan_storage_unavailable_total',
    help: 'Requests answered 503 because the storage did not answer in time',
    registers: [this.registry],
  });
  readonly #reloadFailures = new Counter({
    name: 'workplan_reload_failures_total',
    help: 'Reloads of API_KEYS_FILE or WEBHOOKS_FILE (SIGHUP) that failed and kept the old keys or subscriptions, by file',
    labelNames: ['file'] as const,
    registers: [this.registry],
  });
  readonly #followers = new Gauge({
    name: 'workplan_changes_followers',
    help: 'Followers of /api/v1/changes held open now, by kind (stream: an event stream; poll: a long poll waiting)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly #followersRefused = new Counter({
    name: 'workplan_changes_followers_refused_total',
    help: 'Followers of /api/v1/changes refused at once, by the bound they met (key: 429, FOLLOWERS_PER_KEY; total: 503, FOLLOWERS_MAX)',
    labelNames: ['bound'] as const,
    registers: [this.registry],
  });

  /** `isReady` is what `/health/ready` asks, read again at each scrape; `followerBounds` what FOLLOWERS_PER_KEY and FOLLOWERS_MAX set. */
  constructor(isReady: () => Promise<boolean>, followerBounds: FollowerBounds) {
    collectDefaultMetrics({ register: this.registry });
    for (const bound of ['key', 'total'] as const) this.#followersRefused.inc({ bound }, 0);
    // The bound beside the count, so that a rule or a panel reads how full the instance is.
    new Gauge({
      name: 'workplan_changes_followers_max',
      help: 'How many followers of /api/v1/changes this instance holds open at most (FOLLOWERS_MAX)',
      registers: [this.registry],
    }).set(followerBounds.total);
    // Zero from the start, so that an alert on their increase sees the first one.
    for (const file of ['API_KEYS_FILE', 'WEBHOOKS_FILE'] as const) this.#reloadFailures.inc({ file }, 0);
    for (const kind of ['stream', 'poll'] as const) this.#followers.set({ kind }, 0);
    new Gauge({
      name: 'workplan_ready',
      help: '1 when the storage answers (/health/ready answers 200), else 0',
      registers: [this.registry],
      async collect() {
        this.set((await isReady().catch(() => false)) ? 1 : 0);
      },
    });
  }

  /** Counts one answered request. */
  observe(answered: AnsweredRequest): void {
    const labels = { method: answered.method, route: answered.route, status: String(answered.status) };
    this.#duration.observe(labels, answered.durationMs / 1000);
    if (answered.keyName !== undefined) this.#byKey.inc({ key: answered.keyName, status: labels.status });
    if (answered.code === 'STORAGE_UNAVAILABLE') this.#storageErrors.inc();
  }

  /** Counts a reload of `file` that failed. */
  reloadFailed(file: ReloadedFile): void {
    this.#reloadFailures.inc({ file });
  }

  /** Counts a follower held open until the function it returns is called. */
  readonly followerHeld: FollowerWatch = (kind) => {
    this.#followers.inc({ kind });
    return () => {
      this.#followers.dec({ kind });
    };
  };

  /** Counts a follower refused by `bound`. */
  readonly followerRefused: FollowerRefusalWatch = (bound) => {
    this.#followersRefused.inc({ bound });
  };

  /** `GET /metrics` in Prometheus text format; no key, so keep it off the public edge. */
  router(): Router {
    const router = Router();
    // As every path of the service: 405 with `Allow` for another method, 204 for OPTIONS.
    routeTable(router, {
      '/metrics': {
        get: [
          routeName('/metrics'),
          async (_req, res) => {
            res.type(this.registry.contentType).send(await this.registry.metrics());
          },
        ],
      },
    });
    return router;
  }
}
