#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaleScenario } from './at-scale.js';
import { changesPhase, changesPlanOf } from './change-feed.js';
import { webhooksPhase, webhooksPlanOf } from './webhooks.js';
import { resultsChart } from './chart.js';
import { type Plan } from './compare.js';
import { conditionalCost } from './conditional-cost.js';
import { describeMachine } from './machine.js';
import { parseOptions, USAGE, type BenchOptions } from './options.js';
import { startApp } from './app.js';
import { APP_MAIN, pinLoadGenerator, type ServerProcess } from './processes.js';
import { formatHot, profileOperation } from './profile.js';
import { changesReport, mainRows, markdownReport, markdownTable, sweepRows, targetRows, textTable } from './report.js';
import { changesTargets, checkTargets, type Measured, type Results } from './results.js';
import { memoryScenario, MONGODB_LISTS, mongoListPlan, mongoScenario, planOf, sqliteScenario, startBaseline, type ScenarioResult } from './scenarios.js';
import { otherNode } from './runtime.js';
import { soak } from './soak.js';
import { listSweep, type Sweep } from './sweeps.js';

async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  const options = parseOptions(process.argv.slice(2), process.env);
  if (!existsSync(APP_MAIN)) throw new Error(`${APP_MAIN} is missing: run pnpm build first (pnpm bench does)`);
  const pinned = pinLoadGenerator(options.pin);
  const plan = planOf(options);
  const pinning = pinned ? 'servers on core 0, load on core 1' : 'no';
  if (options.mode === 'profile') {
    const operation = options.profiled;
    const storage = options.profiledStorage;
    console.log(`profile: ${operation} on ${storage} for ${options.roundSeconds} s, ${options.connections} connections, pinned: ${pinning}`);
    const hot = await profileOperation(operation, storage, plan, options.seedRecords, options.outDir, pinned);
    console.log(`\ntop functions by self time under ${operation} load:\n${formatHot(hot, 25)}`);
    return;
  }
  if (options.mode === 'changes') {
    await changesAlone(options, plan, pinned);
    return;
  }
  console.log(
    `bench (${options.mode}): ${options.rounds} round(s) of ${options.roundSeconds} s, ${options.connections} connections, ` +
      `pinned: ${pinning}; about ${estimateMinutes(options)} min; results in ${options.outDir}`,
  );
  const started = Date.now();
  const machine = describeMachine();
  // Everything on the memory store first: a MongoDB still working through a backlog must
  // not slow the memory runs down.
  const other = options.otherNode === undefined ? { note: 'not run: BENCH_OTHER_NODE=none' } : otherNode(options.otherNode);
  if ('note' in other) console.log(`second runtime: ${other.note}`);
  const memory = await memoryScenario(plan, options.seedRecords, pinned, { other: 'note' in other ? undefined : other, beforeFinding: options.beforeFindingApp });
  // The run's own files: the SQLite apps' databases and the profiles.
  const workDir = await mkdtemp(join(tmpdir(), 'workplan-bench-'));
  const sqlite = options.sqlite ? await sqliteScenario(plan, options.seedRecords, workDir, pinned) : undefined;
  const sweepSpec = { pageSizes: options.pageSizes, collectionSizes: options.collectionSizes };
  const memorySweep = await listSweep({ ...sweepSpec, storage: 'memory', beside: besideInSweep(options, workDir, pinned) }, plan, pinned);
  const soakResult = await soak(plan, options.soakSeconds, options.soakRate, options.seedRecords, pinned);
  const conditional = await conditionalCost(plan, options.seedRecords, join(workDir, 'profiles'), pinned);
  const scale = await scalePhases(options, workDir, plan, pinned);
  const changes = await changesPhase(options, changesPlanOf(options.mode === 'quick'), workDir, plan, pinned);
  const webhooks = await webhooksPhase(options, webhooksPlanOf(options.mode === 'quick'), workDir, plan, pinned);
  const mongo = await mongoPhases(options, plan, pinned);
  const measured: Measured = {
    meta: {
      date: new Date(started).toISOString(),
      mode: options.mode,
      rounds: options.rounds,
      roundSeconds: options.roundSeconds,
      warmupSeconds: options.warmupSeconds,
      connections: options.connections,
      seedRecords: options.seedRecords,
      pinned,
      machine,
      tookSeconds: (Date.now() - started) / 1000,
    },
    memory,
    sqlite,
    mongodb: mongo.scenario,
    mongodbNote: mongo.note,
    sweeps: { memory: memorySweep, mongodb: mongo.sweep },
    soak: soakResult,
    conditional,
    scale,
    changes,
    webhooks,
  };
  const results: Results = { ...measured, targets: checkTargets(measured) };
  console.log(`\n${textTable(mainRows(results))}\n\n${textTable(sweepRows(results.sweeps))}\n\n${textTable(targetRows(results))}\n`);
  await writeOutputs(results, options);
}

