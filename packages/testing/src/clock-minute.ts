/**
 * Waits past the end of the current minute of the clock when it is less than `ms` away, so
 * that what a test does next falls in one minute: rate limits count by the clock's minute.
 */
export async function clearOfMinuteEnd(ms: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < ms) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
