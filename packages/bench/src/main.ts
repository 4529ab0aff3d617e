#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaleScenario } from './at-scale.js';
import { changesPhase, changesPlanOf } from './change-feed.js';
import { followersPhase, followersPlanOf } from './followers.js';
import { historyPhase, historyPlanOf } from './history.js';
import { describeMachine } from './machine.js';
import { parseOptions, USAGE, type BenchOptions } from './options.js';
import { APP_MAIN, pinLoadGenerator } from './processes.js';
import { formatHot, formatOwners, profileOperation } from './profile.js';
import { markdownReport, operationRows, targetRows, textTable } from './report.js';
import { type Measured, type Results } from './results.js';
import { planOf, throughputScenario } from './scenarios.js';
import { soak } from './soak.js';
import { checkTargets, followersTargets } from './targets.js';
import { webhooksPhase, webhooksPlanOf } from './webhooks.js';

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
    const { hot, owners, cpuUsPerRequest } = await profileOperation(operation, storage, plan, options.seedRecords, options.outDir, pinned);
    console.log(`\ntop functions by self time under ${operation} load:\n${formatHot(hot, 25)}`);
    const cpu = cpuUsPerRequest === undefined ? '' : `; the round's server CPU ${cpuUsPerRequest.toFixed(0)} µs a request, under the profiler`;
    console.log(`\nself time by package, of the main thread's busy time${cpu}:\n${formatOwners(owners, cpuUsPerRequest)}`);
    return;
  }
  if (options.mode === 'followers') {
    const workDir = await mkdtemp(join(tmpdir(), 'workplan-bench-'));
    const followers = await followersPhase(followersPlanOf(false), workDir, plan, pinned);
    console.log(`\n${textTable(targetRows({ targets: followersTargets(followers) }))}\n`);
    return;
  }
  console.log(
    `bench (${options.mode}): ${options.rounds} round(s) of ${options.roundSeconds} s, ${options.connections} connections, ` +
      `pinned: ${pinning}; about ${estimateMinutes(options)} min; results in ${options.outDir}`,
  );
  const started = Date.now();
  const machine = describeMachine();
  // The run's own files: the SQLite apps' databases and webhook subscriptions.
  const workDir = await mkdtemp(join(tmpdir(), 'workplan-bench-'));
  const quick = options.mode === 'quick';
  const throughput = await throughputScenario(plan, options.seedRecords, workDir, pinned);
  const soakResult = await soak(plan, options.soakSeconds, options.soakRate, options.seedRecords, pinned);
  const scale = options.scaleRecords === 0 ? undefined : await scaleScenario(options.scaleRecords, workDir, plan, pinned);
  const changes = await changesPhase(changesPlanOf(quick), workDir, plan, pinned);
  const webhooks = await webhooksPhase(options.seedRecords, webhooksPlanOf(quick), workDir, plan, pinned);
  const followers = await followersPhase(followersPlanOf(quick), workDir, plan, pinned);
  const history = await historyPhase(historyPlanOf(quick), workDir, plan, pinned);
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
    throughput,
    soak: soakResult,
    scale,
    changes,
    webhooks,
    followers,
    history,
  };
  const results: Results = { ...measured, targets: checkTargets(measured) };
  console.log(`\n${textTable(operationRows(results))}\n\n${textTable(targetRows(results))}\n`);
  await mkdir(options.outDir, { recursive: true });
  const [json, markdown] = [join(options.outDir, 'results.json'), join(options.outDir, 'results.md')];
  await writeFile(json, `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(markdown, markdownReport(results));
  console.log(`wrote ${json}, ${markdown}`);
}

/** Rough minutes a run takes, so the banner can say; seeding and the scale, changes, webhooks and history phases come on top. */
function estimateMinutes(options: BenchOptions): number {
  const perRun = options.roundSeconds * options.rounds + options.warmupSeconds;
  // (a) on find and list; the peers and the memory app on five operations; SQLite on four; then the paced finds' rounds.
  const runs = 2 + 3 * 5 + 4;
  const seconds = runs * perRun + options.rounds * options.roundSeconds + options.soakSeconds;
  return Math.max(1, Math.round(seconds / 60));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
