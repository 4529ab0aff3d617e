import { describe, expect, it } from 'vitest';
import { conditionalShare } from './conditional-cost.js';
import { type HotFunction } from './profile.js';

const fn = (name: string, where: string, selfMs: number): HotFunction => ({ name, where, selfMs, selfPct: 0 });

describe('conditionalShare', () => {
  it('is the entity tags and revisions share of the busy time, idle left out', () => {
    const functions = [
      fn('(idle)', '', 500),
      fn('writeUtf8String', '', 300),
      fn('entityTagOf', 'packages/adapter-express/dist/entity-tags.js:4', 10),
      fn('revisionOf', 'packages/core/dist/revision.js:10', 10),
      fn('noneMatchHits', 'packages/adapter-express/dist/entity-tags.js:27', 5),
      fn('sendRecord', 'packages/adapter-express/dist/api-router.js:73', 175),
    ];
    expect(conditionalShare(functions)).toBeCloseTo(5); // 25 of 500 busy ms
  });

  it('counts nothing from other modules, and says NaN when the profile is empty', () => {
    expect(conditionalShare([fn('x', 'packages/core/dist/catalog.js:1', 10)])).toBe(0);
    expect(conditionalShare([fn('(idle)', '', 10)])).toBeNaN();
  });
});
