import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { startApp, withApp, type AppSpec } from './app.js';
import { compare, seed, type Comparison, type Plan } from './compare.js';
import { runPaced } from './paced.js';
import { type ServerProcess } from './processes.js';
import { percentile } from './stats.js';
import { createOfNewValue } from './workloads.js';

/** From a create's request to its change's POST reaching a receiver that answers at once. */
export interface WebhookLatency {
  readonly perSecond: number;
  readonly count: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** A backlog of changes made before the subscription existed, delivered once it does. */
export interface WebhookDrain {
  readonly changes: number;
  readonly seconds: number;
  readonly perSecond: number;
}

/** What the webhooks phase found on SQLite (issue 30). */
export interface WebhooksResult {
  readonly latency: WebhookLatency;
  readonly drain: WebhookDrain;
  /** Finds: `hanging` delivers to a receiver that never answers, `without` has no subscription; one run. */
  readonly isolation: Comparison;
}

/** How much the phase does. */
export interface WebhooksPlan {
  /** Creates a second while delivery latency is measured (the issue: 200). */
  readonly rate: number;
  readonly latencySeconds: number;
  /** Changes in the backlog that is drained (the issue: 100,000). */
  readonly backlog: number;
}

/** The phase's size in a full run and in --quick. */
export function webhooksPlanOf(quick: boolean): WebhooksPlan {
  return quick ? { rate: 200, latencySeconds: 3, backlog: 2000 } : { rate: 200, latencySeconds: 20, backlog: 100_000 };
}

/** A receiver in this process: `answer` answers each POST at once (204), `hang` never does. */
interface Receiver {
  readonly url: string;
  /** When each record's change arrived (`performance.now()`), by the record's text. */
  readonly arrivals: Map<string, number>;
  readonly count: () => number;
  /** Resolves once `count` POSTs came, rejects after `timeoutMs`. */
  readonly until: (count: number, timeoutMs: number) => Promise<void>;
  readonly close: () => Promise<void>;
}

async function startReceiver(mode: 'answer' | 'hang'): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const sockets = new Set<Socket>();
  let count = 0;
  let wake = (): void => undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (mode === 'hang') return;
      const at = performance.now();
      res.writeHead(204).end();
      count += 1;
      const change = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { value?: string } };
      if (change.data?.value !== undefined) arrivals.set(change.data.value, at);
      wake();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    count: () => count,
    until: (wanted, timeoutMs) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`the receiver got ${count} of ${wanted} changes in ${timeoutMs} ms`));
        }, timeoutMs);
        wake = () => {
          if (count < wanted) return;
          clearTimeout(timer);
          resolve();
        };
        wake();
      }),
    close: async () => {
      const closed = once(server, 'close');
      server.close();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** Writes WEBHOOKS_FILE with one subscription to `url`, or none. */
async function subscriptionsFile(path: string, url: string | undefined): Promise<string> {
  const subscriptions = url === undefined ? [] : [{ name: 'bench', url, secret: `whsec_${randomBytes(32).toString('base64')}` }];
  await writeFile(path, JSON.stringify({ subscriptions }));
  return path;
}

/** Runs the webhooks phase on fresh SQLite apps, on files in `dir`. */
export async function webhooksPhase(seedRecords: number, webhooksPlan: WebhooksPlan, dir: string, plan: Plan, pinned: boolean): Promise<WebhooksResult> {
  const specOf = async (name: string, url: string | undefined): Promise<AppSpec> => {
    const webhooksFile = await subscriptionsFile(join(dir, `${name}.json`), url);
    return { storage: 'sqlite', webhooksFile, sqlitePath: join(dir, `${name}.db`) };
  };
  const latency = await withReceiver('answer', async (receiver) =>
    withApp(await specOf('webhooks-latency', receiver.url), pinned, (app) => deliveryLatency(app, receiver, webhooksPlan, plan)),
  );
  console.log(`webhooks: delivered at ${latency.perSecond}/s, p50 ${latency.p50Ms.toFixed(1)} ms, p99 ${latency.p99Ms.toFixed(1)} ms`);
  const drain = await withReceiver('answer', async (receiver) => {
    const spec = await specOf('webhooks-drain', undefined);
    return withApp(spec, pinned, (app) => drainBacklog(app, spec, receiver, webhooksPlan.backlog, plan));
  });
  console.log(`webhooks: a backlog of ${drain.changes} drained at ${Math.round(drain.perSecond)} changes/s`);
  const isolation = await withReceiver('hang', async (receiver) => {
    const hanging = await startApp(await specOf('webhooks-hanging', receiver.url), pinned);
    const without = await startApp(await specOf('webhooks-without', undefined), pinned);
    try {
      const contenders = [
        { key: 'without', server: without, operations: ['find'] as const, ids: await seed(without, seedRecords, plan) },
        { key: 'hanging', server: hanging, operations: ['find'] as const, ids: await seed(hanging, seedRecords, plan) },
      ];
      return await compare(contenders, plan, 'webhooks isolation');
    } finally {
      await Promise.all([hanging.stop(), without.stop()]);
    }
  });
  return { latency, drain, isolation };
}

async function withReceiver<T>(mode: 'answer' | 'hang', use: (receiver: Receiver) => Promise<T>): Promise<T> {
  const receiver = await startReceiver(mode);
  try {
    return await use(receiver);
  } finally {
    await receiver.close();
  }
}

/** Creates at `rate` a second, each timed from its request to its change's arrival at the receiver. */
async function deliveryLatency(app: ServerProcess, receiver: Receiver, webhooksPlan: WebhooksPlan, plan: Plan): Promise<WebhookLatency> {
  const sentAt = new Map<string, number>();
  const sample = await runPaced({
    server: app,
    perSecond: webhooksPlan.rate,
    seconds: webhooksPlan.latencySeconds,
    connections: 10,
    headers: plan.headers,
    next: () => {
      const create = createOfNewValue();
      sentAt.set((JSON.parse(create.body) as { value: string }).value, performance.now());
      return create;
    },
  });
  if (sample.non2xx > 0 || sample.errors > 0) throw new Error(`creates on ${app.name}: ${sample.non2xx} non-2xx, ${sample.errors} errors`);
  await receiver.until(sentAt.size, 60_000);
  const latencies = [...sentAt].map(([value, sent]) => (receiver.arrivals.get(value) ?? Number.NaN) - sent).sort((a, b) => a - b);
  return {
    perSecond: webhooksPlan.rate,
    count: latencies.length,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    maxMs: latencies.at(-1) ?? Number.NaN,
  };
}

/**
 * Makes `backlog` changes while WEBHOOKS_FILE names no subscription, then names one and
 * sends SIGHUP: the new subscription starts from the first change kept, and the time until
 * the receiver has them all is the drain's.
 */
async function drainBacklog(app: ServerProcess, spec: AppSpec, receiver: Receiver, backlog: number, plan: Plan): Promise<WebhookDrain> {
  await seed(app, backlog, plan);
  if (spec.webhooksFile === undefined) throw new Error('the drain needs a WEBHOOKS_FILE to rewrite');
  await subscriptionsFile(spec.webhooksFile, receiver.url);
  const started = performance.now();
  process.kill(app.pid, 'SIGHUP');
  await receiver.until(backlog, Math.max(60_000, backlog));
  const seconds = (performance.now() - started) / 1000;
  return { changes: receiver.count(), seconds, perSecond: receiver.count() / seconds };
}
