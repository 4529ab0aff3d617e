import { afterEach, describe, expect, it, vi } from 'vitest';
import { LineBatch, type LineSink } from './log-batch.js';

function recordingSink(): LineSink & { writes: string[]; syncFlushes: number; emit(event: 'error' | 'write'): void } {
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
    on(event: 'error' | 'write', listener: () => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    },
    emit(event: 'error' | 'write') {
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

  it('on close writes the rest, flushes the sink, and stops its interval and exit hook', () => {
    vi.useFakeTimers();
    const sink = recordingSink();
    const exitHooks = process.listenerCount('exit');
    const batch = new LineBatch(sink, { maxChars: 1000, flushEveryMs: 250 });
    expect(process.listenerCount('exit')).toBe(exitHooks + 1);
    batch.write('closing\n');
    batch.close();
    expect(sink.writes).toEqual(['closing\n']);
    expect(sink.syncFlushes).toBe(1);
    expect(process.listenerCount('exit')).toBe(exitHooks);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('on close does not flush a sink whose last write failed (it would try for as long as the disk is full), and does once one succeeded', () => {
    const sink = recordingSink();
    const failing = new LineBatch(sink, { maxChars: 1000, flushEveryMs: 60_000 });
    sink.emit('error');
    failing.close();
    expect(sink.syncFlushes).toBe(0);
    const mended = new LineBatch(sink, { maxChars: 1000, flushEveryMs: 60_000 });
    sink.emit('error');
    sink.emit('write');
    mended.close();
    expect(sink.syncFlushes).toBe(1);
  });
});
