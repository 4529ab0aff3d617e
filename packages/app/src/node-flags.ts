/**
 * The V8 settings the service runs with: `pnpm start`, the Dockerfile and `pnpm bench` all
 * pass these. The young generation is capped at 16 MB a semi-space; left alone, V8 grows it
 * under load until the process holds some 35 MB more, for no throughput `pnpm bench` can see.
 */
export const NODE_FLAGS = ['--max-semi-space-size=16'] as const;
