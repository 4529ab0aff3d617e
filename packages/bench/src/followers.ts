import { execFileSync } from 'node:child_process';
import { Agent, request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { withApp } from './app.js';
import { type Plan } from './compare.js';
import { baselineScript, startServer, type ServerProcess } from './processes.js';
import { createOfNewValue } from './workloads.js';

/** How many followers the phase holds, and how many creates it times with each set held. */
export interface FollowersPlan {
  readonly streams: number;
  readonly polls: number;
  readonly creates: number;
}

/** What the followers phase found on SQLite (issue 50, point 2). */
export interface FollowersResult {
  readonly streams: number;
  readonly polls: number;
  readonly creates: number;
  /** `creates` sequential creates, from the first request to the last answer, ms: none held, the streams held, the streams and the polls held. */
  readonly noneMs: number;
  readonly streamsMs: number;
  readonly bothMs: number;
  /** Followers that did not receive every change committed while they were held (streams in both runs, polls in theirs). */
  readonly missed: number;
  /** The app's RSS with none held, with the streams, with the streams and the polls, MB. */
  readonly rssNoneMb: number;
  readonly rssStreamsMb: number;
  readonly rssBothMb: number;
  /** Bare node:http (baseline a) writing each create to as many held responses: `creates` creates with none held and with them, ms; its RSS without and with them, MB. */
  readonly bare: { readonly noneMs: number; readonly streamsMs: number; readonly rssNoneMb: number; readonly rssStreamsMb: number };
}

/** The phase's size: the issue's in a full run, a tenth in --quick. */
export function followersPlanOf(quick: boolean): FollowersPlan {
  return quick ? { streams: 200, polls: 200, creates: 20 } : { streams: 2000, polls: 2000, creates: 50 };
}

/**
 * Times `creates` sequential creates on a SQLite app with nothing held, then with
 * `streams` event streams held, then with `polls` long polls held as well (each asks again
 * from its next as soon as it is answered, as a follower does), checking that every
 * follower receives every change; the app's RSS is read once each set is held. The app
 * takes as many followers per key and in all as the phase holds. Then bare node:http does
 * the same creates with as many streams held, each create written to each: the floor of
 * what a change costs per held stream on this machine.
 */
export async function followersPhase(followersPlan: FollowersPlan, dir: string, plan: Plan, pinned: boolean): Promise<FollowersResult> {
  const held = followersPlan.streams + followersPlan.polls;
  checkOpenFiles(held);
  const bounds = { FOLLOWERS_PER_KEY: String(held), FOLLOWERS_MAX: String(held) };
  const app = await withApp({ storage: 'sqlite', sqlitePath: join(dir, 'followers.db'), env: bounds }, pinned, (server) => followWhileWriting(server, followersPlan, plan));
  const baseline = await startServer({ name: '(a) node-http', script: baselineScript('node-http'), env: { ...process.env }, ready: { stdoutLine: 'listening' } }, pinned);
  const bare = await streamsOnBare(baseline, followersPlan, plan).finally(() => baseline.stop());
  const result = { ...app, bare };
  const { streams, polls, creates } = followersPlan;
  console.log(
    `followers: ${creates} creates ${result.noneMs.toFixed(0)} ms with none held, ${result.streamsMs.toFixed(0)} ms with ${streams} streams, ` +
      `${result.bothMs.toFixed(0)} ms with ${polls} long polls as well; ${result.missed} missed a change; RSS ${result.rssNoneMb.toFixed(0)} -> ${result.rssBothMb.toFixed(0)} MB; ` +
      `bare node:http ${bare.noneMs.toFixed(0)} ms with none, ${bare.streamsMs.toFixed(0)} ms with ${streams} streams`,
  );
  return result;
}

/** The same creates on bare node:http, with none and with `streams` event streams held, each of which must get every create. */
async function streamsOnBare(bare: ServerProcess, followersPlan: FollowersPlan, plan: Plan): Promise<FollowersResult['bare']> {
  const { streams: streamCount, creates } = followersPlan;
  await createInTurn(bare, plan, creates);
  const noneMs = await createInTurn(bare, plan, creates);
  const rssNoneMb = rssOf(bare);
  const streams = await Promise.all(Array.from({ length: streamCount }, () => openStream(bare, plan, '0')));
  await settle();
  const rssStreamsMb = rssOf(bare);
  const streamsMs = await createInTurn(bare, plan, creates);
  await until(() => streams.every((stream) => stream.received >= creates));
  const short = streams.filter((stream) => stream.received < creates).length;
  for (const stream of streams) stream.stop();
  if (short > 0) throw new Error(`${short} event streams of ${bare.name} missed a create`);
  return { noneMs, streamsMs, rssNoneMb, rssStreamsMb };
}

async function followWhileWriting(app: ServerProcess, followersPlan: FollowersPlan, plan: Plan): Promise<Omit<FollowersResult, 'bare'>> {
  const { streams: streamCount, polls: pollCount, creates } = followersPlan;
  // The first creates warm the app (and its statements) up; the tail they end at is where the followers start.
  await createInTurn(app, plan, creates);
  const noneMs = await createInTurn(app, plan, creates);
  const rssNoneMb = rssOf(app);
  const start = await lastChangeId(app, plan);
  const streams = await Promise.all(Array.from({ length: streamCount }, () => openStream(app, plan, start)));
  await settle();
  const rssStreamsMb = rssOf(app);
  const streamsMs = await createInTurn(app, plan, creates);
  await until(() => streams.every((stream) => stream.received >= creates));
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const tail = await lastChangeId(app, plan);
  const polls = Array.from({ length: pollCount }, () => pollOn(app, plan, agent, tail));
  await settle();
  const rssBothMb = rssOf(app);
  const bothMs = await createInTurn(app, plan, creates);
  await until(() => streams.every((stream) => stream.received >= 2 * creates) && polls.every((poll) => poll.received >= creates));
  const short = [...streams.filter((stream) => stream.received < 2 * creates), ...polls.filter((poll) => poll.received < creates)];
  const missed = short.length;
  if (missed > 0) console.error(`followers: ${missed} missed a change: ${short.map((follower) => `${follower.kind} got ${follower.received}`).join(', ')}`);
  for (const follower of [...streams, ...polls]) follower.stop();
  agent.destroy();
  return { streams: streamCount, polls: pollCount, creates, noneMs, streamsMs, bothMs, missed, rssNoneMb, rssStreamsMb, rssBothMb };
}

/** A follower the phase holds: how many changes it has received, the id of the last. */
interface Follower {
  readonly kind: 'stream' | 'poll';
  readonly received: number;
  readonly lastId: string;
  stop(): void;
}

/** Opens an event stream after `after` on its own connection and counts its events; resolves once it is answered 200. */
function openStream(app: ServerProcess, plan: Plan, after: string): Promise<Follower> {
  const url = new URL(app.url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: url.hostname, port: url.port, path: `/api/v1/changes?after=${after}`, headers: { ...plan.headers, accept: 'text/event-stream' }, agent: false },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`an event stream of ${app.name} answered ${res.statusCode ?? 0}`));
          res.resume();
          return;
        }
        const follower = { kind: 'stream' as const, received: 0, lastId: after, stop: () => outgoing.destroy() };
        countEvents(res, (id) => {
          follower.received += 1;
          follower.lastId = id;
        });
        resolve(follower);
      },
    );
    outgoing.on('error', (error) => {
      reject(error);
    });
    outgoing.end();
  });
}

