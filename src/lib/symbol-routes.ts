/**
 * The per-symbol pages of SPEC §2: which pages exist, which asset types each serves, and the tab set
 * of each asset type. Shared by the server (routing, redirects) and the tabs island, so the links a
 * visitor sees and the pages the server renders never disagree.
 */

export const SYMBOL_PAGES = [
  'analysis',
  'balance-sheet-data',
  'balance-sheet-statement',
  'cash-flow-statement',
  'chart',
  'commodity',
  'company-profile',
  'corporate-actions',
  'cryptocurrency',
  'discounted-cash-flow-model',
  'discounted-cash-flow-model-levered',
  'dupont-ratio-analysis',
  'equity-value',
  'financial-ratios',
  'financial-statements',
  'financial-statements-quarterly',
  'financial-summary',
  'forex',
  'free-cash-flow',
  'free-cash-flow-build-up',
  'historical-data',
  'historical-data-commodity',
  'historical-data-crypto',
  'historical-data-forex',
  'historical-data-index',
  'income-statement',
  'index-summary',
  'intangible-and-good-will-schedule',
  'intrinsic-value',
  'news',
  'operating-data',
  'profile',
  'property-plant-and-equipment-schedule',
  'retained-earning-statement',
  'stock-value',
  'terminal-value',
  'transcripts',
  'weighted-average-cost-of-capital',
] as const;

export type SymbolPage = (typeof SYMBOL_PAGES)[number];

/** How a security is presented: ETFs and funds read like stocks (they trade on exchanges). */
export type SymbolKind = 'stock' | 'crypto' | 'index' | 'forex' | 'commodity';

export const SYMBOL_KINDS: readonly SymbolKind[] = ['stock', 'crypto', 'index', 'forex', 'commodity'];

const PAGE_SET: ReadonlySet<string> = new Set(SYMBOL_PAGES);

export function isSymbolPage(value: string): value is SymbolPage {
  return PAGE_SET.has(value);
}

/** The presentation of a stored asset type. */
export function symbolKind(assetType: string): SymbolKind {
  switch (assetType) {
    case 'crypto':
    case 'index':
    case 'forex':
    case 'commodity':
      return assetType;
    default:
      return 'stock';
  }
}

/** The panel component that renders each page (pages of one panel share their data and layout). */
export type SymbolPanel =
  'statements' | 'valuation' | 'company' | 'ratios' | 'news' | 'history' | 'overview' | 'chart';

export const PANEL_PAGES: Readonly<Record<SymbolPanel, readonly SymbolPage[]>> = {
  statements: [
    'financial-statements',
    'financial-statements-quarterly',
    'income-statement',
    'balance-sheet-statement',
    'balance-sheet-data',
    'cash-flow-statement',
    'retained-earning-statement',
    'operating-data',
    'intangible-and-good-will-schedule',
    'property-plant-and-equipment-schedule',
  ],
  // In the order the valuation pages list each other.
  valuation: [
    'intrinsic-value',
    'discounted-cash-flow-model',
    'discounted-cash-flow-model-levered',
    'free-cash-flow',
    'free-cash-flow-build-up',
    'weighted-average-cost-of-capital',
    'terminal-value',
    'equity-value',
    'stock-value',
  ],
  company: ['financial-summary', 'profile', 'company-profile', 'analysis', 'corporate-actions'],
  ratios: ['financial-ratios', 'dupont-ratio-analysis'],
  news: ['news', 'transcripts'],
  history: [
    'historical-data',
    'historical-data-crypto',
    'historical-data-index',
    'historical-data-forex',
    'historical-data-commodity',
  ],
  overview: ['cryptocurrency', 'index-summary', 'forex', 'commodity'],
  chart: ['chart'],
};

export interface SymbolTab {
  /** The route the tab opens. */
  page: SymbolPage;
  label: string;
  /** Further pages shown under this tab (it stays selected on them). */
  also: readonly SymbolPage[];
}

/** Tab sets per asset type, in display order (SPEC §2). */
export const SYMBOL_TABS: Readonly<Record<SymbolKind, readonly SymbolTab[]>> = {
  stock: [
    { page: 'financial-summary', label: 'Overview', also: [] },
    { page: 'profile', label: 'Profile', also: ['company-profile'] },
    {
      page: 'financial-statements',
      label: 'Financial Statements',
      also: PANEL_PAGES.statements.filter((page) => page !== 'financial-statements'),
    },
    { page: 'financial-ratios', label: 'Financial Ratios', also: ['dupont-ratio-analysis'] },
    { page: 'chart', label: 'Chart', also: ['historical-data'] },
    { page: 'analysis', label: 'Analysis', also: [] },
    { page: 'news', label: 'News', also: ['transcripts'] },
    { page: 'corporate-actions', label: 'Corporate Actions', also: [] },
    {
      page: 'discounted-cash-flow-model',
      label: 'DCF',
      also: PANEL_PAGES.valuation.filter((page) => page !== 'discounted-cash-flow-model'),
    },
  ],
  crypto: [
    { page: 'cryptocurrency', label: 'Overview', also: ['news'] },
    { page: 'chart', label: 'Chart', also: [] },
    { page: 'historical-data-crypto', label: 'Historical Data', also: [] },
  ],
  index: [
    { page: 'index-summary', label: 'Overview', also: ['news'] },
    { page: 'chart', label: 'Chart', also: [] },
    { page: 'historical-data-index', label: 'Historical Data', also: [] },
  ],
  forex: [
    { page: 'forex', label: 'Overview', also: ['news'] },
    { page: 'chart', label: 'Chart', also: [] },
    { page: 'historical-data-forex', label: 'Historical Data', also: [] },
  ],
  commodity: [
    { page: 'commodity', label: 'Overview', also: ['news'] },
    { page: 'chart', label: 'Chart', also: [] },
    { page: 'historical-data-commodity', label: 'Historical Data', also: [] },
  ],
};

