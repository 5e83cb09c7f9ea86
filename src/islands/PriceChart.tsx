import { useStore } from '@nanostores/react';
import type {
  CandlestickData,
  HistogramData,
  IChartApi,
  ISeriesApi,
  LineData,
  UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { formatNumber, formatPrice } from '../lib/format.ts';
import {
  CHART_RANGES,
  INTRADAY_RANGES,
  NO_INTRADAY_TITLE,
  RANGE_NAMES,
  chartPriceDigits,
  chartSummary,
  hasVolume,
  type ChartAnswer,
} from '../lib/price-chart.ts';
import {
  $priceChart,
  candleData,
  initialPriceChart,
  isIntraday,
  lineData,
  retryRange,
  selectRange,
  setChartType,
  startPriceChart,
  volumeData,
  type ChartRangeTiers,
  type ChartType,
} from '../lib/stores/price-chart.ts';
import { $darkMode } from '../lib/stores/theme.ts';
import type { SymbolKind } from '../lib/symbol-routes.ts';
import {
  candleColors,
  themeColors,
  themedChartOptions,
  translucent,
  useThemeTick,
} from './parts/chart-theme.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import './PriceChart.css';

interface Props {
  /** The default range, rendered by the server so the chart draws without a request. */
  initial: ChartAnswer;
  kind: SymbolKind;
  /** Whether the symbol has intraday prices (the 1D and 5D ranges). */
  intraday: boolean;
  /** The data tier each range needs. */
  tiers: ChartRangeTiers;
  /** The render time (ISO), so relative dates in the summary match the server's text. */
  now: string;
}

type ChartLibrary = typeof import('lightweight-charts');

/** The drawn chart and its series; the price series is replaced when the chart type changes. */
interface ChartHandle {
  lib: ChartLibrary;
  chart: IChartApi;
  price: ISeriesApi<'Candlestick'> | ISeriesApi<'Line'> | null;
  priceType: ChartType | null;
  volume: ISeriesApi<'Histogram'> | null;
  /** The answer last drawn: a new one is fitted to the width, a redraw of the same keeps the zoom. */
  drawn: ChartAnswer | null;
}

const CHART_TYPES: readonly { type: ChartType; label: string }[] = [
  { type: 'candles', label: 'Candles' },
  { type: 'line', label: 'Line' },
];

/** Draws (or redraws) one answer: theme colours, price series of the chosen type, volume when traded. */
function draw(handle: ChartHandle, answer: ChartAnswer, chartType: ChartType, kind: SymbolKind): void {
  const { lib, chart } = handle;
  const colors = themeColors();
  const digits = chartPriceDigits(kind, answer.bars.at(-1)?.close);
  chart.applyOptions(themedChartOptions(lib, colors, isIntraday(answer.interval)));
  const priceFormat = {
    type: 'custom' as const,
    minMove: 10 ** -digits,
    formatter: (price: number) => formatPrice(price, undefined, digits),
  };
  if (handle.priceType !== chartType && handle.price !== null) {
    chart.removeSeries(handle.price);
    handle.price = null;
  }
  if (chartType === 'candles') {
    const options = { ...candleColors(colors), priceFormat };
    let series = handle.price as ISeriesApi<'Candlestick'> | null;
    if (series === null) series = chart.addSeries(lib.CandlestickSeries, options);
    else series.applyOptions(options);
    series.setData(candleData(answer.bars) as CandlestickData<UTCTimestamp>[]);
    handle.price = series;
  } else {
    const options = { color: colors.line, lineWidth: 2 as const, priceFormat };
    let series = handle.price as ISeriesApi<'Line'> | null;
    if (series === null) series = chart.addSeries(lib.LineSeries, options);
    else series.applyOptions(options);
    series.setData(lineData(answer.bars) as LineData<UTCTimestamp>[]);
    handle.price = series;
  }
  handle.priceType = chartType;
  handle.price.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.26 } });

  if (hasVolume(answer.bars)) {
    handle.volume ??= chart.addSeries(lib.HistogramSeries, {
      priceScaleId: 'volume',
      lastValueVisible: false,
      priceLineVisible: false,
      priceFormat: { type: 'custom', minMove: 1, formatter: (volume: number) => formatNumber(volume) },
    });
    handle.volume.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    handle.volume.setData(
      volumeData(
        answer.bars,
        translucent(colors.up, 0.45),
        translucent(colors.down, 0.45),
      ) as HistogramData<UTCTimestamp>[],
    );
  } else if (handle.volume !== null) {
    chart.removeSeries(handle.volume);
    handle.volume = null;
  }
  if (handle.drawn !== answer) chart.timeScale().fitContent();
  handle.drawn = answer;
}