/** Reads `res` as `text/event-stream`, calling `onEvent` with each event's id (comments, heartbeats, are skipped). */
function countEvents(res: IncomingMessage, onEvent: (id: string) => void): void {
  let buffer = '';
  res.setEncoding('utf8');
  res.on('error', () => undefined);
  res.on('data', (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.startsWith('id: ')) onEvent(block.slice(4, block.indexOf('\n')));
    }
  });
}

/** A long poll that asks again from where its answer ends (after a pause when it is not answered 200), until stopped; counts the changes it is answered. */
function pollOn(app: ServerProcess, plan: Plan, agent: Agent, after: string): Follower {
  const url = new URL(app.url);
  let stopped = false;
  const follower = {
    kind: 'poll' as const,
    received: 0,
    lastId: after,
    stop: () => {
      stopped = true;
    },
  };
  const ask = (): void => {
    if (stopped) return;
    const path = `/api/v1/changes?after=${follower.lastId}&limit=1000&wait=30`;
    const outgoing = request({ host: url.hostname, port: url.port, path, headers: plan.headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      // Cut after its headers: neither 'end' nor the request's 'error' comes, so it is asked again from here.
      res.on('close', () => {
        if (res.complete || stopped) return;
        console.error(`a long poll of ${app.name} was cut, asked again in 1 s`);
        setTimeout(ask, 1000);
      });
      res.on('end', () => {
        const data = res.statusCode === 200 ? ((JSON.parse(body) as { data: { id: string }[] }).data) : [];
        follower.received += data.length;
        follower.lastId = data.at(-1)?.id ?? follower.lastId;
        if (res.statusCode === 200) {
          ask();
          return;
        }
        // As a follower does (the client's `follow`): a refusal or a 503 is asked again after a pause, from where it was.
        console.error(`a long poll of ${app.name} answered ${res.statusCode ?? 0}, asked again in 1 s: ${body.slice(0, 200)}`);
        setTimeout(ask, 1000);
      });
    });
    outgoing.on('error', (error) => {
      // Cut when the phase is over: stopped first. Otherwise, as a follower does, asked again after a pause, from where it was.
      if (stopped) return;
      console.error(`a long poll of ${app.name} failed, asked again in 1 s: ${error.message}`);
      setTimeout(ask, 1000);
    });
    outgoing.end();
  };
  ask();
  return follower;
}

/** `count` creates, each sent once the one before is answered; resolves the ms from the first request to the last answer. */
async function createInTurn(app: ServerProcess, plan: Plan, count: number): Promise<number> {
  const started = performance.now();
  for (let n = 0; n < count; n += 1) {
    const { path, body } = createOfNewValue();
    const created = await fetch(`${app.url}${path}`, { method: 'POST', headers: { ...plan.headers, 'content-type': 'application/json' }, body });
    await created.arrayBuffer();
    if (created.status !== 201) throw new Error(`a create answered ${created.status} on ${app.name}`);
  }
  return performance.now() - started;
}

async function lastChangeId(app: ServerProcess, plan: Plan): Promise<string> {
  let after = '0';
  for (;;) {
    const response = await fetch(`${app.url}/api/v1/changes?after=${after}&limit=1000`, { headers: plan.headers });
    const { data } = (await response.json()) as { data: { id: string }[] };
    const last = data.at(-1);
    if (last === undefined) return after;
    after = last.id;
  }
}

/** Waits until `done` holds (every follower has what was sent), for a minute at most. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && !done()) await settle(50);
}

/** Lets the followers just opened reach the end of the feed (their first read, their wait). */
function settle(ms = 1000): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function rssOf(app: ServerProcess): number {
  return app.rssMb() ?? Number.NaN;
}

/** Refuses to start when this shell cannot open a socket for each follower (the app, started from it, has the same limit). */
function checkOpenFiles(held: number): void {
  const limit = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
  if (Number.isFinite(limit) && limit < held + 1000) throw new Error(`the followers phase holds ${held} connections: raise the open files limit (ulimit -n ${held + 1000}), it is ${limit}`);
}
