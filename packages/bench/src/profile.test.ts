import { describe, expect, it } from 'vitest';
import { byOwner, hottest } from './profile.js';

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

describe('byOwner', () => {
  it('adds up self time by where each function lives, a builtin\'s in its caller\'s, leaving the idle loop out of the shares', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', '', -1), children: [2, 3, 4, 5, 7, 8, 9, 10] },
        { id: 2, callFrame: frame('writev', 'node:internal/stream_base_commons', 120), children: [11] },
        { id: 3, callFrame: frame('handle', 'file:///r/node_modules/.pnpm/router@2.2.0/node_modules/router/index.js', 40) },
        { id: 4, callFrame: frame('write', 'file:///r/node_modules/.pnpm/@pinojs+x@1/node_modules/@pinojs/x/y.js', 1) },
        { id: 5, callFrame: frame('find', 'file:///r/packages/adapter-memory/dist/store.js', 9), children: [6] },
        { id: 6, callFrame: frame('stringify', '', -1) },
        { id: 7, callFrame: frame('(garbage collector)', '', -1) },
        { id: 8, callFrame: frame('(program)', '', -1) },
        { id: 9, callFrame: frame('(idle)', '', -1) },
        { id: 10, callFrame: frame('compileFunction', '', -1) },
        { id: 11, callFrame: frame('writeUtf8String', '', -1) },
      ],
      samples: [9, 2, 3, 4, 5, 6, 7, 8, 11, 10],
      timeDeltas: [1000, 200, 100, 100, 100, 200, 100, 100, 200, 100],
    };
    const share = (us: number) => expect.closeTo((us / 1200) * 100) as unknown;
    expect(byOwner(profile)).toEqual([
      { owner: 'node internals', selfMs: 0.4, selfPct: share(400) },
      { owner: '@workplan/adapter-memory', selfMs: 0.3, selfPct: share(300) },
      { owner: 'router', selfMs: 0.1, selfPct: share(100) },
      { owner: '@pinojs/x', selfMs: 0.1, selfPct: share(100) },
      { owner: '(garbage collector)', selfMs: 0.1, selfPct: share(100) },
      { owner: '(program)', selfMs: 0.1, selfPct: share(100) },
      { owner: '(native: V8 builtins, bindings)', selfMs: 0.1, selfPct: share(100) },
    ].map((row) => ({ ...row, selfMs: expect.closeTo(row.selfMs) as unknown })));
  });
});
