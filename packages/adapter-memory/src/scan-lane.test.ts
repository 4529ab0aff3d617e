import { describe, expect, it } from 'vitest';
import { ScanLane, type Scan } from './scan-lane.js';

/** A log of the slices every scan of a test ran, in the order they ran. */
interface SliceLog {
  readonly slices: string[];
}

/** A scan that keeps the event loop busy for `slices` whole slices, then answers its name. */
function busyScan(name: string, slices: number, log: SliceLog): Scan<string> {
  let done = 0;
  return {
    advance(timeIsUp) {
      while (!timeIsUp()) {
        // Busy, as a search through many records is.
      }
      log.slices.push(name);
      done += 1;
      return done >= slices;
    },
    result: () => name,
  };
}

describe('ScanLane', () => {
  it('runs one scan at a time, first come, first served, each to its end', async () => {
    const lane = new ScanLane({ sliceMs: 1 });
    const log: SliceLog = { slices: [] };
    const answers = await Promise.all(['a', 'b', 'c'].map((name) => lane.run(() => busyScan(name, 3, log))));
    expect(answers).toEqual(['a', 'b', 'c']);
    expect(log.slices.join('')).toBe('aaabbbccc');
  });

  it('gives other work a turn after at most a slice or two, however many scans wait', async () => {
    const lane = new ScanLane({ sliceMs: 1 });
    const log: SliceLog = { slices: [] };
    const scans = Array.from({ length: 16 }, (_, n) => lane.run(() => busyScan(`scan ${String(n)}`, 4, log)));
    // A find-like task: it asks for a turn, as a request arriving does, and notes how many
    // slices ran before it got one, then asks again, until the scans are done.
    const waits: number[] = [];
    const progress = { scansDone: false };
    const finds = (async () => {
      while (!progress.scansDone) {
        const asked = log.slices.length;
        await new Promise((resolve) => setTimeout(resolve, 0));
        waits.push(log.slices.length - asked);
      }
    })();
    await Promise.all(scans);
    progress.scansDone = true;
    await finds;
    expect(log.slices).toHaveLength(64);
    // Timers round up to 1 ms, so a turn can come a slice late; with each scan yielding on
    // its own instead, sixteen slices would run in one turn of the event loop.
    expect(Math.max(...waits)).toBeLessThanOrEqual(2);
    expect(waits.length).toBeGreaterThan(20);
  });

  it('answers a scan done in its first slice at once, without a turn of the event loop', async () => {
    const lane = new ScanLane();
    let turned = false;
    setImmediate(() => (turned = true));
    await expect(lane.run(() => ({ advance: () => true, result: () => 'pronto' }))).resolves.toBe('pronto');
    expect(turned).toBe(false);
  });

  it('stops a scan between slices once its signal aborts, and lets the next one run', async () => {
    const lane = new ScanLane({ sliceMs: 1 });
    const log: SliceLog = { slices: [] };
    const controller = new AbortController();
    const reason = new Error('the client went away');
    const stopped = lane.run(() => busyScan('long', 1000, log), controller.signal);
    const next = lane.run(() => busyScan('next', 1, log));
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(reason);
    await expect(stopped).rejects.toBe(reason);
    await expect(next).resolves.toBe('next');
    expect(log.slices.filter((name) => name === 'long').length).toBeLessThan(1000);
  });

  it('refuses a scan whose signal aborted before it began, and frees the lane after one that throws', async () => {
    const lane = new ScanLane();
    const reason = new Error('aborted');
    await expect(lane.run(() => busyScan('never', 1, { slices: [] }), AbortSignal.abort(reason))).rejects.toBe(reason);
    const broken = lane.run(() => ({
      advance: () => {
        throw new Error('broken scan');
      },
      result: () => 'never',
    }));
    await expect(broken).rejects.toThrow('broken scan');
    await expect(lane.run(() => ({ advance: () => true, result: () => 'after' }))).resolves.toBe('after');
  });
});
