import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unleveredDcfModel, leveredDcfModel, type DcfModel } from '../../src/lib/dcf.ts';
import { ALL_ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import { EXAMPLES_AS_OF, openExamples, type ExamplesSource } from '../../src/server/docs/examples.ts';
import {
  defaultDcfAssumptions,
  type PeriodStatements,
} from '../../src/server/services/market-data/formulas.ts';

/*
 * The Formulas pages end with a worked example on the demo data set. Every figure of those examples
 * that is named by a field (a table row whose first cell starts with `code`) is recomputed here
 * through the data API over the same demo data the reference's example answers come from: the inputs
 * from the statements, the results from the computed endpoints. A page whose figures drift from what
 * the API answers, or a named figure this test does not know, fails.
 */

type Row = Record<string, unknown>;
type Figures = Record<string, number>;

const DOCS = path.resolve('src/content/docs');

/** A page's Markdown after its front matter. */
function page(id: string): string {
  return readFileSync(path.join(DOCS, `${id}.md`), 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
}

/** The page's "Worked example" section, up to the next second-level heading. */
function workedExample(markdown: string): string {
  const start = markdown.indexOf('## Worked example');
  if (start < 0) throw new Error('the page has no "Worked example" section');
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

interface Figure {
  /** The first cell without its backticks, e.g. "income.revenue (FY 2024)". */
  name: string;
  /** The last cell as written, e.g. "−10,762,400,711" or "9.588 %". */
  text: string;
}

/** The table rows of a worked example whose first cell names a field in code. */
function namedFigures(section: string): Figure[] {
  return section
    .split('\n')
    .filter((line) => /^\|\s*`/.test(line))
    .map((line) => {
      const cells = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      return { name: (cells[0] ?? '').replaceAll('`', ''), text: cells.at(-1) ?? '' };
    });
}

/** A figure as a number, with the largest difference its rounding allows. */
function parseFigure(text: string): { value: number; tolerance: number } {
  const percent = text.endsWith('%');
  const plain = text.replace(/%$/, '').replaceAll(',', '').replaceAll('−', '-').trim();
  if (!/^-?\d+(\.\d+)?$/.test(plain)) throw new Error(`"${text}" is not a figure`);
  const decimals = plain.split('.')[1]?.length ?? 0;
  const scale = percent ? 100 : 1;
  return { value: Number(plain) / scale, tolerance: (0.5 * 10 ** -decimals) / scale + 1e-9 };
}

let source: ExamplesSource;

async function answer(endpointPath: string, query: string): Promise<Row[]> {
  const endpoint = ALL_ENDPOINTS.find((candidate) => candidate.path === endpointPath);
  if (endpoint === undefined) throw new Error(`no endpoint ${endpointPath}`);
  const outcome = await source.call(endpoint, query);
  if (!outcome.ok) throw new Error(`${endpointPath}?${query}: ${String(outcome.status)} ${outcome.message}`);
  return JSON.parse(outcome.body) as Row[];
}

function first(rows: readonly Row[]): Row {
  const row = rows[0];
  if (row === undefined) throw new Error('an empty answer');
  return row;
}

function num(row: Row | undefined, field: string): number {
  const value = row?.[field];
  if (typeof value !== 'number') throw new Error(`no number ${field} in ${JSON.stringify(row)}`);
  return value;
}

/** `prefix.field` for every numeric field of a row, e.g. income.revenue. */
function prefixed(prefix: string, row: Row | undefined): Figures {
  return Object.fromEntries(
    Object.entries(row ?? {}).flatMap(([field, value]) =>
      typeof value === 'number' ? [[`${prefix}.${field}`, value]] : [],
    ),
  );
}

/** Every numeric field of a row under its own name. */
function numeric(row: Row): Figures {
  return Object.fromEntries(
    Object.entries(row).filter((entry): entry is [string, number] => typeof entry[1] === 'number'),
  );
}

interface Statements {
  income: Row[];
  balance: Row[];
  cashFlow: Row[];
}

async function statements(symbol: string, limit: number): Promise<Statements> {
  const query = `symbol=${symbol}&period=annual&limit=${String(limit)}`;
  const [income, balance, cashFlow] = await Promise.all([
    answer('income-statement', query),
    answer('balance-sheet-statement', query),
    answer('cash-flow-statement', query),
  ]);
  return { income, balance, cashFlow };
}

/** One fiscal year's fields of the three statements, named `income.x`, `balance.x`, `cashFlow.x`. */
function oneYear(s: Statements, index: number): Figures {
  return {
    ...prefixed('income', s.income[index]),
    ...prefixed('balance', s.balance[index]),
    ...prefixed('cashFlow', s.cashFlow[index]),
  };
}

/** The latest year's fields (`income.x`) and the year before's (`previous.income.x`). */
function twoYears(s: Statements): Figures {
  return { ...oneYear(s, 0), ...prefixed('previous', oneYear(s, 1)) };
}

/** The DCF model of the symbol built from what the API answers, as the formula page derives it. */
async function dcfModels(s: Statements): Promise<{ unlevered: DcfModel; levered: DcfModel }> {
  const [profile, curve] = await Promise.all([
    answer('profile', 'symbol=AAPL').then(first),
    answer('treasury-rates', `from=${EXAMPLES_AS_OF}&to=${EXAMPLES_AS_OF}`).then(first),
  ]);
  const annual: PeriodStatements[] = s.income.map((income, index) => ({
    income,
    balance: s.balance[index],
    cashFlow: s.cashFlow[index],
  })) as unknown as PeriodStatements[];
  const price = num(profile, 'price');
  const inputs = {
    annual,
    price,
    date: EXAMPLES_AS_OF,
    sharesOutstanding: num(profile, 'marketCap') / price,
    riskFreeRate: num(curve, 'year10') / 100,
    beta: num(profile, 'beta'),
  };
  return {
    unlevered: unleveredDcfModel(defaultDcfAssumptions(inputs, 'unlevered')),
    levered: leveredDcfModel(defaultDcfAssumptions(inputs, 'levered')),
  };
}

/** What each page's named figures must be, from the data API. */
const EXPECTED: Record<string, () => Promise<Figures>> = {
  formula: async () => {
    const s = await statements('AAPL', 2);
    const query = 'symbol=AAPL&period=annual&limit=1';
    const [ratios, metrics, enterprise] = await Promise.all([
      answer('ratios', query).then(first),
      answer('key-metrics', query).then(first),
      answer('enterprise-values', query).then(first),
    ]);
    return {
      ...twoYears(s),
      'price (close of 2026-09-30)': num(enterprise, 'stockPrice'),
      grossProfitMargin: num(ratios, 'grossProfitMargin'),
      currentRatio: num(ratios, 'currentRatio'),
      priceToEarningsRatio: num(ratios, 'priceToEarningsRatio'),
      priceToBookRatio: num(ratios, 'priceToBookRatio'),
      marketCap: num(metrics, 'marketCap'),
      returnOnEquity: num(metrics, 'returnOnEquity'),
      enterpriseValue: num(metrics, 'enterpriseValue'),
      evToEBITDA: num(metrics, 'evToEBITDA'),
    };
  },
  'parsing-statements': async () => twoYears(await statements('AAPL', 2)),
  'dcf-formula': async () => {
    const s = await statements('AAPL', 6);
    const [unleveredRow, leveredRow] = await Promise.all([
      answer('discounted-cash-flow', 'symbol=AAPL').then(first),
      answer('levered-discounted-cash-flow', 'symbol=AAPL').then(first),
    ]);
    const { unlevered, levered } = await dcfModels(s);
    // The model the page walks through is the one the endpoints serve.
    expect(unlevered.equityValuePerShare).toBeCloseTo(num(unleveredRow, 'dcf'), 9);
    expect(levered.equityValuePerShare).toBeCloseTo(num(leveredRow, 'dcf'), 9);
    const year = (index: number, fy: string): Figures =>
      Object.fromEntries(
        Object.entries(oneYear(s, index)).map(([name, value]) => [`${name} (FY ${fy})`, value]),
      );
    const a = unlevered.assumptions;
    return {
      ...year(0, '2026'),
      ...year(1, '2025'),
      ...year(2, '2024'),
      'stockPrice (close of 2026-11-20)': a.stockPrice,
      sharesOutstanding: a.sharesOutstanding,
      'riskFreeRate (10-year yield on 2026-11-20)': a.riskFreeRate,
      beta: a.beta,
      costOfEquity: unlevered.costOfEquity,
      wacc: unlevered.wacc,
      'dcf (discounted-cash-flow)': num(unleveredRow, 'dcf'),
      'dcf (levered-discounted-cash-flow)': num(leveredRow, 'dcf'),
    };
  },
  'piotroski-score': async () => {
    const scores = first(await answer('financial-scores', 'symbol=AAPL'));
    return { ...twoYears(await statements('AAPL', 2)), ...numeric(scores) };
  },
  'owner-earnings': async () => {
    const row = first(await answer('owner-earnings', 'symbol=AAPL&limit=1'));
    return { ...twoYears(await statements('AAPL', 2)), ...numeric(row) };
  },
  'recommendations-formula': async () => numeric(first(await answer('grades-consensus', 'symbol=MSFT'))),
};

beforeAll(async () => {
  source = await openExamples();
}, 120_000);

afterAll(async () => {
  await source.close();
});

describe('the worked examples of the Formulas pages', () => {
  it.each(Object.keys(EXPECTED))(
    'the figures of %s are what the data API answers over the demo data',
    async (id) => {
      const figures = namedFigures(workedExample(page(id)));
      expect(figures.length, 'the worked example names no figure').toBeGreaterThan(4);
      const compute = EXPECTED[id];
      if (compute === undefined) throw new Error(`no expected figures for ${id}`);
      const expected = await compute();
      for (const figure of figures) {
        const want = expected[figure.name];
        expect(want, `"${figure.name}" is not a figure the API answers`).toBeTypeOf('number');
        const { value, tolerance } = parseFigure(figure.text);
        expect(
          Math.abs(value - (want ?? Number.NaN)),
          `${figure.name}: the page says ${figure.text}, the API ${String(want)}`,
        ).toBeLessThanOrEqual(tolerance);
      }
    },
  );

  it('the recommendations page shows the consensus answer exactly as the API gives it', async () => {
    const markdown = page('recommendations-formula');
    const shown = /```json\n([\s\S]*?)\n```/.exec(markdown)?.[1];
    expect(shown).toBeDefined();
    expect(JSON.parse(shown ?? 'null')).toEqual(await answer('grades-consensus', 'symbol=MSFT'));
  });

  it('a figure whose rounding is off by one unit in its last digit is caught', () => {
    const { value, tolerance } = parseFigure('0.4564');
    expect(Math.abs(value - 0.4563093392794108)).toBeGreaterThan(tolerance);
    expect(parseFigure('9.588 %').value).toBeCloseTo(0.09588, 9);
    expect(parseFigure('−10,762,400,711').value).toBe(-10_762_400_711);
  });
});
