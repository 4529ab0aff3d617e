/** The largest gap between ticks of a 5 ms timer while `work` runs: how long the event loop was held. */
export async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  // Work done before the first tick held the loop as long.
  return Math.max(longest, performance.now() - last);
}