/**
 * The price chart of a symbol page: range and chart-type toggles over a canvas chart with volume.
 * The chart library is loaded only here, once the island is visible; the page's data table is the
 * text alternative, and the canvas carries a summary of the range shown.
 */
export function PriceChart({ initial, kind, intraday, tiers, now }: Props): ReactNode {
  const stored = useStore($priceChart);
  const dark = useStore($darkMode);
  const hydrated = useHydrated();
  // Hydrate with the server's view; a symbol seen earlier on this visit then gets back its range and type.
  const state = hydrated && stored.symbol === initial.symbol ? stored : initialPriceChart(initial, tiers);
  const { shown, chartType, loading, error } = state;
  const container = useRef<HTMLDivElement>(null);
  const handle = useRef<ChartHandle | null>(null);
  const [ready, setReady] = useState(false);
  const [broken, setBroken] = useState(false);
  const themeTick = useThemeTick();
  const renderedAt = useMemo(() => new Date(now), [now]);

  useEffect(() => {
    startPriceChart(initial, tiers);
  }, [initial, tiers]);

  // The library arrives with the island's first effect, never with the page.
  useEffect(() => {
    let disposed = false;
    import('lightweight-charts')
      .then((lib) => {
        const element = container.current;
        if (disposed || element === null) return;
        const chart = lib.createChart(element, {
          autoSize: true,
          localization: { locale: 'en-US' },
          rightPriceScale: { borderVisible: true },
          timeScale: { borderVisible: true, fixLeftEdge: true, fixRightEdge: true },
          crosshair: { mode: lib.CrosshairMode.Normal },
        });
        handle.current = { lib, chart, price: null, priceType: null, volume: null, drawn: null };
        setReady(true);
      })
      .catch(() => {
        if (!disposed) setBroken(true);
      });
    return () => {
      disposed = true;
      handle.current?.chart.remove();
      handle.current = null;
    };
  }, []);

  useEffect(() => {
    if (!ready || handle.current === null) return;
    const frame = requestAnimationFrame(() => {
      if (handle.current !== null) draw(handle.current, shown, chartType, kind);
    });
    return () => {
      cancelAnimationFrame(frame);
    };
  }, [ready, shown, chartType, kind, dark, themeTick]);

  const summary = chartSummary(shown, kind, renderedAt);

  return (
    <div className="price-chart">
      <div className="price-chart-controls">
        <div className="price-chart-group" role="group" aria-label="Range">
          {CHART_RANGES.map((range) => {
            const unavailable = !intraday && INTRADAY_RANGES.has(range);
            return (
              <button
                key={range}
                type="button"
                aria-pressed={shown.range === range}
                aria-busy={loading === range ? true : undefined}
                disabled={unavailable}
                title={unavailable ? NO_INTRADAY_TITLE : RANGE_NAMES[range]}
                onClick={() => void selectRange(range)}
              >
                {range}
              </button>
            );
          })}
        </div>
        <div className="price-chart-group" role="group" aria-label="Chart type">
          {CHART_TYPES.map((option) => (
            <button
              key={option.type}
              type="button"
              aria-pressed={chartType === option.type}
              onClick={() => {
                setChartType(option.type);
              }}
            >
              {option.label}
            </button>
          ))}
        </div>
      </div>
      <p className="visually-hidden" role="status">
        {loading === null ? '' : `Loading the ${RANGE_NAMES[loading]} chart…`}
      </p>
      {error === '' ? null : (
        <div className="price-chart-error" role="alert">
          <p>{error}</p>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void retryRange()}>
            Try again
          </button>
        </div>
      )}
      {broken ? (
        <p className="price-chart-note">
          The chart could not be drawn; the data table below lists the prices.
        </p>
      ) : null}
      {shown.bars.length === 0 ? (
        <p className="price-chart-note">No prices are available for this range.</p>
      ) : null}
      <div
        ref={container}
        className="price-chart-canvas"
        role="img"
        aria-label={summary}
        aria-busy={loading === null ? undefined : true}
        data-range={shown.range}
        data-interval={shown.interval}
      />
    </div>
  );
}
