import { shiftIsoDays } from '../../lib/iso-date.ts';
import { formatPercent } from '../../lib/format.ts';
import { marketPage } from '../../lib/market-pages.ts';
import type { Db } from '../db/client.ts';
import type { SymbolDirectory } from '../services/market-data/directory.ts';
import { memoPerDatabase } from '../services/market-data/memo.ts';
import { latestStockDay, sectorPerformance } from '../services/market-data/movers.ts';
import { groupChangeHistory } from '../services/market-data/sector-performance.ts';
import { SPARKLINE_CLOSES, usCloseAsOf } from './columns.ts';
import type { MarketPageContext } from './movers.ts';
import { directionOf, sparkline } from './sparkline.ts';
import { buildTable, type ColumnDef } from './table.ts';
import type { MarketPageView } from './view.ts';

/** One sector on one exchange: the day's mean change and its recent sessions' mean changes. */
export interface SectorRow {
  sector: string;
  exchange: string;
  averageChange: number;
  /** The mean daily changes of the recent sessions, oldest first, in percent. */
  history: readonly number[];
}

/** Calendar days read for the trend: enough for SPARKLINE_CLOSES sessions with holidays between. */
const TREND_CALENDAR_DAYS = 45;

/**
 * The recent sessions' mean changes of every sector and exchange, read once per trading day and kept
 * for ten minutes: they change only when a session closes, and reading them takes every stock's
 * recent bars.
 */
const historyMemo = memoPerDatabase<Map<string, number[]>>({ max: 4, ttlMs: 10 * 60_000 });

async function sectorHistories(
  db: Db,
  directory: SymbolDirectory,
  date: string,
): Promise<Map<string, number[]>> {
  return historyMemo(db).load(`${date}|${String(directory.loadedAt)}`, async () => {
    const rows = await groupChangeHistory(
      db,
      directory,
      { from: shiftIsoDays(date, -TREND_CALENDAR_DAYS), to: date },
      { key: 'sector' },
    );
    const histories = new Map<string, number[]>();
    for (const row of rows) {
      const key = `${row.group}|${row.exchange}`;
      const list = histories.get(key) ?? [];
      list.push(row.averageChange);
      histories.set(key, list);
    }
    for (const [key, list] of histories) histories.set(key, list.slice(-SPARKLINE_CLOSES));
    return histories;
  });
}

/** A sector's daily mean changes compounded into a level starting at 100, so the line reads like a price. */
function compounded(changes: readonly number[]): number[] {
  const levels = [100];
  for (const change of changes) levels.push((levels.at(-1) ?? 100) * (1 + change / 100));
  return levels;
}

const SECTOR_COLUMNS: readonly ColumnDef<SectorRow>[] = [
  {
    key: 'sector',
    label: 'Sector',
    numeric: false,
    sortValue: (row) => row.sector,
    cell: (row) => ({ kind: 'text', text: row.sector }),
  },
  {
    key: 'exchange',
    label: 'Exchange',
    numeric: false,
    sortValue: (row) => row.exchange,
    cell: (row) => ({ kind: 'text', text: row.exchange }),
  },
  {
    key: 'change',
    label: 'Mean change',
    numeric: true,
    sortValue: (row) => row.averageChange,
    cell: (row) => ({
      kind: 'change',
      text: formatPercent(row.averageChange),
      detail: '',
      direction: directionOf(0, row.averageChange),
    }),
  },
  {
    key: 'trend',
    label: 'Last 30 sessions',
    numeric: true,
    cell: (row) => ({
      kind: 'sparkline',
      sparkline: sparkline(compounded(row.history), (first, last, count) => {
        const moved = directionOf(first, last);
        const total = ((last - first) / first) * 100;
        const words = moved === 'flat' ? 'unchanged' : `${moved} ${formatPercent(total)}`;
        return `${row.sector} on ${row.exchange}, mean daily changes of ${String(count - 1)} sessions compounded: ${words}`;
      }),
    }),
  },
];

/**
 * The sector performance page: the data API's sector-performance-snapshot of the latest US session
 * (the same service call), one row per sector and exchange, with each row's recent sessions as a
 * trend line.
 */
export async function loadSectorsPage(context: MarketPageContext): Promise<MarketPageView> {
  const info = marketPage('sectors');
  const day = await latestStockDay(context.db, context.now);
  const date = day.date;
  const [snapshot, histories] =
    date === null
      ? [[], new Map<string, number[]>()]
      : await Promise.all([
          sectorPerformance(context.db, context.directory, { date }),
          sectorHistories(context.db, context.directory, date),
        ]);
  const rows: SectorRow[] = snapshot.map((row) => ({
    sector: row.sector,
    exchange: row.exchange,
    averageChange: row.averageChange,
    history: histories.get(`${row.sector}|${row.exchange}`) ?? [],
  }));
  return {
    id: 'sectors',
    heading: 'Sectors by exchange',
    note: 'The mean (equal-weighted) change of each sector’s stocks from their previous close, per exchange.',
    asOf: usCloseAsOf(date, context.now),
    source: context.directory.source,
    options: [],
    table: buildTable({
      path: info.path,
      params: context.params,
      rows,
      columns: SECTOR_COLUMNS,
      defaultSort: { key: 'change', dir: 'desc' },
      subject: 'Sectors by exchange',
      empty: 'No stock traded in the latest session.',
    }),
  };
}
