/**
 * The company pages of a stock: the Overview tab (financial-summary), the profile (also served as
 * company-profile), analysts' views (analysis) and corporate actions, each with its own loader.
 */
import { loadCompanyAnalysis, type CompanyAnalysisView } from './company-analysis.ts';
import { loadCompanyProfile, type CompanyProfileView } from './company-profile.ts';
import { loadCompanySummary, type CompanySummaryView } from './company-summary.ts';
import { loadCorporateActions, type CorporateActionsView } from './corporate-actions.ts';
import type { SymbolPageContext } from './resolver.ts';

/** The view model of a company page, tagged with the section component that renders it. */
export type CompanyView =
  | { section: 'summary'; view: CompanySummaryView }
  | { section: 'profile'; view: CompanyProfileView }
  | { section: 'analysis'; view: CompanyAnalysisView }
  | { section: 'corporate-actions'; view: CorporateActionsView };

/** Reads the company page the context asks for. */
export async function loadCompany(context: SymbolPageContext): Promise<CompanyView> {
  switch (context.page) {
    case 'analysis':
      return { section: 'analysis', view: await loadCompanyAnalysis(context) };
    case 'corporate-actions':
      return { section: 'corporate-actions', view: await loadCorporateActions(context) };
    case 'profile':
    case 'company-profile':
      return { section: 'profile', view: await loadCompanyProfile(context) };
    default:
      return { section: 'summary', view: await loadCompanySummary(context) };
  }
}
