/**
 * The V8 settings the service runs with: `pnpm start`, `pnpm dev`, the Dockerfile and
 * `pnpm bench` all pass these.
 * - The young generation is capped at 16 MB a semi-space; left alone, V8 grows it under
 *   load until the process holds some 35 MB more, for no throughput `pnpm bench` can see.
 * - No allocation-site pretenuring. V8 watches whether the objects made at one place in
 *   the code outlive a few collections and, if they do, makes the later ones straight in
 *   the old generation. The records a burst of creates makes do outlive them, and the same
 *   places then make each request's short-lived records: on Node 26, some 4 in 10
 *   processes served finds at 0.65 of the rest, with p99 three times as long and 50 MB
 *   more memory, collecting the old generation every 0.7 s. Without pretenuring, 10
 *   processes of 10 served as the fast ones (docs/benchmarks/README.md).
 */
export const NODE_FLAGS = ['--max-semi-space-size=16', '--no-allocation-site-pretenuring'] as const;
