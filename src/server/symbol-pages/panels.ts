/**
 * One loader per panel: what `/{page}/{id}` renders under the symbol's header is the view model the
 * page's panel loader makes of the resolved symbol and the request's options.
 */
import { panelOf, type SymbolPage } from '../../lib/symbol-routes.ts';
import { loadChart, type ChartView } from './chart.ts';
import { loadCompany, type CompanyView } from './company.ts';
import { loadHistory, type HistoryView } from './history.ts';
import { loadNews, type NewsView } from './news.ts';
import { loadMarketOverview, type MarketOverviewView } from './overview.ts';
import { loadRatios, type RatiosView } from './ratios.ts';
import type { SymbolHeader, SymbolPageContext } from './resolver.ts';
import { loadStatements, type StatementsView } from './statements.ts';
import { loadValuation, type ValuationView } from './valuation.ts';

/** The view model of the page's panel, tagged with the panel that renders it. */
export type PanelView =
  | { panel: 'statements'; view: StatementsView }
  | { panel: 'valuation'; view: ValuationView }
  | { panel: 'company'; view: CompanyView }
  | { panel: 'ratios'; view: RatiosView }
  | { panel: 'news'; view: NewsView }
  | { panel: 'history'; view: HistoryView }
  | { panel: 'overview'; view: MarketOverviewView }
  | { panel: 'chart'; view: ChartView };

/** Runs the loader of the panel that renders the context's page. */
export async function loadPanel(context: SymbolPageContext): Promise<PanelView> {
  switch (panelOf(context.page)) {
    case 'statements':
      return { panel: 'statements', view: await loadStatements(context) };
    case 'valuation':
      return { panel: 'valuation', view: await loadValuation(context) };
    case 'company':
      return { panel: 'company', view: await loadCompany(context) };
    case 'ratios':
      return { panel: 'ratios', view: await loadRatios(context) };
    case 'news':
      return { panel: 'news', view: await loadNews(context) };
    case 'history':
      return { panel: 'history', view: await loadHistory(context) };
    case 'overview':
      return { panel: 'overview', view: await loadMarketOverview(context) };
    case 'chart':
      return { panel: 'chart', view: await loadChart(context) };
  }
}

/** Everything a symbol page renders: the page, the symbol's header and its panel's view model. */
export interface SymbolPageView {
  page: SymbolPage;
  header: SymbolHeader;
  panel: PanelView;
}

/** Loads the page a resolved `/{page}/{id}` shows. */
export async function loadSymbolPage(context: SymbolPageContext): Promise<SymbolPageView> {
  return { page: context.page, header: context.header, panel: await loadPanel(context) };
}
