/*
 * The site's theme as the chart library must be given it (resolved colours, not CSS variables), and
 * the theme changes a chart must follow: shared by the symbol pages' price chart and the API
 * viewer's series chart.
 */
import type { ColorType } from 'lightweight-charts';
import { useEffect, useState } from 'react';

/** The colours a chart is drawn in. */
export interface ThemeColors {
  background: string;
  text: string;
  grid: string;
  up: string;
  down: string;
  line: string;
  font: string;
}

/**
 * The site's colours as the chart must be given them. The tokens are light-dark() pairs that only
 * an element's computed colour resolves, so each is read through a hidden probe under <html>.
 */
export function themeColors(): ThemeColors {
  const root = document.documentElement;
  const probe = document.createElement('span');
  probe.hidden = true;
  root.append(probe);
  const read = (name: string): string => {
    probe.style.color = `var(${name})`;
    return getComputedStyle(probe).color;
  };
  const colors: ThemeColors = {
    background: read('--surface-1'),
    text: read('--text-2'),
    grid: read('--border'),
    up: read('--success'),
    down: read('--danger'),
    line: read('--brand'),
    font: getComputedStyle(document.body).fontFamily,
  };
  probe.remove();
  return colors;
}

/** An rgb() colour made translucent, for volume bars that must not hide the price. */
export function translucent(color: string, alpha: number): string {
  const parts = /^rgba?\((\d+)[,\s]+(\d+)[,\s]+(\d+)/.exec(color);
  return parts === null
    ? color
    : `rgba(${parts[1] ?? '0'}, ${parts[2] ?? '0'}, ${parts[3] ?? '0'}, ${alpha})`;
}

/**
 * A number that changes whenever the theme does (the switch, the <html> attribute, the system
 * setting), so a chart redraws in the new colours.
 */
export function useThemeTick(): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let frame = 0;
    const schedule = (): void => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        setTick((value) => value + 1);
      });
    };
    const observer = new MutationObserver(schedule);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', schedule);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      media.removeEventListener('change', schedule);
    };
  }, []);
  return tick;
}

/**
 * A chart's options in the theme's colours (background, text, grid, scale borders), with hours on
 * the time axis for intraday bars: what both charts apply when they draw or the theme changes.
 */
export function themedChartOptions(
  lib: { ColorType: typeof ColorType },
  colors: ThemeColors,
  intraday: boolean,
) {
  return {
    layout: {
      background: { type: lib.ColorType.Solid, color: colors.background },
      textColor: colors.text,
      fontFamily: colors.font,
    },
    grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
    rightPriceScale: { borderColor: colors.grid },
    timeScale: { borderColor: colors.grid, timeVisible: intraday, secondsVisible: false },
  };
}

/** Candles in the theme's up and down colours, without borders. */
export function candleColors(colors: ThemeColors) {
  return {
    upColor: colors.up,
    downColor: colors.down,
    wickUpColor: colors.up,
    wickDownColor: colors.down,
    borderVisible: false,
  };
}
