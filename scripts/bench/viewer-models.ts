import { performance } from 'node:perf_hooks';
import {
  childNodes,
  openByDefault,
  previewText,
  rootNode,
  sizeText,
  visibleRows,
  type JsonNode,
} from '../../src/lib/json-tree.ts';
import {
  cellText,
  sortRows,
  TABLE_ROW_LIMIT,
  tableCsv,
  tableFromAnswer,
  type ResultTable,
} from '../../src/lib/result-table.ts';
import { fixed, formatTable, median } from './stats.ts';

/**
 * The API viewer's browser-side work on a large answer (about 6 MB, 10,000 rows of an income
 * statement's shape): what the JSON tree computes for its first view and for opening a range, and what the table
 * computes for its model, a sort, the 500 rows it shows and the CSV download. It runs the same modules
 * the browser runs, in Node (the same JavaScript engine as Chromium), without a site; rendering itself
 * is not included. Each step runs several times; the verdict is on the median against its target: a
 * frame (16 ms) for the tree, which answers every key press, and 100 ms (a response that still feels
 * immediate) for the table's steps.
 */

/** Rows of the large answer. */
export const VIEWER_ROWS = 10_000;

export interface ViewerStep {
  step: string;
  medianMs: number;
  maxMs: number;
  /** The most the median may take; Infinity for steps reported without a target (parsing). */
  targetMs: number;
}

export interface ViewerSpeed {
  bytes: number;
  rows: number;
  steps: ViewerStep[];
}

/** One income statement line per row, 10,000 of them: about 6 MB of JSON, as the API answers it. */
export function largeAnswer(rows: number = VIEWER_ROWS): Record<string, unknown>[] {
  return Array.from({ length: rows }, (_, index) => {
    const year = 2026 - Math.floor(index / 4);
    const revenue = 391_035_000_000 - index * 1_234_567;
    return {
      date: `${String(year)}-${['03', '06', '09', '12'][index % 4] ?? '12'}-30`,
      symbol: `S${String(index % 500).padStart(3, '0')}`,
      reportedCurrency: 'USD',
      cik: String(320193 + index).padStart(10, '0'),
      fillingDate: `${String(year)}-10-31`,
      calendarYear: String(year),
      period: `Q${String((index % 4) + 1)}`,
      revenue,
      costOfRevenue: Math.round(revenue * 0.537),
      grossProfit: Math.round(revenue * 0.463),
      grossProfitRatio: 0.4620634981523393 + index / 1e9,
      researchAndDevelopmentExpenses: 31_370_000_000 + index,
      operatingExpenses: 57_467_000_000,
      operatingIncome: 123_216_000_000 - index,
      interestExpense: index % 9 === 0 ? null : 0,
      incomeTaxExpense: 29_749_000_000,
      netIncome: 93_736_000_000 - index * 3,
      netIncomeRatio: 0.23971255769943867,
      eps: 6.11 + index / 1000,
      epsdiluted: 6.08 + index / 1000,
      weightedAverageShsOut: 15_343_783_000,
      link: `https://filings.example/data/${String(index)}-index.htm`,
    };
  });
}

/** Times `run` `rounds` times (after one warm-up run) and returns the median and the slowest. */
function time(step: string, targetMs: number, rounds: number, run: () => unknown): ViewerStep {
  run();
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return { step, medianMs: median(samples), maxMs: Math.max(...samples), targetMs };
}

/** What a tree shows of these nodes: their previews and sizes, as the rows render them. */
function lineTexts(nodes: readonly JsonNode[]): number {
  let length = 0;
  for (const node of nodes) {
    if (node.type === 'value') length += previewText(node.value).length + sizeText(node.value).length;
  }
  return length;
}

/** Runs every step on a large answer; `rounds` times each. */
export function measureViewerSpeed(rounds = 7): ViewerSpeed {
  const text = JSON.stringify(largeAnswer());
  const answer = JSON.parse(text) as unknown;
  const root = rootNode(answer);
  const firstRange = childNodes(root)[0];
  const firstRow = firstRange === undefined ? undefined : childNodes(firstRange)[0];
  if (firstRange === undefined || firstRow === undefined) throw new Error('the large answer has no rows');
  const fields = childNodes(firstRow).length;
  const table = tableFromAnswer(answer);
  if (table.kind !== 'table') throw new Error(`the large answer makes no table: ${table.reason}`);
  const sorted = sortRows(table.rows, { key: 'revenue', direction: 'ascending' });

  const steps: ViewerStep[] = [
    time('JSON.parse of the answer (for scale)', Infinity, rounds, () => JSON.parse(text)),
    time('tree: first view (root open, 100 ranges)', 16, rounds, () =>
      lineTexts(visibleRows(rootNode(answer), (node) => openByDefault(node, 1)).map((row) => row.node)),
    ),
    time('tree: open a range (100 rows with previews)', 16, rounds, () => lineTexts(childNodes(firstRange))),
    time(`tree: open a row (${String(fields)} fields)`, 16, rounds, () => lineTexts(childNodes(firstRow))),
    time('table: model (rows, column union)', 100, rounds, () => tableFromAnswer(answer)),
    time('table: sort by a number column', 100, rounds, () =>
      sortRows(table.rows, { key: 'revenue', direction: 'descending' }),
    ),
    time('table: sort by a text column (dates)', 100, rounds, () =>
      sortRows(table.rows, { key: 'date', direction: 'ascending' }),
    ),
    time(`table: cell texts of the ${String(TABLE_ROW_LIMIT)} rows shown`, 100, rounds, () =>
      shownCells(table, sorted),
    ),
    time('table: CSV of every row', Infinity, rounds, () => tableCsv(table.columns, sorted)),
  ];
  return { bytes: Buffer.byteLength(text), rows: VIEWER_ROWS, steps };
}

function shownCells(table: ResultTable, rows: ResultTable['rows']): number {
  let length = 0;
  for (const row of rows.slice(0, TABLE_ROW_LIMIT)) {
    for (const column of table.columns) length += cellText(row[column.key], column).length;
  }
  return length;
}

/** The report's table: each step's median and slowest run, with the verdict where it has a target. */
export function viewerSpeedTable(speed: ViewerSpeed): string {
  return formatTable([
    ['step', 'median ms', 'max ms', 'target ms', 'verdict'],
    ...speed.steps.map((step) => [
      step.step,
      fixed(step.medianMs, 1),
      fixed(step.maxMs, 1),
      Number.isFinite(step.targetMs) ? String(step.targetMs) : '-',
      Number.isFinite(step.targetMs) ? (step.medianMs <= step.targetMs ? 'PASS' : 'MISS') : '',
    ]),
  ]);
}

/** The section's heading line, with the answer's size. */
export function viewerSpeedHeading(speed: ViewerSpeed): string {
  const megabytes = (speed.bytes / 1024 / 1024).toFixed(1);
  return `API viewer models: a ${megabytes} MB answer of ${speed.rows.toLocaleString('en-US')} rows, in Node ${process.version} (the browser's modules, without rendering)`;
}

if (import.meta.main) {
  const speed = measureViewerSpeed();
  console.log(`\n${viewerSpeedHeading(speed)}\n`);
  console.log(viewerSpeedTable(speed));
}
