/** @workplan/bench: load benchmarks of the workplan service against bare baselines (run `pnpm bench`). */
export { parseOptions, type BenchOptions } from './options.js';
export { checkTargets, ratio, type Results } from './results.js';
export { target, type Bound, type Target } from './targets.js';
export { barPanel, linePanel, niceMax, svgDocument, type Panel, type Series } from './svg.js';
