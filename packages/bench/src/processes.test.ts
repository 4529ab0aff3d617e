import { describe, expect, it } from 'vitest';
import { cpuMsOfStat } from './processes.js';

describe('cpuMsOfStat', () => {
  it('adds user and system time, in ticks of a hundredth of a second, from a /proc/PID/stat line', () => {
    const line = '4242 (node) S 1 4242 4242 0 -1 4194560 9000 0 3 0 1234 56 0 0 20 0 11 0 100 1000000 5000 18446744073709551615';
    expect(cpuMsOfStat(line)).toBe(12_900);
  });

  it('counts its fields after the command name, which may hold spaces and parentheses', () => {
    const line = '7 (a (b) c) R 1 7 7 0 -1 0 0 0 0 0 250 50 0 0 20 0';
    expect(cpuMsOfStat(line)).toBe(3000);
  });

  it('is unknown for a line it cannot read', () => {
    expect(cpuMsOfStat('7 (node) R')).toBeUndefined();
  });
});
