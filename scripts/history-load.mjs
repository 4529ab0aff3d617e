// How a record's long history, read by many clients at once, holds up the service
// (issue 50, point 3): the built app on a new SQLite file, one cost center given `changes`
// changes over HTTP, then `clients` readers of its history at once while a probe asks
// /health/live every few milliseconds from a thread of its own (so its times are the
// service's, not this script's JSON parsing).
//
//   pnpm build && node scripts/history-load.mjs [changes] [clients] [app]
//
// Three rounds: every reader asks for the first page (the default limit) ten times over
// (HISTORY_LOAD_REPEAT=1: once, 48 requests at once in all);
// every reader walks the whole history in pages of the largest limit; every reader walks it
// in pages of the default limit. Each prints the probe's p50, p99 and max, the history
// requests' p50 and p99, the answers' size and the app's CPU time a request (which, unlike
// the times, holds on a machine busy with other work); last, the app's peak resident memory.
// A third argument names another build's app (its dist/main.js) to measure the same way.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';

const changes = Number(process.argv[2] ?? 10_000);
/** How many times each reader asks for the first page in the first round. */
const repeat = Number(process.env.HISTORY_LOAD_REPEAT ?? 10);
const clients = Number(process.argv[3] ?? 48);
const key = 'history-load-key-0123456789';
const root = new URL('..', import.meta.url);

/** The Node flags `pnpm start` runs the app with, read from the root package.json so they stay one fact. */
function startFlags() {
  const { scripts } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  return scripts.start.split(/\s+/u).filter((word) => word.startsWith('--'));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

const port = await freePort();
const folder = mkdtempSync(join(tmpdir(), 'workplan-history-load-'));
const env = { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', API_KEYS: key, STORAGE: 'sqlite', SQLITE_PATH: join(folder, 'workplan.db'), LOG_LEVEL: 'silent' };
const main = process.argv[4] ?? new URL('packages/app/dist/main.js', root).pathname;
const app = spawn(process.execPath, [...startFlags(), main], { env, stdio: ['ignore', 'ignore', 'inherit'] });
const agent = new Agent({ keepAlive: true, maxSockets: clients });

/** One request; resolves its status, headers, body text and time in ms. */
function call(method, path, body) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers = { key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    const sent = request({ host: '127.0.0.1', port, method, path, headers, agent }, (answer) => {
      const chunks = [];
      answer.on('data', (chunk) => chunks.push(chunk));
      answer.on('end', () => resolve({ status: answer.statusCode, headers: answer.headers, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
    });
    sent.on('error', reject);
    sent.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function untilReady() {
  for (let tries = 0; tries < 300; tries += 1) {
    const ready = await call('GET', '/health/ready').catch(() => undefined);
    if (ready?.status === 200) return;
    await sleep(100);
  }
  throw new Error('the app did not get ready');
}

/** A title of 200 code points, as long as the contract allows, unique to `n`. */
const titleOf = (n) => `Centro ${String(n).padStart(6, '0')} manutenção predial e elétrica `.padEnd(200, 'x');

async function seed() {
  const created = await call('POST', '/api/v1/costCenter', { title: titleOf(0) });
  const { id } = JSON.parse(created.text).data;
  for (let n = 1; n < changes; n += 1) {
    const updated = await call('PUT', `/api/v1/costCenter/${id}`, { title: titleOf(n) });
    if (updated.status !== 200) throw new Error(`update ${n} answered ${updated.status}`);
  }
  return id;
}

/** A probe of /health/live on a thread of its own, every `gapMs`, until `stop` resolves its times. */
function probe(gapMs = 5) {
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const http = require('node:http');
     const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
     const times = [];
     let stopped = false;
     parentPort.on('message', () => { stopped = true; });
     const once = () => new Promise((resolve) => {
       const started = performance.now();
       // A connection the app closed (one held past its timeouts) counts as a probe that waited that long.
       http.get({ host: '127.0.0.1', port: workerData.port, path: '/health/live', agent }, (answer) => {
         answer.resume();
         answer.on('end', () => resolve(performance.now() - started));
       }).on('error', () => resolve(performance.now() - started));
     });
     (async () => {
       while (!stopped) {
         times.push(await once());
         await new Promise((resolve) => setTimeout(resolve, workerData.gapMs));
       }
       parentPort.postMessage(times);
     })();`,
    { eval: true, workerData: { port, gapMs } },
  );
  return {
    stop: () => {
      const times = new Promise((resolve) => worker.once('message', resolve));
      worker.postMessage('stop');
      return times.finally(() => worker.terminate());
    },
  };
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
};
const ms = (value) => `${value.toFixed(1)} ms`;

/** Every page of the history from `limit` (the default when undefined), following Link; the answers. */
async function walk(id, limit) {
  const answers = [];
  for (let path = `/api/v1/costCenter/${id}/history${limit === undefined ? '' : `?limit=${limit}`}`; path !== undefined; ) {
    const answer = await call('GET', path);
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
    answers.push(answer);
    path = /^<([^>]+)>; rel="next"$/u.exec(answer.headers.link ?? '')?.[1];
  }
  return answers;
}

/** The app's CPU time so far, in ms (user and system, from /proc): what its requests cost, however busy the machine is. */
function appCpuMs() {
  const fields = readFileSync(`/proc/${app.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime, the 14th and 15th fields of the line, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function round(label, read) {
  const probing = probe();
  await sleep(200);
  const started = performance.now();
  const cpuBefore = appCpuMs();
  const answers = (await Promise.all(Array.from({ length: clients }, read))).flat();
  const cpu = appCpuMs() - cpuBefore;
  const seconds = (performance.now() - started) / 1000;
  const health = await probing.stop();
  const sizes = answers.map((answer) => Buffer.byteLength(answer.text));
  const times = answers.map((answer) => answer.ms);
  console.log(
    `${label}: ${answers.length} requests in ${seconds.toFixed(1)} s; /health/live p50 ${ms(quantile(health, 0.5))}, p99 ${ms(quantile(health, 0.99))}, ` +
      `max ${ms(Math.max(...health))} (${health.length} probes); history p50 ${ms(quantile(times, 0.5))}, p99 ${ms(quantile(times, 0.99))}; ` +
      `answers up to ${(Math.max(...sizes) / 1024).toFixed(0)} KiB; the app's CPU ${ms(cpu / answers.length)} a request`,
  );
}

try {
  await untilReady();
  const seeding = performance.now();
  const id = await seed();
  console.log(`node ${process.version}, SQLite, ${changes} changes of one cost center (titles of 200 code points) seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s; ${clients} readers at once`);
  await round(`first page, ${repeat} times each`, async () => {
    const answers = [];
    for (let n = 0; n < repeat; n += 1) answers.push(await call('GET', `/api/v1/costCenter/${id}/history`));
    return answers;
  });
  await round('whole history, limit=1000', () => walk(id, 1000));
  await round('whole history, default limit', () => walk(id, undefined));
  const peak = /VmHWM:\s+(\d+) kB/u.exec(readFileSync(`/proc/${app.pid}/status`, 'utf8'))?.[1];
  console.log(`app's peak resident memory: ${peak === undefined ? '?' : `${(Number(peak) / 1024).toFixed(0)} MB`}`);
} finally {
  agent.destroy();
  app.kill('SIGTERM');
  await new Promise((resolve) => app.once('exit', resolve));
  rmSync(folder, { recursive: true, force: true });
}
