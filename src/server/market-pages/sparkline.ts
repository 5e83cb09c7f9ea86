import type { Direction, SparklineView } from './view.ts';

/** The box the line is drawn in: small enough for a table row, wide enough to read a month. */
export const SPARKLINE_WIDTH = 96;
export const SPARKLINE_HEIGHT = 28;
/** Room left above and below so the stroke is never cut at the edges. */
const PADDING = 2;

/** Which way a series went from its first to its last value. */
export function directionOf(first: number, last: number): Direction {
  if (last > first) return 'up';
  if (last < first) return 'down';
  return 'flat';
}

/**
 * A sparkline of values, oldest first: the points of a polyline scaled to the box (highest value at
 * the top) and a sentence saying what it shows. Fewer than two finite values make no line.
 */
export function sparkline(
  values: readonly number[],
  describe: (first: number, last: number, count: number) => string,
): SparklineView | null {
  const series = values.filter((value) => Number.isFinite(value));
  const first = series[0];
  const last = series.at(-1);
  if (series.length < 2 || first === undefined || last === undefined) return null;
  const low = Math.min(...series);
  const high = Math.max(...series);
  const span = high - low;
  const stepX = (SPARKLINE_WIDTH - PADDING * 2) / (series.length - 1);
  const innerHeight = SPARKLINE_HEIGHT - PADDING * 2;
  const points = series
    .map((value, index) => {
      const x = PADDING + index * stepX;
      // A flat series is drawn across the middle rather than along an edge.
      const y = span === 0 ? SPARKLINE_HEIGHT / 2 : PADDING + ((high - value) / span) * innerHeight;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
  return {
    points,
    width: SPARKLINE_WIDTH,
    height: SPARKLINE_HEIGHT,
    direction: directionOf(first, last),
    label: describe(first, last, series.length),
  };
}
