/**
 * Whether `promise` has settled once the work already queued has run (its microtasks, then
 * one turn of the event loop): an order of events, which a busy machine does not change,
 * where a measured time would.
 */
export async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}