/** Each asset type's overview and historical-data pages, the targets of cross-type redirects. */
const OVERVIEW: Readonly<Record<SymbolKind, SymbolPage>> = {
  stock: 'financial-summary',
  crypto: 'cryptocurrency',
  index: 'index-summary',
  forex: 'forex',
  commodity: 'commodity',
};

const HISTORY: Readonly<Record<SymbolKind, SymbolPage>> = {
  stock: 'historical-data',
  crypto: 'historical-data-crypto',
  index: 'historical-data-index',
  forex: 'historical-data-forex',
  commodity: 'historical-data-commodity',
};

/** Pages every asset type has (news: stocks' own news, crypto and forex news for the others). */
const SHARED_PAGES: ReadonlySet<SymbolPage> = new Set(['chart', 'news']);

/** The asset type a page belongs to; undefined for the pages every type has. */
export function pageKind(page: SymbolPage): SymbolKind | undefined {
  if (SHARED_PAGES.has(page)) return undefined;
  for (const kind of SYMBOL_KINDS) {
    if (kind !== 'stock' && (OVERVIEW[kind] === page || HISTORY[kind] === page)) return kind;
  }
  return 'stock';
}

/**
 * The page to show for a symbol of `kind` asked for on `page`: the page itself when it serves that
 * type, otherwise the matching page of the type (historical data → its historical data, anything
 * else → its overview).
 */
export function pageForKind(page: SymbolPage, kind: SymbolKind): SymbolPage {
  const owner = pageKind(page);
  if (owner === undefined || owner === kind) return page;
  return Object.values(HISTORY).includes(page) ? HISTORY[kind] : OVERVIEW[kind];
}

/** The overview page of an asset type (where search results lead). */
export function overviewPage(kind: SymbolKind): SymbolPage {
  return OVERVIEW[kind];
}

/** The tab that is selected on `page`. */
export function tabFor(page: SymbolPage, kind: SymbolKind): SymbolTab | undefined {
  return SYMBOL_TABS[kind].find((tab) => tab.page === page || tab.also.includes(page));
}

/** `/financial-summary/AAPL`; index symbols keep their caret (`/index-summary/%5EGSPC`). */
export function symbolPath(page: SymbolPage, symbol: string): string {
  return `/${page}/${encodeURIComponent(symbol)}`;
}

/** Each page's heading (after the company name) and the subject of its description. */
export const PAGE_TITLES: Readonly<Record<SymbolPage, string>> = {
  analysis: 'Analyst Ratings, Price Targets and Estimates',
  'balance-sheet-data': 'Balance Sheet Data',
  'balance-sheet-statement': 'Balance Sheet',
  'cash-flow-statement': 'Cash Flow Statement',
  chart: 'Price Chart',
  commodity: 'Commodity Price and Overview',
  'company-profile': 'Company Profile',
  'corporate-actions': 'Dividends and Splits',
  cryptocurrency: 'Price and Overview',
  'discounted-cash-flow-model': 'Discounted Cash Flow Model',
  'discounted-cash-flow-model-levered': 'Levered Discounted Cash Flow Model',
  'dupont-ratio-analysis': 'DuPont Analysis',
  'equity-value': 'Equity Value',
  'financial-ratios': 'Financial Ratios',
  'financial-statements': 'Financial Statements',
  'financial-statements-quarterly': 'Quarterly Financial Statements',
  'financial-summary': 'Stock Price and Financial Summary',
  forex: 'Exchange Rate and Overview',
  'free-cash-flow': 'Free Cash Flow',
  'free-cash-flow-build-up': 'Free Cash Flow Build-Up',
  'historical-data': 'Historical Prices',
  'historical-data-commodity': 'Historical Prices',
  'historical-data-crypto': 'Historical Prices',
  'historical-data-forex': 'Historical Exchange Rates',
  'historical-data-index': 'Historical Index Levels',
  'income-statement': 'Income Statement',
  'index-summary': 'Index Level and Overview',
  'intangible-and-good-will-schedule': 'Intangibles and Goodwill Schedule',
  'intrinsic-value': 'Intrinsic Value',
  news: 'News',
  'operating-data': 'Operating Data',
  profile: 'Company Profile',
  'property-plant-and-equipment-schedule': 'Property, Plant and Equipment Schedule',
  'retained-earning-statement': 'Retained Earnings Statement',
  'stock-value': 'Stock Value per Share',
  'terminal-value': 'Terminal Value',
  transcripts: 'Earnings Call Transcripts',
  'weighted-average-cost-of-capital': 'Weighted Average Cost of Capital (WACC)',
};

/**
 * Pages beyond the free plan, with the data tier that includes them (as the data API counts it:
 * quarterly statements need the professional tier). Links to them open the premium dialog for
 * visitors whose plan does not include them.
 */
export const PREMIUM_PAGES: Readonly<Partial<Record<SymbolPage, number>>> = {
  'financial-statements-quarterly': 2,
};

/** Tier of quarterly figures (statements, ratios) anywhere on the symbol pages. */
export const QUARTERLY_TIER = 2;

const PANEL_OF = new Map<SymbolPage, SymbolPanel>(
  Object.entries(PANEL_PAGES).flatMap(([panel, pages]) =>
    pages.map((page) => [page, panel as SymbolPanel] as const),
  ),
);

export function panelOf(page: SymbolPage): SymbolPanel {
  const panel = PANEL_OF.get(page);
  if (panel === undefined) throw new Error(`No panel renders the ${page} page`);
  return panel;
}
