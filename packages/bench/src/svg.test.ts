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

describe('legend and marks', () => {
  it('starts a second legend row rather than run past the panel, and moves close mark labels apart', () => {
    const names = ['memory p50', 'memory p99', 'mongodb p50', 'mongodb p99', '(b) p50', '(b) p99'];
    const drawing = barPanel({
      ...frame,
      labels: ['find'],
      series: names.map((name) => ({ name, color: '#000', values: [1] })),
      marks: [{ value: 0.7, label: 'list 0.7' }, { value: 0.72, label: 'find 0.72' }],
    });
    const placed = (label: string) => {
      const match = new RegExp(`<text x="([0-9.]+)" y="([0-9.]+)"[^>]*>${label.replace(/[()]/gu, '\\$&')}<`, 'u').exec(drawing);
      return { x: Number(match?.[1]), y: Number(match?.[2]) };
    };
    expect(names.map((name) => placed(name).x).every((x) => x < frame.width)).toBe(true);
    expect(placed('(b) p99').y).toBeGreaterThan(placed('memory p50').y);
    expect(placed('list 0.7').y - placed('find 0.72').y).toBeGreaterThanOrEqual(11);
  });
});

describe('svgDocument', () => {
  it('wraps the panels in one svg element', () => {
    expect(svgDocument(10, 20, ['<g/>'])).toMatch(/^<svg [^>]*viewBox="0 0 10 20">[\s\S]*<g\/>\n<\/svg>\n$/u);
  });
});
