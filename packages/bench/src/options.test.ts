import { describe, expect, it } from 'vitest';
import { withDatabase } from './app.js';
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

  it('takes durations from BENCH_* variables and MongoDB from MONGODB_URI', () => {
    const env = { BENCH_ROUNDS: '5', BENCH_ROUND_SECONDS: '20', BENCH_SOAK_SECONDS: '120', MONGODB_URI: 'mongodb://h:1/' };
    expect(parseOptions([], env)).toMatchObject({ rounds: 5, roundSeconds: 20, soakSeconds: 120, mongodbUri: 'mongodb://h:1/' });
    expect(parseOptions(['--no-mongodb'], env).mongodbUri).toBeUndefined();
  });

  it('refuses an unknown flag and a malformed number', () => {
    expect(() => parseOptions(['--fast'], {})).toThrow('unknown flag --fast');
    expect(() => parseOptions([], { BENCH_ROUNDS: '1.5' })).toThrow('BENCH_ROUNDS must be a whole number');
  });
});

describe('BENCH_OTHER_NODE', () => {
  it('runs the app on Node 26 beside the bench\'s own by default, on another major when set, on none when told', () => {
    expect([parseOptions([], {}).otherNode, parseOptions([], { BENCH_OTHER_NODE: '25' }).otherNode]).toEqual(['24', '25']);
    expect(parseOptions([], { BENCH_OTHER_NODE: 'none' }).otherNode).toBeUndefined();
  });

  it('refuses what is not a major version', () => {
    expect(() => parseOptions([], { BENCH_OTHER_NODE: '26.1' })).toThrow('BENCH_OTHER_NODE must be a Node major version');
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

describe('withDatabase', () => {
  it('sets the database and keeps hosts and options', () => {
    expect(withDatabase('mongodb://127.0.0.1:27017/', 'b')).toBe('mongodb://127.0.0.1:27017/b');
    expect(withDatabase('mongodb://u:p@h1:1,h2:2/app?replicaSet=rs', 'b')).toBe('mongodb://u:p@h1:1,h2:2/b?replicaSet=rs');
    expect(withDatabase('mongodb://h:1', 'b')).toBe('mongodb://h:1/b');
  });
});
