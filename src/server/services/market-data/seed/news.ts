import { fromDay } from './calendar.ts';
import type { ExecutiveRow } from './company.ts';
import type { PeriodStatements } from './fundamentals.ts';
import { RESEARCH_FIRMS } from './names.ts';
import type { SymbolSeries } from './prices.ts';
import { createRandom, randomUuid, type Random } from './random.ts';
import type { SecuritySpec } from './universe.ts';

/**
 * Demo news articles written from the generated price moves and results, and demo earnings-call transcripts
 * written from a quarter's numbers. Every text says it is demo content; links point at example.com.
 */

export interface NewsRow {
  id: string;
  category: 'stock' | 'crypto' | 'forex' | 'general';
  symbol: string | null;
  publishedAt: string;
  publisher: string;
  title: string;
  image: string;
  site: string;
  text: string;
  url: string;
}

const PUBLISHER = 'Demo Newswire';
const SITE = 'example.com';
const NOTICE = 'This article is demo content generated from synthetic market data.';

const UP_REASONS = [
  'investors cheer stronger demand',
  'analysts lift their price targets',
  'the company raises its outlook',
  'a new product line draws attention',
  'short sellers cover positions',
  'sector peers rally',
  'a large contract win is announced',
];
const DOWN_REASONS = [
  'investors weigh softer guidance',
  'an analyst downgrade weighs on sentiment',
  'margin concerns resurface',
  'sector peers retreat',
  'a regulatory review is announced',
  'a key executive departs',
  'demand worries grow',
];

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
}

