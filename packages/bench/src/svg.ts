// A few hand-drawn SVG charts: enough for bars and lines, with no charting library.

export interface Series {
  readonly name: string;
  readonly color: string;
  /** One value per category or x label; undefined leaves a gap. */
  readonly values: readonly (number | undefined)[];
  readonly dashed?: boolean;
}

export interface Panel {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly title: string;
  readonly yLabel: string;
  /** Category (bars) or x-axis (lines) labels. */
  readonly labels: readonly string[];
  readonly series: readonly Series[];
  /** Horizontal reference lines, such as a target ratio. */
  readonly marks?: readonly { readonly value: number; readonly label: string }[];
  /** A logarithmic y axis, for values spanning powers of ten such as latencies. */
  readonly logY?: boolean;
}

const MARGIN = { left: 56, right: 16, top: 34, bottom: 52 };
// Room on the right for the labels of reference lines.
const MARKS_RIGHT = 130;
const FONT = 'font-family="system-ui, sans-serif"';

/** A whole SVG document holding the given panels' drawings. */
export function svgDocument(width: number, height: number, panels: readonly string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    ...panels,
    '</svg>',
    '',
  ].join('\n');
}

/** Grouped bars: one group per label, one bar per series. */
export function barPanel(panel: Panel): string {
  const frame = axes(panel);
  const groupWidth = frame.plotWidth / Math.max(1, panel.labels.length);
  const barWidth = (groupWidth * 0.8) / Math.max(1, panel.series.length);
  const bars = panel.labels.flatMap((_, group) =>
    panel.series.flatMap((series, index) => {
      const value = series.values[group];
      if (value === undefined || !Number.isFinite(value)) return [];
      const x = frame.left + group * groupWidth + groupWidth * 0.1 + index * barWidth;
      const top = frame.yOf(value);
      return [
        `<rect x="${r(x)}" y="${r(top)}" width="${r(barWidth - 2)}" height="${r(frame.bottom - top)}" fill="${series.color}"/>`,
        text(x + barWidth / 2 - 1, top - 3, value.toFixed(2), 9, 'middle'),
      ];
    }),
  );
  return group([...frame.drawing, ...bars, ...frame.marks, legend(panel)]);
}

/** Lines with dots over equally spaced x labels. */
export function linePanel(panel: Panel): string {
  const frame = axes(panel);
  const step = frame.plotWidth / Math.max(1, panel.labels.length);
  const xOf = (index: number) => frame.left + step * (index + 0.5);
  const lines = panel.series.flatMap((series) => {
    const points = series.values.flatMap((value, index) =>
      value === undefined || !Number.isFinite(value) ? [] : [[xOf(index), frame.yOf(value), value] as const],
    );
    const path = points.map(([x, y], index) => `${index === 0 ? 'M' : 'L'}${r(x)},${r(y)}`).join(' ');
    const dash = series.dashed === true ? ' stroke-dasharray="5,3"' : '';
    return [
      `<path d="${path}" fill="none" stroke="${series.color}" stroke-width="2"${dash}/>`,
      ...points.flatMap(([x, y, value]) => [
        `<circle cx="${r(x)}" cy="${r(y)}" r="3" fill="${series.color}"/>`,
        // Dashed (upper) series label above their dots, solid ones below, so pairs do not collide.
        text(x + 5, series.dashed === true ? y - 5 : y + 12, value < 10 ? value.toFixed(2) : value.toFixed(0), 9, 'start'),
      ]),
    ];
  });
  return group([...frame.drawing, ...lines, ...frame.marks, legend(panel)]);
}

interface Frame {
  readonly left: number;
  readonly bottom: number;
  readonly plotWidth: number;
  readonly yOf: (value: number) => number;
  readonly drawing: string[];
  /** Reference lines, drawn over the data. */
  readonly marks: string[];
}

