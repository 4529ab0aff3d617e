import { join } from 'node:path';
import { type Plan } from './compare.js';
import { profileOperation, type HotFunction } from './profile.js';

/**
 * Where the work of conditional requests lives: the HTTP adapter's entity tags (the tag of
 * each answer, the `If-None-Match` and `If-Match` checks) and the core's revisions. With
 * no condition sent, what is left of them is making the tag and returning early.
 */
const CONDITIONAL_CODE = ['packages/adapter-express/dist/entity-tags.js:', 'packages/core/dist/revision.js:'];

/** The share of the app's busy time, in %, that conditional requests took under each load. */
export interface ConditionalCost {
  readonly find: number;
  readonly update: number;
}

/**
 * Profiles the app on the memory store under finds and under updates that send no
 * condition, and takes the share of its CPU spent in the conditional-request code. The
 * profile is of the whole process, so this is what the feature adds to a request that does
 * not use it; the `ETag` header's own `setHeader` and the header reads are not counted.
 */
export async function conditionalCost(plan: Plan, seedRecords: number, dir: string, pinned: boolean): Promise<ConditionalCost> {
  const shareUnder = async (operation: 'find' | 'update') =>
    conditionalShare(await profileOperation(operation, 'memory', plan, seedRecords, join(dir, operation), pinned));
  return { find: await shareUnder('find'), update: await shareUnder('update') };
}

/** The self time of the conditional-request code over all self time but idle, in %. */
export function conditionalShare(functions: readonly HotFunction[]): number {
  const busy = functions.filter((f) => f.name !== '(idle)');
  const total = busy.reduce((sum, f) => sum + f.selfMs, 0);
  const conditional = busy.filter((f) => CONDITIONAL_CODE.some((code) => f.where.startsWith(code))).reduce((sum, f) => sum + f.selfMs, 0);
  return total === 0 ? Number.NaN : (conditional / total) * 100;
}
