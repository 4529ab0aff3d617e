import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLOSE_WAIT_MS, LineBatch, type LineSink } from './log-batch.js';

function recordingSink(): LineSink & { writes: string[]; syncFlushes: number; emit(event: 'error' | 'drain'): void } {
  const listeners = new Map<string, (() => void)[]>();
  const sink = {
    writes: [] as string[],
    syncFlushes: 0,
    write(data: string) {
      sink.writes.push(data);
      return true;
    },
    flushSync() {
      sink.syncFlushes += 1;
    },
    on(event: 'error' | 'drain', listener: () => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    },
    off(event: 'error' | 'drain', listener: () => void) {
      listeners.set(event, (listeners.get(event) ?? []).filter((one) => one !== listener));
    },
    emit(event: 'error' | 'drain') {
      for (const listener of listeners.get(event) ?? []) listener();
    },
  };
  return sink;
}

describe('LineBatch', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands lines over in one write once enough have gathered, in order', () => {
    const sink = recordingSink();
    const batch = new LineBatch(sink, { maxChars: 10, flushEveryMs: 60_000 });
    batch.write('abcd\n');
    expect(sink.writes).toEqual([]);
    batch.write('efgh\n');
    expect(sink.writes).toEqual(['abcd\nefgh\n']);
    batch.write('ij\n');
    expect(sink.writes).toEqual(['abcd\nefgh\n']);
  });

  it('hands over what has gathered when the interval comes, and nothing when nothing has', () => {
    vi.useFakeTimers();
    const sink = recordingSink();
    const batch = new LineBatch(sink, { maxChars: 1000, flushEveryMs: 250 });
    batch.write('one\n');
    vi.advanceTimersByTime(249);
    expect(sink.writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sink.writes).toEqual(['one\n']);
    vi.advanceTimersByTime(1000);
    expect(sink.writes).toEqual(['one\n']);
  });

  it('writes the rest and flushes the sink synchronously when the process exits', () => {
    const sink = recordingSink();
    const batch = new LineBatch(sink, { maxChars: 1000, flushEveryMs: 60_000 });
    batch.write('last\n');
    process.emit('exit', 0);
    expect(sink.writes).toEqual(['last\n']);
    expect(sink.syncFlushes).toBe(1);
  });

  it('on close writes the rest, waits for the sink to have written it, never flushing it synchronously, and stops its interval and exit hook', async () => {
    const sink = recordingSink();
    const exitHooks = process.listenerCount('exit');
    const batch = new LineBatch(sink, { maxChars: 1000, flushEveryMs: 250 });
    expect(process.listenerCount('exit')).toBe(exitHooks + 1);
    batch.write('closing\n');
    let closed = false;
    const closing = batch.close().then(() => {
      closed = true;
    });
    expect(sink.writes).toEqual(['closing\n']);
    await Promise.resolve();
    expect(closed).toBe(false);
    sink.emit('drain');
    await closing;
    expect(sink.syncFlushes).toBe(0);
    expect(process.listenerCount('exit')).toBe(exitHooks);
  });

  it('on close ends the wait when the write in flight fails (a disk just full), instead of trying it again for as long as it is full', async () => {
    const sink = recordingSink();
    const batch = new LineBatch(sink, { maxChars: 1000, flushEveryMs: 60_000 });
    batch.write('request\n');
    batch.flush();
    batch.write('SIGTERM: closing\n');
    const closing = batch.close();
    sink.emit('error');
    await closing;
    expect(sink.writes).toEqual(['request\n', 'SIGTERM: closing\n']);
    expect(sink.syncFlushes).toBe(0);
  });

  it('on close hands the last lines to a sink whose earlier write failed, which tries it all again with them', async () => {
    const sink = recordingSink();
    const batch = new LineBatch(sink, { maxChars: 1000, flushEveryMs: 60_000 });
    batch.write('before the disk filled\n');
    batch.flush();
    sink.emit('error');
    batch.write('final\n');
    const closing = batch.close();
    expect(sink.writes.at(-1)).toBe('final\n');
    sink.emit('drain');
    await closing;
  });

  it('on close asks a sink whose last write failed to try it again, also when no line came since, and waits for it', async () => {
    const sink = recordingSink();
    const batch = new LineBatch(sink, { maxChars: 1000, flushEveryMs: 60_000 });
    batch.write('before the disk filled\n');
    batch.flush();
    sink.emit('error');
    let closed = false;
    const closing = batch.close().then(() => {
      closed = true;
    });
    expect(sink.writes).toEqual(['before the disk filled\n', '']);
    await Promise.resolve();
    expect(closed).toBe(false);
    sink.emit('drain');
    await closing;
  });

  it('on close waits no longer than its limit for a sink that never answers, and at once when nothing is unwritten', async () => {
    vi.useFakeTimers();
    const sink = recordingSink();
    const batch = new LineBatch(sink, { maxChars: 1000, flushEveryMs: 60_000 });
    batch.write('stuck\n');
    let closed = false;
    const closing = batch.close().then(() => {
      closed = true;
    });
    await vi.advanceTimersByTimeAsync(CLOSE_WAIT_MS - 1);
    expect(closed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await closing;
    expect(vi.getTimerCount()).toBe(0);
    const idle = new LineBatch(sink, { maxChars: 1000, flushEveryMs: 60_000 });
    await idle.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('on an exit without close does not flush a sink whose last write failed (it would try for as long as the disk is full), and does once one succeeded', () => {
    const sink = recordingSink();
    new LineBatch(sink, { maxChars: 1000, flushEveryMs: 60_000 }).write('lost\n');
    sink.emit('error');
    process.emit('exit', 0);
    expect(sink.syncFlushes).toBe(0);
    const mendedSink = recordingSink();
    new LineBatch(mendedSink, { maxChars: 1000, flushEveryMs: 60_000 }).write('kept\n');
    mendedSink.emit('error');
    mendedSink.emit('drain');
    process.emit('exit', 0);
    expect(mendedSink.syncFlushes).toBe(1);
  });
});
