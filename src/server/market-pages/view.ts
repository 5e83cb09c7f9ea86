import type { MarketPageId } from '../../lib/market-pages.ts';

/*
 * What a market page shows, as plain data: the loaders make it from the market data services and
 * the components under src/components/market only render it.
 */

/** Which way a value moved, for its colour (and, in words, for screen readers). */
export type Direction = 'up' | 'down' | 'flat';

/** A small line of recent closes, drawn server-side as inline SVG. */
export interface SparklineView {
  /** The SVG polyline's points, in the box's coordinates. */
  points: string;
  width: number;
  height: number;
  direction: Direction;
  /** What the line shows, in words (the SVG's accessible name). */
  label: string;
}

/** A table cell, formatted; `sort` values stay on the server. */
export type MarketCell =
  | { kind: 'symbol'; symbol: string; name: string; href: string }
  | { kind: 'text'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'change'; text: string; detail: string; direction: Direction }
  | { kind: 'sparkline'; sparkline: SparklineView | null };

/** How a column is sorted now, as `aria-sort` says it. */
export type AriaSort = 'ascending' | 'descending';

export interface MarketColumn {
  key: string;
  label: string;
  /** Right-aligned, tabular figures. */
  numeric: boolean;
  /** The address that sorts by this column (the other way round when it is the sort now); none: not sortable. */
  sortHref?: string;
  /** Set on the column the rows are sorted by. */
  sort?: AriaSort;
}

export interface MarketTableView {
  /** The table's caption: what the rows are and how they are sorted. */
  caption: string;
  columns: MarketColumn[];
  rows: MarketCell[][];
  /** Shown instead of an empty table. */
  empty: string;
}

/** A choice offered above the table (the most-searched page's 7 or 30 days). */
export interface MarketOption {
  label: string;
  href: string;
  current: boolean;
}

export interface MarketPageView {
  id: MarketPageId;
  /** The table's section heading. */
  heading: string;
  /** A sentence under the heading: what is counted, or why another list is shown. */
  note: string;
  /** When the figures are from; null when there are none. */
  asOf: { iso: string; text: string } | null;
  /** Demo rows are labelled as such wherever they are shown. */
  source: 'demo' | 'imported';
  options: MarketOption[];
  table: MarketTableView;
}
