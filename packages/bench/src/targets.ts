/** One target of the run: what was measured, the bound it must meet, and whether it did. */
export interface Target {
  readonly name: string;
  /** The measured figure (a ratio, or ms, MB, a count as the name says); null when that part did not run. */
  readonly measured: number | null;
  /** The bound as text, such as ">= 0.85"; null for a figure that is only reported. */
  readonly threshold: string | null;
  /** Computed from `measured` and the bound; null when not run or only reported. */
  readonly met: boolean | null;
}

/** How a measured figure is judged: a bound, or none (a row that only reports). */
export type Bound =
  | { readonly atLeast: number }
  | { readonly atMost: number }
  | { readonly below: number }
  | 'report';

/** A target from a figure that may be missing; `met` follows from the figure and the bound alone. */
export function target(name: string, measured: number | undefined, bound: Bound): Target {
  const value = measured === undefined || !Number.isFinite(measured) ? null : measured;
  if (bound === 'report') return { name, measured: value, threshold: null, met: null };
  const [threshold, meets] =
    'atLeast' in bound
      ? [`>= ${bound.atLeast}`, (v: number) => v >= bound.atLeast]
      : 'atMost' in bound
        ? [`<= ${bound.atMost}`, (v: number) => v <= bound.atMost]
        : [`< ${bound.below}`, (v: number) => v < bound.below];
  return { name, measured: value, threshold, met: value === null ? null : meets(value) };
}

/** `top / bottom`, undefined when either is missing or the bottom is zero. */
export function quotient(top: number | undefined, bottom: number | undefined): number | undefined {
  return top === undefined || bottom === undefined || bottom === 0 ? undefined : top / bottom;
}

/** The figure as the tables print it: ratios to two places, larger numbers to one. */
export function formatMeasured(value: number | null): string {
  if (value === null) return 'not run';
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** yes, NO, `report` or `not run`, for the tables. */
export function formatMet(t: Target): string {
  if (t.threshold === null) return 'report';
  if (t.met === null) return 'not run';
  return t.met ? 'yes' : 'NO';
}
