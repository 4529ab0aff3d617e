import type autocannon from 'autocannon';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startApp } from './app.js';
import { cpuUsPerRequest, describe, seed, type Plan } from './compare.js';
import { runLoad } from './load.js';
import { type ProfiledOperation } from './options.js';
import { createRequests, findRequests, listRequests, updateRequests } from './workloads.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** One function's share of the profile. */
export interface HotFunction {
  readonly name: string;
  readonly where: string;
  readonly selfMs: number;
  readonly selfPct: number;
}

function requestsFor(operation: ProfiledOperation, ids: readonly string[]): autocannon.Request[] {
  if (operation === 'find') return findRequests(ids);
  if (operation === 'create') return createRequests([]);
  if (operation === 'update') return updateRequests(ids);
  return listRequests(0, operation === 'list100' ? 100 : 1000);
}

/** What a profile found: the hottest functions, the packages' shares, and the server's CPU a request in the measured round. */
export interface ProfileSummary {
  readonly hot: readonly HotFunction[];
  readonly owners: readonly HotOwner[];
  readonly cpuUsPerRequest: number | undefined;
}

/** Runs the app under `node --cpu-prof` through one operation's load and summarises the profile. */
export async function profileOperation(
  operation: ProfiledOperation,
  storage: 'memory' | 'sqlite',
  plan: Plan,
  seedRecords: number,
  dir: string,
  pinned: boolean,
): Promise<ProfileSummary> {
  await mkdir(dir, { recursive: true });
  const sqlitePath = storage === 'sqlite' ? join(dir, 'profile.db') : undefined;
  const app = await startApp({ storage, ...(sqlitePath !== undefined && { sqlitePath }), nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`] }, pinned);
  let cpu: number | undefined;
  try {
    const ids = await seed(app, seedRecords, plan);
    const base = { server: app, connections: plan.connections, headers: plan.headers, requests: requestsFor(operation, ids) };
    if (plan.warmupSeconds > 0) await runLoad({ ...base, seconds: plan.warmupSeconds });
    const round = await runLoad({ ...base, seconds: plan.roundSeconds });
    cpu = cpuUsPerRequest(round);
    console.log(`profile ${operation}: ${describe(round)}`);
  } finally {
    await app.stop(); // the profile is written as the process exits
  }
  const file = (await readdir(dir)).filter((name) => name.endsWith('.cpuprofile')).sort().at(-1);
  if (file === undefined) throw new Error(`no .cpuprofile in ${dir}: did the app exit cleanly on SIGTERM?`);
  console.log(`cpu profile: ${join(dir, file)} (open it in Chrome DevTools > Performance)`);
  const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
  return { hot: hottest(profile), owners: byOwner(profile), cpuUsPerRequest: cpu };
}

/** Self time per function (samples times their intervals), largest first. */
export function hottest(profile: CpuProfile): HotFunction[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<string, { name: string; where: string; us: number }>();
  let totalUs = 0;
  profile.samples.forEach((id, index) => {
    const node = byNode.get(id);
    const us = profile.timeDeltas[index] ?? 0;
    if (node === undefined) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url === '' ? '' : `${shortUrl(url)}:${lineNumber + 1}`;
    const name = functionName === '' ? '(anonymous)' : functionName;
    const entry = selfUs.get(`${name} ${where}`) ?? { name, where, us: 0 };
    entry.us += us;
    selfUs.set(`${name} ${where}`, entry);
    totalUs += us;
  });
  return [...selfUs.values()]
    .sort((x, y) => y.us - x.us)
    .map((entry) => ({ name: entry.name, where: entry.where, selfMs: entry.us / 1000, selfPct: (entry.us / totalUs) * 100 }));
}

/** A package's share of the profile: the self time of every function that lives in it. */
export interface HotOwner {
  readonly owner: string;
  readonly selfMs: number;
  /** Of the time the process was busy: the idle loop left out. */
  readonly selfPct: number;
}

/** V8's names for time no function of a script holds. */
const V8_ENTRIES = new Set(['(garbage collector)', '(program)', '(root)', '(idle)']);

/**
 * Where a function lives: `node internals` (`node:` modules), a package by its name (in
 * node_modules, or `@workplan/x` for `packages/x`), V8's own entries by their names;
 * undefined for a function without a script (a V8 builtin such as JSON.stringify, or one
 * of Node's bindings such as a socket's write), which `byOwner` counts in its caller's.
 */
export function ownerOf(callFrame: ProfileNode['callFrame']): string | undefined {
  const { functionName, url } = callFrame;
  if (url === '') return V8_ENTRIES.has(functionName) ? functionName : undefined;
  if (url.startsWith('node:')) return 'node internals';
  const path = url.replace(/^file:\/\//u, '');
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [scope = '', name = ''] = path.slice(modules + '/node_modules/'.length).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  const workspace = /\/packages\/([^/]+)\//u.exec(path)?.[1];
  return workspace === undefined ? 'other' : `@workplan/${workspace}`;
}

/** Time in a function without a script that no scripted function called. */
const NATIVE = '(native: V8 builtins, bindings)';

/**
 * Self time by `ownerOf`, largest first, in shares of the busy time (the idle loop left
 * out); a builtin's or a binding's time is its nearest scripted caller's: a socket write
 * is Node's HTTP, a JSON.stringify the package that asked for it.
 */
export function byOwner(profile: CpuProfile): HotOwner[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((child) => [child, node] as const)));
  const ownerOfNode = (node: ProfileNode): string => {
    for (let at: ProfileNode | undefined = node; at !== undefined; at = parents.get(at.id)) {
      const owner = ownerOf(at.callFrame);
      if (owner !== undefined && owner !== '(root)') return owner;
    }
    return NATIVE;
  };
  const selfUs = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const node = byNode.get(id);
    if (node === undefined || node.callFrame.functionName === '(idle)') return;
    const owner = ownerOfNode(node);
    selfUs.set(owner, (selfUs.get(owner) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const busyUs = [...selfUs.values()].reduce((sum, us) => sum + us, 0);
  return [...selfUs.entries()]
    .sort(([, x], [, y]) => y - x)
    .map(([owner, us]) => ({ owner, selfMs: us / 1000, selfPct: (us / busyUs) * 100 }));
}

/** `node_modules/.pnpm/express@5.3.0/node_modules/express/lib/x.js` -> `express/lib/x.js`. */
function shortUrl(url: string): string {
  const path = url.replace(/^file:\/\//u, '');
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) return path.slice(modules + '/node_modules/'.length);
  const packages = path.indexOf('/packages/');
  return packages >= 0 ? path.slice(packages + 1) : path;
}

export function formatHot(functions: readonly HotFunction[], count: number): string {
  const rows = functions.slice(0, count).map((f) => `${f.selfPct.toFixed(1).padStart(5)}%  ${f.selfMs.toFixed(0).padStart(7)} ms  ${f.name}  ${f.where}`);
  return ['  self%     self ms  function  location', ...rows].join('\n');
}

/** The packages' shares, and each share of the round's CPU a request (all of the process's threads, as /proc counts it). */
export function formatOwners(owners: readonly HotOwner[], cpuUs: number | undefined): string {
  // The long tail in one row: dozens of packages at a few hundredths of a per cent each.
  const shown = owners.filter((o) => o.selfPct >= 0.5);
  const rest = owners.slice(shown.length);
  const tail = rest.length === 0 ? [] : [{ owner: `${rest.length} others, under 0.5% each`, selfMs: 0, selfPct: rest.reduce((sum, o) => sum + o.selfPct, 0) }];
  const rows = [...shown, ...tail].map((o) => `${o.selfPct.toFixed(1).padStart(5)}%  ${cpuUs === undefined ? '    ?' : ((o.selfPct / 100) * cpuUs).toFixed(1).padStart(6)} µs  ${o.owner}`);
  return ['  busy%  of a request  where', ...rows].join('\n');
}