/** The changes phase alone, at its full size: `changes.json` and `changes.md` in the out folder. */
async function changesAlone(options: BenchOptions, plan: Plan, pinned: boolean): Promise<void> {
  console.log(`bench (changes): ${options.rounds} round(s) of ${options.roundSeconds} s, ${options.connections} connections; results in ${options.outDir}`);
  const started = Date.now();
  const machine = describeMachine();
  const workDir = await mkdtemp(join(tmpdir(), 'workplan-bench-'));
  const changes = await changesPhase(options, changesPlanOf(false), workDir, plan, pinned);
  const targets = changesTargets(changes);
  const meta = { date: new Date(started).toISOString(), rounds: options.rounds, roundSeconds: options.roundSeconds, connections: options.connections, seedRecords: options.seedRecords, pinned, machine, tookSeconds: (Date.now() - started) / 1000 };
  const rows = targetRows({ targets });
  console.log(`\n${textTable(rows)}\n`);
  await mkdir(options.outDir, { recursive: true });
  await writeFile(join(options.outDir, 'changes.json'), `${JSON.stringify({ meta, changes, targets }, null, 2)}\n`);
  const m = machine;
  const heading = `# The changes phase alone (${meta.date})\n\nMachine: ${m.cpu}, ${m.cores} cores, Node ${m.node}, commit ${m.commit ?? 'unknown'}; load average ${m.loadAtStart.toFixed(2)} at the start. ${options.rounds} round(s) of ${options.roundSeconds} s, ${options.connections} connections, ${options.seedRecords} records seeded; run by \`pnpm bench --changes\`.\n`;
  await writeFile(join(options.outDir, 'changes.md'), [heading, '## Targets', '', markdownTable(rows), '', changesReport(changes)].join('\n'));
  console.log(`wrote ${join(options.outDir, 'changes.json')}, ${join(options.outDir, 'changes.md')}`);
}

/** Finding records at scale on the memory store and, unless --no-sqlite, on SQLite. */
async function scalePhases(options: BenchOptions, workDir: string, plan: Plan, pinned: boolean): Promise<Results['scale']> {
  if (options.scaleRecords === 0) return undefined;
  const memory = await scaleScenario('memory', options.scaleRecords, workDir, plan, pinned);
  const sqlite = options.sqlite ? await scaleScenario('sqlite', options.scaleRecords, workDir, plan, pinned) : undefined;
  return { memory, sqlite };
}

/**
 * The MongoDB scenario and sweep. A server that falls behind (FerretDB on SQLite does at 50
 * connections) can make seeding fail; then the memory results still get written.
 */
async function mongoPhases(options: BenchOptions, plan: Plan, pinned: boolean): Promise<{ scenario?: ScenarioResult; sweep?: Sweep; note?: string }> {
  const uri = options.mongodbUri;
  if (uri === undefined) {
    const note = 'not run: no MONGODB_URI (bash scripts/bench-db.sh pnpm bench runs it on FerretDB over PostgreSQL)';
    console.log(`mongodb: ${note}`);
    return { note };
  }
  const done: { scenario?: ScenarioResult; sweep?: Sweep } = {};
  try {
    done.scenario = await mongoScenario(plan, options.seedRecords, uri, pinned);
    const lists = { pageSizes: options.pageSizes, collectionSizes: MONGODB_LISTS.collectionSizes };
    done.sweep = await listSweep({ ...lists, storage: 'mongodb', mongodbUri: uri }, mongoListPlan(plan), pinned);
    return done;
  } catch (error) {
    const note = `stopped: ${error instanceof Error ? error.message : String(error)}`;
    console.error(`mongodb ${note}`);
    return { ...done, note };
  }
}

/** (b) and, unless --no-sqlite, the app on SQLite: their pages of 10, 100 and 1000 beside the memory app's. */
function besideInSweep(options: BenchOptions, workDir: string, pinned: boolean): Record<string, () => Promise<ServerProcess>> {
  const b = { b: () => startBaseline('express-map', 'b', pinned) };
  if (!options.sqlite) return b;
  const sqlite = { storage: 'sqlite', sqlite: { path: join(workDir, 'sweep.db'), synchronous: 'normal' } } as const;
  return { ...b, sqlite: () => startApp(sqlite, pinned) };
}

async function writeOutputs(results: Results, options: BenchOptions): Promise<void> {
  await mkdir(options.outDir, { recursive: true });
  const files = { json: 'results.json', markdown: 'results.md', chart: 'results.svg' };
  await writeFile(join(options.outDir, files.json), `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(join(options.outDir, files.chart), resultsChart(results));
  await writeFile(join(options.outDir, files.markdown), markdownReport(results, files.chart));
  console.log(`wrote ${Object.values(files).map((file) => join(options.outDir, file)).join(', ')}`);
}

/** Rough minutes a run takes, so the banner can say; seeding the large collections comes on top. */
function estimateMinutes(options: BenchOptions): number {
  const perRun = options.roundSeconds * options.rounds + options.warmupSeconds;
  const servers = 6 + (options.otherNode === undefined ? 0 : 1); // a, b, d, e, the app, the quiet app, and the app on the other Node
  const listBefore = options.beforeFindingApp === undefined ? 0 : 5; // the app before search and sort
  const memoryRuns = servers * 5 + listBefore + (options.sqlite ? 3 * 5 + 4 : 0); // five operations; SQLite's three servers, then four paced loads
  const mongoRuns = options.mongodbUri === undefined ? 0 : 2 + 5; // (c) find and list, the app's five
  const besideRuns = options.pageSizes.length * (options.sqlite ? 2 : 1); // (b) and SQLite beside the memory app's pages
  const mongoSweepRuns = options.mongodbUri === undefined ? 0 : options.pageSizes.length + MONGODB_LISTS.collectionSizes.length;
  const sweepRuns = options.pageSizes.length + options.collectionSizes.length + mongoSweepRuns + besideRuns;
  const profiledRuns = 2; // the conditional-request share, under finds and under updates
  const seconds =
    (memoryRuns + mongoRuns) * perRun + (sweepRuns + profiledRuns) * (options.roundSeconds + options.warmupSeconds) + options.soakSeconds;
  return Math.max(1, Math.round(seconds / 60));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
