import type autocannon from 'autocannon';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startApp } from './app.js';
import { describe, seed, type Plan } from './compare.js';
import { runLoad } from './load.js';
import { type ProfiledOperation } from './options.js';
import { createRequests, findRequests, listRequests, updateRequests } from './workloads.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
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

/** Runs the app under `node --cpu-prof` through one operation's load and returns the hottest functions. */
export async function profileOperation(
  operation: ProfiledOperation,
  storage: 'memory' | 'sqlite',
  plan: Plan,
  seedRecords: number,
  dir: string,
  pinned: boolean,
): Promise<HotFunction[]> {
  await mkdir(dir, { recursive: true });
  const sqlitePath = storage === 'sqlite' ? join(dir, 'profile.db') : undefined;
  const app = await startApp({ storage, ...(sqlitePath !== undefined && { sqlitePath }), nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`] }, pinned);
  try {
    const ids = await seed(app, seedRecords, plan);
    const base = { server: app, connections: plan.connections, headers: plan.headers, requests: requestsFor(operation, ids) };
    if (plan.warmupSeconds > 0) await runLoad({ ...base, seconds: plan.warmupSeconds });
    console.log(`profile ${operation}: ${describe(await runLoad({ ...base, seconds: plan.roundSeconds }))}`);
  } finally {
    await app.stop(); // the profile is written as the process exits
  }
  const file = (await readdir(dir)).filter((name) => name.endsWith('.cpuprofile')).sort().at(-1);
  if (file === undefined) throw new Error(`no .cpuprofile in ${dir}: did the app exit cleanly on SIGTERM?`);
  console.log(`cpu profile: ${join(dir, file)} (open it in Chrome DevTools > Performance)`);
  return hottest(JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile);
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
