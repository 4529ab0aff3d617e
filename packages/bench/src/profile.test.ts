import { describe, expect, it } from 'vitest';
import { hottest } from './profile.js';

const frame = (functionName: string, url: string, lineNumber: number) => ({ functionName, url, lineNumber });

describe('hottest', () => {
  it('adds up sample intervals per function, names packages by their path, and puts the largest first', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', '', -1) },
        { id: 2, callFrame: frame('stringify', 'file:///r/node_modules/.pnpm/express@5/node_modules/express/lib/response.js', 1025) },
        { id: 3, callFrame: frame('', 'file:///r/packages/core/dist/x.js', 9) },
      ],
      samples: [2, 3, 2, 1],
      timeDeltas: [300, 100, 500, 100],
    };
    expect(hottest(profile)).toEqual([
      { name: 'stringify', where: 'express/lib/response.js:1026', selfMs: 0.8, selfPct: 80 },
      { name: '(anonymous)', where: 'packages/core/dist/x.js:10', selfMs: 0.1, selfPct: 10 },
      { name: '(root)', where: '', selfMs: 0.1, selfPct: 10 },
    ]);
  });
});
