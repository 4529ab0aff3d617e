import { describe, expect, it } from 'vitest';
import { historyPlanOf, nextOf, titleOf, walkRequests } from './history.js';

describe('the history phase', () => {
  it('reads issue 50\'s 48 clients and 10,000 changes in a full run, in pages of the largest limit', () => {
    expect(historyPlanOf(false)).toMatchObject({ changes: 10_000, clients: 48, limit: 1000 });
    expect(historyPlanOf(true).changes).toBeLessThan(10_000);
  });

  it('gives each change a title of 200 code points, unique to its number', () => {
    expect(Array.from(titleOf(7))).toHaveLength(200);
    expect(titleOf(7)).not.toBe(titleOf(8));
  });

  it('follows Link rel="next", and ends on a page without one', () => {
    expect(nextOf('</api/v1/costCenter/x/history?after=42&limit=1000>; rel="next"')).toBe('/api/v1/costCenter/x/history?after=42&limit=1000');
    expect(nextOf(undefined)).toBeUndefined();
  });

  it('walks from the first page by each answer\'s Link, whatever the case of its name, and starts over when a walk ends early', () => {
    const first = '/api/v1/costCenter/x/history?limit=1000';
    const [page1, page2, page3] = walkRequests(first, 3);
    const context = {};
    const pathOf = (request: typeof page1) => (request?.setupRequest({}, context) as { path?: string } | undefined)?.path;
    expect(pathOf(page1)).toBe(first);
    page1?.onResponse(200, '{}', context, { Link: '</next-1>; rel="next"' });
    expect(pathOf(page2)).toBe('/next-1');
    page2?.onResponse(200, '{}', context, {});
    expect(pathOf(page3)).toBe(first);
  });
});
