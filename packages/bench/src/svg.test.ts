import { describe, expect, it } from 'vitest';
import { barPanel, linePanel, niceMax, svgDocument } from './svg.js';

const frame = { x: 0, y: 0, width: 400, height: 300, title: 'A <title>', yLabel: 'ratio' };

describe('niceMax', () => {
  it('rounds up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect([0.37, 1.64, 2.2, 7, 1279].map(niceMax)).toEqual([0.5, 2, 2.5, 10, 2000]);
  });
});

describe('barPanel', () => {
  it('draws one bar per defined value and leaves gaps for the missing ones', () => {
    const drawing = barPanel({
      ...frame,
      labels: ['find', 'list'],
      series: [{ name: 's', color: '#123456', values: [0.5, undefined] }],
    });
    expect(drawing.match(/<rect [^>]*fill="#123456"/gu)).toHaveLength(1);
    expect(drawing).toContain('A &lt;title&gt;');
  });
});

describe('linePanel', () => {
  it('draws a path through the points, on a log axis when asked', () => {
    const drawing = linePanel({
      ...frame,
      logY: true,
      labels: ['10', '100', '1000'],
      series: [{ name: 'p99', color: '#000', dashed: true, values: [0.8, 3, 120] }],
    });
    expect(drawing.match(/<circle /gu)).toHaveLength(3);
    expect(drawing).toMatch(/<path d="M[^"]+ L[^"]+ L[^"]+" [^>]*stroke-dasharray/u);
    expect(drawing).toContain('>1000<'); // a tick at each power of ten up to the largest value
  });
});

describe('svgDocument', () => {
  it('wraps the panels in one svg element', () => {
    expect(svgDocument(10, 20, ['<g/>'])).toMatch(/^<svg [^>]*viewBox="0 0 10 20">[\s\S]*<g\/>\n<\/svg>\n$/u);
  });
});
