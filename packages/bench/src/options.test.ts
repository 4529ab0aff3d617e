import { describe, expect, it } from 'vitest';
import { parseOptions } from './options.js';

describe('parseOptions', () => {
  it('runs 3 rounds of 10 s and a 60 s soak into docs/benchmarks by default', () => {
    const options = parseOptions([], {});
    expect(options).toMatchObject({ mode: 'full', rounds: 3, roundSeconds: 10, soakSeconds: 60, connections: 50 });
    expect(options.outDir).toMatch(/docs\/benchmarks$/u);
  });

  it('runs 1 round of 2 s and a 5 s soak into a temp dir with --quick', () => {
    const options = parseOptions(['--quick'], {});
    expect(options).toMatchObject({ mode: 'quick', rounds: 1, roundSeconds: 2, soakSeconds: 5 });
    expect(options.outDir).not.toMatch(/docs\/benchmarks$/u);
  });

  it('takes durations and sizes from BENCH_* variables', () => {
    const env = { BENCH_ROUNDS: '5', BENCH_ROUND_SECONDS: '20', BENCH_SOAK_SECONDS: '120', BENCH_SCALE_RECORDS: '0' };
    expect(parseOptions([], env)).toMatchObject({ rounds: 5, roundSeconds: 20, soakSeconds: 120, scaleRecords: 0 });
  });

  it('refuses an unknown flag and a malformed number', () => {
    expect(() => parseOptions(['--fast'], {})).toThrow('unknown flag --fast');
    expect(() => parseOptions(['--changes'], {})).toThrow('unknown flag --changes');
    expect(() => parseOptions([], { BENCH_ROUNDS: '1.5' })).toThrow('BENCH_ROUNDS must be a whole number');
  });
});

describe('BENCH_PROFILE', () => {
  it('profiles finds by default, a page of 100 or of 1000 when told, and refuses anything else', () => {
    expect([parseOptions(['--profile'], {}).profiled, parseOptions(['--profile'], { BENCH_PROFILE: 'list1000' }).profiled]).toEqual(['find', 'list1000']);
    expect(() => parseOptions(['--profile'], { BENCH_PROFILE: 'list' })).toThrow('BENCH_PROFILE must be one of find, list100, list1000, create, update');
  });

  it('profiles the memory store by default, SQLite when BENCH_PROFILE_STORAGE says so, and refuses anything else', () => {
    expect(parseOptions(['--profile'], {}).profiledStorage).toBe('memory');
    expect(parseOptions(['--profile'], { BENCH_PROFILE_STORAGE: 'sqlite' }).profiledStorage).toBe('sqlite');
    expect(() => parseOptions(['--profile'], { BENCH_PROFILE_STORAGE: 'mongodb' })).toThrow('BENCH_PROFILE_STORAGE must be memory or sqlite');
  });
});
