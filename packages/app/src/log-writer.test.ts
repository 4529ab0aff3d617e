import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLOSE_WAIT_MS, LogWriter, type LineSink } from './log-writer.js';

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

describe('LogWriter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands each line to the sink, and flushes the sink synchronously when the process exits', () => {
    const sink = recordingSink();
    const log = new LogWriter(sink);
    log.write('last\n');
    process.emit('exit', 0);
    expect(sink.writes).toEqual(['last\n']);
    expect(sink.syncFlushes).toBe(1);
  });

  it('on close waits for the sink to have written every line, never flushing it synchronously, and stops its exit hook', async () => {
    const sink = recordingSink();
    const exitHooks = process.listenerCount('exit');
    const log = new LogWriter(sink);
    expect(process.listenerCount('exit')).toBe(exitHooks + 1);
    log.write('closing\n');
    let closed = false;
    const closing = log.close().then(() => {
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
    const log = new LogWriter(sink);
    log.write('request\n');
    log.write('SIGTERM: closing\n');
    const closing = log.close();
    sink.emit('error');
    await closing;
    expect(sink.writes).toEqual(['request\n', 'SIGTERM: closing\n']);
    expect(sink.syncFlushes).toBe(0);
  });

  it('hands the lines that come after a failed write to the sink, which tries it all again with them, and on close waits for it', async () => {
    const sink = recordingSink();
    const log = new LogWriter(sink);
    log.write('before the disk filled\n');
    sink.emit('error');
    log.write('final\n');
    expect(sink.writes.at(-1)).toBe('final\n');
    const closing = log.close();
    sink.emit('drain');
    await closing;
  });

  it('on close asks a sink whose last write failed to try it again, also when no line came since, and waits for it', async () => {
    const sink = recordingSink();
    const log = new LogWriter(sink);
    log.write('before the disk filled\n');
    sink.emit('error');
    let closed = false;
    const closing = log.close().then(() => {
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
    const log = new LogWriter(sink);
    log.write('stuck\n');
    let closed = false;
    const closing = log.close().then(() => {
      closed = true;
    });
    await vi.advanceTimersByTimeAsync(CLOSE_WAIT_MS - 1);
    expect(closed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await closing;
    expect(vi.getTimerCount()).toBe(0);
    const idle = new LogWriter(sink);
    await idle.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('on an exit without close does not flush a sink whose last write failed (it would try for as long as the disk is full), and does once one succeeded', () => {
    const sink = recordingSink();
    new LogWriter(sink).write('lost\n');
    sink.emit('error');
    process.emit('exit', 0);
    expect(sink.syncFlushes).toBe(0);
    const mendedSink = recordingSink();
    new LogWriter(mendedSink).write('kept\n');
    mendedSink.emit('error');
    mendedSink.emit('drain');
    process.emit('exit', 0);
    expect(mendedSink.syncFlushes).toBe(1);
  });
});
