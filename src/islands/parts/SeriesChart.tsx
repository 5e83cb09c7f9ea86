import type { IChartApi } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import type { SeriesPoint } from '../../lib/playground.ts';
import { candleColors, themeColors, themedChartOptions, useThemeTick } from './chart-theme.ts';

interface Props {
  points: readonly SeriesPoint[];
  /** Whether the points are intraday bars (the time axis then shows hours). */
  intraday: boolean;
  /** The chart's text alternative. */
  label: string;
}

/**
 * A price series of an answer as candles when the rows carry open, high and low, else as a line:
 * the chart library the symbol pages use, loaded only when the chart view is opened.
 */
export function SeriesChart({ points, intraday, label }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const [broken, setBroken] = useState(false);
  const themeTick = useThemeTick();

  useEffect(() => {
    let disposed = false;
    let chart: IChartApi | undefined;
    import('lightweight-charts')
      .then((lib) => {
        const element = container.current;
        if (disposed || element === null) return;
        const colors = themeColors();
        chart = lib.createChart(element, {
          autoSize: true,
          localization: { locale: 'en-US' },
          ...themedChartOptions(lib, colors, intraday),
        });
        const candles = points.every((point) => point.open !== undefined);
        if (candles) {
          chart.addSeries(lib.CandlestickSeries, candleColors(colors)).setData(
            points.map((point) => ({
              time: point.time as never,
              open: point.open ?? point.value,
              high: point.high ?? point.value,
              low: point.low ?? point.value,
              close: point.value,
            })),
          );
        } else {
          chart
            .addSeries(lib.LineSeries, { color: colors.line, lineWidth: 2 })
            .setData(points.map((point) => ({ time: point.time as never, value: point.value })));
        }
        chart.timeScale().fitContent();
      })
      .catch(() => {
        if (!disposed) setBroken(true);
      });
    return () => {
      disposed = true;
      chart?.remove();
    };
  }, [points, intraday, themeTick]);

  if (broken)
    return (
      <p className="playground-note" role="status">
        The chart could not be loaded: reload the page to try again. The JSON and table views show the same
        rows.
      </p>
    );
  return <div className="series-chart" ref={container} role="img" aria-label={label} />;
}