function axes(panel: Panel): Frame {
  const left = panel.x + MARGIN.left;
  const top = panel.y + MARGIN.top;
  const bottom = panel.y + panel.height - MARGIN.bottom;
  const plotWidth = panel.width - MARGIN.left - ((panel.marks ?? []).length > 0 ? MARKS_RIGHT : MARGIN.right);
  const values = [...panel.series.flatMap((s) => s.values), ...(panel.marks ?? []).map((m) => m.value)].filter(
    (v): v is number => v !== undefined && Number.isFinite(v) && (panel.logY !== true || v > 0),
  );
  const scale = panel.logY === true ? logScale(values, top, bottom) : linearScale(values, top, bottom);
  const step = plotWidth / Math.max(1, panel.labels.length);
  const drawing = [
    text(panel.x + panel.width / 2, panel.y + 18, panel.title, 13, 'middle', 'bold'),
    text(panel.x + 12, (top + bottom) / 2, panel.yLabel, 10, 'middle', 'normal', -90),
    ...scale.ticks.flatMap((tick) => [
      `<line x1="${left}" x2="${left + plotWidth}" y1="${r(scale.yOf(tick))}" y2="${r(scale.yOf(tick))}" stroke="#ddd"/>`,
      text(left - 4, scale.yOf(tick) + 3, formatTick(tick), 9, 'end'),
    ]),
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${bottom}" stroke="#333"/>`,
    `<line x1="${left}" x2="${left + plotWidth}" y1="${bottom}" y2="${bottom}" stroke="#333"/>`,
    ...panel.labels.map((label, index) => text(left + step * (index + 0.5), bottom + 14, label, 10, 'middle')),
  ];
  // Labels of marks close together are moved apart, top down, so none overlaps the next.
  let lastLabelY = -Infinity;
  const marks = [...(panel.marks ?? [])].sort((x, y) => y.value - x.value).flatMap((mark) => {
    lastLabelY = Math.max(scale.yOf(mark.value) + 3, lastLabelY + 11);
    return [
      `<line x1="${left}" x2="${left + plotWidth}" y1="${r(scale.yOf(mark.value))}" y2="${r(scale.yOf(mark.value))}" stroke="#c00" stroke-dasharray="4,3"/>`,
      text(left + plotWidth + 4, lastLabelY, mark.label, 9, 'start', 'normal', 0, '#c00'),
    ];
  });
  return { left, bottom, plotWidth, yOf: scale.yOf, drawing, marks };
}

interface Scale {
  readonly yOf: (value: number) => number;
  readonly ticks: readonly number[];
}

function linearScale(values: readonly number[], top: number, bottom: number): Scale {
  const max = niceMax(Math.max(0, ...values));
  return {
    yOf: (value) => bottom - (Math.min(value, max) / max) * (bottom - top),
    ticks: [0, 0.25, 0.5, 0.75, 1].map((f) => f * max),
  };
}

function logScale(values: readonly number[], top: number, bottom: number): Scale {
  const low = Math.floor(Math.log10(Math.min(...values, 1)));
  const high = Math.max(low + 1, Math.ceil(Math.log10(Math.max(...values, 1))));
  const yOf = (value: number) => {
    const exponent = Math.min(high, Math.max(low, Math.log10(Math.max(value, 10 ** low))));
    return bottom - ((exponent - low) / (high - low)) * (bottom - top);
  };
  return { yOf, ticks: Array.from({ length: high - low + 1 }, (_, i) => 10 ** (low + i)) };
}

/** The series' names in a row under the plot, going on in a second row when one is full. */
function legend(panel: Panel): string {
  let x = panel.x + MARGIN.left;
  let y = panel.y + panel.height - 14;
  return panel.series
    .map((series) => {
      const width = 28 + series.name.length * 6;
      if (x + width > panel.x + panel.width && x > panel.x + MARGIN.left) {
        x = panel.x + MARGIN.left;
        y += 13;
      }
      const dash = series.dashed === true ? ' stroke-dasharray="4,2"' : '';
      const swatch = `<line x1="${r(x)}" x2="${r(x + 14)}" y1="${y - 3}" y2="${y - 3}" stroke="${series.color}" stroke-width="${series.dashed === true ? 2 : 8}"${dash}/>`;
      const item = `${swatch}${text(x + 18, y + 1, series.name, 10, 'start')}`;
      x += width;
      return item;
    })
    .join('');
}

/** The smallest 1, 2, 2.5 or 5 times a power of ten at or above `value`. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const nice = [1, 2, 2.5, 5, 10].find((f) => f * power >= value) ?? 10;
  return nice * power;
}

function formatTick(value: number): string {
  return value >= 100 ? value.toFixed(0) : Number(value.toPrecision(3)).toString();
}

function text(x: number, y: number, content: string, size: number, anchor: string, weight = 'normal', rotate = 0, fill = '#222'): string {
  const transform = rotate === 0 ? '' : ` transform="rotate(${rotate} ${r(x)} ${r(y)})"`;
  return `<text x="${r(x)}" y="${r(y)}" font-size="${size}" text-anchor="${anchor}" font-weight="${weight}" fill="${fill}" ${FONT}${transform}>${escapeXml(content)}</text>`;
}

function group(parts: readonly string[]): string {
  return `<g>\n${parts.join('\n')}\n</g>`;
}

function escapeXml(value: string): string {
  return value.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;').replace(/"/gu, '&quot;');
}

const r = (value: number): string => value.toFixed(1);