function timestamp(day: number, random: Random, fromHour: number, toHour: number): string {
  const hour = random.int(fromHour, toHour);
  const minute = random.int(0, 59);
  const second = random.int(0, 59);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${fromDay(day)} ${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

function article(
  random: Random,
  category: NewsRow['category'],
  symbol: string | null,
  day: number,
  title: string,
  body: string,
  hours: readonly [number, number],
): NewsRow {
  const id = randomUuid(random);
  const date = fromDay(day);
  return {
    id,
    category,
    symbol,
    publishedAt: timestamp(day, random, hours[0], hours[1]),
    publisher: PUBLISHER,
    title,
    image: '',
    site: SITE,
    text: `${body} ${NOTICE}`,
    url: `https://example.com/demo-news/${category}/${date.replaceAll('-', '/')}/${slugify(title)}-${id.slice(0, 8)}`,
  };
}

function formatPrice(value: number, currency: string): string {
  const digits = value >= 100 ? 2 : value >= 1 ? 2 : 6;
  const amount = value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return currency === 'USD' ? `$${amount}` : `${amount} ${currency}`;
}

/**
 * Articles about the symbol's large moves over `windowDays` before the "as of" date. Whether a day gets an
 * article depends only on that day's move, so articles never change when the data set is regenerated later.
 */
export function moveArticles(
  seed: number,
  series: SymbolSeries,
  asOfDay: number,
  windowDays: number,
  threshold: number,
  maxArticles: number,
): NewsRow[] {
  const spec = series.spec;
  const category: NewsRow['category'] =
    spec.assetType === 'crypto'
      ? 'crypto'
      : spec.assetType === 'forex'
        ? 'forex'
        : spec.assetType === 'index'
          ? 'general'
          : 'stock';
  const rows: NewsRow[] = [];
  for (let i = series.asOfIndex; i >= 1 && rows.length < maxArticles; i -= 1) {
    const day = series.days[i] ?? 0;
    if (day < asOfDay - windowDays) break;
    const now = series.adjClose[i] ?? 0;
    const before = series.adjClose[i - 1] ?? 0;
    if (before <= 0) continue;
    const change = now / before - 1;
    if (Math.abs(Math.log(now / before)) < threshold * series.dailyVol) continue;
    const random = createRandom(seed, 'news', spec.symbol, day);
    const pct = `${Math.abs(change * 100).toFixed(1)}%`;
    const close = series.close[i] ?? 0;
    const up = change > 0;
    const volume = series.volume[i] ?? 0;
    let title: string;
    let body: string;
    if (category === 'stock') {
      const reason = random.pick(up ? UP_REASONS : DOWN_REASONS);
      title = `${spec.name} (${spec.symbol}) shares ${up ? random.pick(['jump', 'climb', 'rally', 'surge']) : random.pick(['slide', 'fall', 'drop', 'tumble'])} ${pct} as ${reason}`;
      body = `Shares of ${spec.name} ${up ? 'rose' : 'fell'} ${pct} to close at ${formatPrice(close, spec.currency)} on ${fromDay(day)}, with about ${Math.round(volume).toLocaleString('en-US')} shares traded. The move came as ${reason}. The stock belongs to the ${spec.industry.toLowerCase()} industry of the ${spec.sector.toLowerCase()} sector.`;
    } else if (category === 'crypto') {
      title = `${spec.name.replace(/ USD$/, '')} ${up ? 'rallies' : 'slips'} ${pct} as crypto traders ${up ? 'add risk' : 'take profits'}`;
      body = `${spec.name.replace(/ USD$/, '')} ${up ? 'gained' : 'lost'} ${pct} over the day to ${formatPrice(close, 'USD')}. Trading activity ${up ? 'picked up' : 'stayed heavy'} across major venues, and derivatives funding rates ${up ? 'turned higher' : 'eased'}.`;
    } else if (category === 'forex') {
      const from = String(spec.details.fromName ?? spec.name);
      const to = String(spec.details.toName ?? '');
      title = `${spec.name}: ${from} ${up ? 'strengthens' : 'weakens'} against the ${to} (${up ? '+' : '−'}${pct})`;
      body = `The ${spec.name} pair moved ${pct} to ${close} as traders reassessed the rate outlook. Positioning data pointed to ${up ? 'renewed demand for the' : 'reduced appetite for the'} ${from}.`;
    } else {
      title = `${spec.name} ${up ? 'advances' : 'declines'} ${pct} in ${up ? 'a broad rally' : 'a broad sell-off'}`;
      body = `The ${spec.name} ${up ? 'rose' : 'fell'} ${pct} to ${close.toLocaleString('en-US')} as ${up ? 'buyers returned across sectors' : 'selling spread across sectors'}.`;
    }
    const hours: readonly [number, number] =
      category === 'stock' || category === 'general' ? [16, 19] : [0, 23];
    rows.push(
      article(random, category, category === 'general' ? null : spec.symbol, day, title, body, hours),
    );
  }
  return rows;
}

function quarterLabel(period: PeriodStatements): string {
  return `${['first', 'second', 'third', 'fourth'][period.quarter - 1] ?? 'fourth'} quarter of fiscal ${period.fiscalYear}`;
}

function money(value: number, currency: string): string {
  const abs = Math.abs(value);
  const unit = abs >= 1e9 ? ([1e9, 'billion'] as const) : ([1e6, 'million'] as const);
  const text = `${(value / unit[0]).toFixed(abs >= 1e11 ? 0 : 1)} ${unit[1]}`;
  return currency === 'USD' ? `$${text}` : `${text} ${currency}`;
}

/** An article on a reported quarter. */
export function resultsArticle(
  seed: number,
  spec: SecuritySpec,
  period: PeriodStatements,
  previousYear: PeriodStatements | undefined,
): NewsRow {
  const random = createRandom(seed, 'news', spec.symbol, 'results', period.fiscalYear, period.quarter);
  const revenue = period.income.revenue;
  const growth =
    previousYear && previousYear.income.revenue > 0 ? revenue / previousYear.income.revenue - 1 : null;
  const title = `${spec.name} (${spec.symbol}) reports ${quarterLabel(period)} results: revenue ${money(revenue, spec.currency)}${growth === null ? '' : `, ${growth >= 0 ? 'up' : 'down'} ${Math.abs(growth * 100).toFixed(1)}%`}`;
  const body = `${spec.name} reported revenue of ${money(revenue, spec.currency)} and net income of ${money(period.income.netIncome, spec.currency)} for the ${quarterLabel(period)}, or ${period.income.epsDiluted.toFixed(2)} per diluted share. Operating cash flow was ${money(period.cashFlow.operatingCashFlow, spec.currency)}.`;
  return article(random, 'stock', spec.symbol, period.announcementDay, title, body, [16, 17]);
}

/** A demo earnings call for a reported quarter, quoting the quarter's own numbers. */
export function transcript(
  seed: number,
  spec: SecuritySpec,
  period: PeriodStatements,
  previousYear: PeriodStatements | undefined,
  executives: readonly ExecutiveRow[],
): string {
  const random = createRandom(seed, 'transcript', spec.symbol, period.fiscalYear, period.quarter);
  const ceo = executives[0]?.name ?? 'the Chief Executive Officer';
  const cfo =
    executives.find((e) => e.title === 'Chief Financial Officer')?.name ??
    executives[1]?.name ??
    'the Chief Financial Officer';
  const i = period.income;
  const c = period.cashFlow;
  const currency = spec.currency;
  const growth =
    previousYear && previousYear.income.revenue > 0
      ? (i.revenue / previousYear.income.revenue - 1) * 100
      : null;
  const margin = i.revenue > 0 ? (i.grossProfit / i.revenue) * 100 : 0;
  const analysts = [0, 1, 2].map(
    () =>
      `${random.pick(['Alex', 'Jordan', 'Taylor', 'Morgan', 'Casey', 'Riley', 'Jamie'])} ${random.pick(['Brooks', 'Reyes', 'Carter', 'Nguyen', 'Patel', 'Foster', 'Kim'])}`,
  );
  const firms = [0, 1, 2].map(() => random.pick(RESEARCH_FIRMS));
  const lines = [
    `Operator: Good afternoon, and welcome to the ${spec.name} conference call for the ${quarterLabel(period)}. This transcript is demo content generated from synthetic data; it does not record a real call. All participants are in listen-only mode.`,
    `${ceo}: Thank you, and good afternoon, everyone. Revenue for the quarter was ${money(i.revenue, currency)}${growth === null ? '' : `, ${growth >= 0 ? 'up' : 'down'} ${Math.abs(growth).toFixed(1)}% from a year ago`}. ${growth !== null && growth >= 0 ? 'Demand held up well across our businesses' : 'We saw a softer environment in several of our markets'}, and we continued to invest in ${spec.industry.toLowerCase()} capabilities for the long term.`,
    `${ceo}: Our priorities are unchanged: serve customers well, execute with discipline and return capital to shareholders over time.`,
    `${cfo}: Thanks. Gross margin was ${margin.toFixed(1)}%. Operating income was ${money(i.operatingIncome, currency)} and net income ${money(i.netIncome, currency)}, or ${i.epsDiluted.toFixed(2)} per diluted share. We generated ${money(c.operatingCashFlow, currency)} of operating cash flow and ${money(c.freeCashFlow, currency)} of free cash flow${c.commonDividendsPaid < 0 ? `, and paid ${money(-c.commonDividendsPaid, currency)} in dividends` : ''}${c.commonStockRepurchased < 0 ? ` and repurchased ${money(-c.commonStockRepurchased, currency)} of stock` : ''}.`,
    `${cfo}: We ended the quarter with ${money(period.balance.cashAndShortTermInvestments, currency)} in cash and short-term investments and ${money(period.balance.totalDebt, currency)} of total debt.`,
    'Operator: We will now begin the question-and-answer session.',
    `${analysts[0] ?? 'Analyst'} (${firms[0] ?? 'Research'}): Thanks for taking my question. Can you talk about the demand trends you are seeing into next quarter?`,
    `${ceo}: Sure. Order trends through the quarter were ${random.pick(['steady', 'encouraging', 'mixed but improving', 'in line with our plan'])}, and we remain focused on execution.`,
    `${analysts[1] ?? 'Analyst'} (${firms[1] ?? 'Research'}): How should we think about margins for the rest of the year?`,
    `${cfo}: We expect gross margin to stay in a similar range, with some variation from product mix and input costs.`,
    `${analysts[2] ?? 'Analyst'} (${firms[2] ?? 'Research'}): Any update on capital allocation?`,
    `${cfo}: Capital spending was ${money(-c.capitalExpenditure, currency)} this quarter. We will keep balancing investment in the business with returns to shareholders.`,
    "Operator: That concludes today's call. Thank you for participating.",
  ];
  return lines.join('\n');
}
