/**
 * How long a write sent to MongoDB may still land: no other writer or reader may assume
 * before then that it did not (write claims, undecided changes, delivery versions). With no
 * driver import, so a configuration can check a lease without loading the driver.
 */

/** How far instances' clocks may disagree when one judges the age of what another stamped. */
export const CLOCK_ALLOWANCE_MS = 1000;

/**
 * The shortest safe lease for writers whose calls last `timeoutMS` at most: every step of a
 * write is sent within its call (`timeoutMS`); a step sent may reach the server and be
 * applied up to `timeoutMS` after its call ended (the margin); and the instance that judges
 * the lease over may read its clock up to `CLOCK_ALLOWANCE_MS` ahead of the writer's. The
 * derivation, and what the margin does not cover, is in docs/storage.md ("The lease").
 */
export function leaseOf(timeoutMS: number): number {
  return 2 * timeoutMS + CLOCK_ALLOWANCE_MS;
}
