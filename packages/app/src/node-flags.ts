/**
 * The V8 settings the service runs with: `pnpm start`, `pnpm dev`, the Dockerfile and
 * `pnpm bench` all pass these.
 * - The young generation is capped at 16 MB a semi-space; left alone, V8 grows it under
 *   load and the process holds more memory than the bench's RSS target allows, for no
 *   throughput `pnpm bench` can see.
 * - No allocation-site pretenuring. V8 watches whether the objects made at one place in
 *   the code outlive a few collections and, if they do, makes the later ones straight in
 *   the old generation. The records a burst of creates makes do outlive them, and the same
 *   places then make each request's short-lived records: on Node 26, many processes then
 *   served finds slower, with a longer p99 and more memory, collecting the old generation
 *   again and again. Without pretenuring, every process served as the fast ones.
 * - V8's helper threads sized to the cores the process may run on: one fewer, at least one
 *   (`--v8-pool-size=0`), where Node's default is four whatever the machine. The helpers
 *   mark the old generation beside the main thread; with more of them than spare cores,
 *   they take the main thread's core in turns for as long as marking runs, and requests
 *   wait behind them. `node-flags.test.ts` counts the threads.
 * The figures of all three: docs/benchmarks/README.md.
 */
export const NODE_FLAGS = ['--max-semi-space-size=16', '--no-allocation-site-pretenuring', '--v8-pool-size=0'] as const;
