/**
 * Every route of the product (SPEC §2) in one typed module, so the header, the footer, the route
 * guards and the link checker never disagree about what exists.
 */
import { isSymbolPage } from './symbol-routes.ts';

export interface NavLink {
  href: string;
  label: string;
  /** Shown only to users whose `legacy` flag is set. */
  legacy?: boolean;
  /** Opens another site. */
  external?: boolean;
}

export interface NavGroup {
  title: string;
  links: readonly NavLink[];
}

export const SITE_NAME = 'Tickerlake';
export const COPYRIGHT_YEARS = '2017-2025';
export const PROFESSIONAL_NETWORK_URL = 'https://www.linkedin.com/company/tickerlake';

export const DATASETS = [
  { id: 'market-data-real-time', label: 'Real-Time Market Data' },
  { id: 'market-data-historic', label: 'Historical Market Data' },
  { id: 'fundamental-financial-statements', label: 'Financial Statements' },
  { id: 'indexes', label: 'Indexes' },
  { id: 'economics', label: 'Economics' },
  { id: 'company-profile', label: 'Company Profiles' },
  { id: 'analyst-estimates-targets', label: 'Analyst Estimates & Targets' },
  { id: 'earnings-call-transcripts', label: 'Earnings Call Transcripts' },
  { id: 'search-directory', label: 'Search & Directory' },
  { id: 'calendars', label: 'Calendars' },
  { id: 'form-13f', label: 'Form 13F' },
  { id: 'advanced', label: 'Advanced Data' },
  { id: 'crypto', label: 'Crypto' },
  { id: 'forex', label: 'Forex' },
  { id: 'commodity', label: 'Commodities' },
  { id: 'ownership-senate-insider', label: 'Ownership, Senate & Insider' },
  { id: 'esg', label: 'ESG' },
] as const;

export type DatasetId = (typeof DATASETS)[number]['id'];

export const datasetPath = (id: DatasetId): string => `/datasets/${id}`;

/** The index of every dataset, by category. */
export const DATASETS_INDEX = '/datasets';

const DATASET_PATHS: ReadonlySet<string> = new Set(DATASETS.map((dataset) => datasetPath(dataset.id)));

/** Whether a path (no query string) is one dataset's page: the page cache keeps them. */
export function isDatasetPagePath(pathname: string): boolean {
  return DATASET_PATHS.has(pathname);
}

export const DATASETS_MENU: readonly NavLink[] = DATASETS.map((d) => ({
  href: datasetPath(d.id),
  label: d.label,
}));

export const DOCUMENTATION_MENU: readonly NavGroup[] = [
  {
    title: 'API',
    links: [
      { href: '/developer/docs', label: 'API Documentation' },
      { href: '/playground', label: 'API Viewer' },
      { href: '/developer/docs/legacy', label: 'API Documentation', legacy: true },
      { href: '/playground/legacy', label: 'API Viewer', legacy: true },
      { href: '/developer/docs/status/', label: 'Status' },
      { href: '/developer/docs/changelog/', label: 'Changelog' },
      { href: '/developer/docs/cycle-times-stable/', label: 'Cycle Times' },
      { href: '/developer/docs/cycle-times/', label: 'Cycle Times (legacy)' },
      { href: '/faqs', label: 'FAQs' },
    ],
  },
  {
    title: 'Formulas',
    links: [
      { href: '/developer/docs/formula', label: 'Formulas' },
      { href: '/developer/docs/parsing-statements', label: 'Parsing Statements' },
      { href: '/developer/docs/dcf-formula', label: 'DCF Formula' },
      { href: '/developer/docs/piotroski-score', label: 'Piotroski Score' },
      { href: '/developer/docs/owner-earnings', label: 'Owner Earnings' },
      { href: '/developer/docs/recommendations-formula', label: 'Recommendations Formula' },
    ],
  },
  {
    title: 'Spreadsheets & integrations',
    links: [
      { href: '/developer/docs/excel-add-on', label: 'Excel Add-On' },
      { href: '/developer/docs/excel-add-on-explorer', label: 'Excel Add-On Explorer' },
      { href: '/developer/docs/resources/', label: 'Third-Party Integrations' },
      { href: '/help-center', label: 'Help Center' },
    ],
  },
];

export const PRICING_MENU: readonly NavLink[] = [
  { href: '/developer/docs/pricing', label: 'Personal use' },
  { href: '/developer/docs/pricing?planType=commercial', label: 'Commercial use' },
];

export const AUTH_LINKS = {
  signIn: '/login',
  signUp: '/register',
  dashboard: '/developer/docs/dashboard',
  invoices: '/developer/docs/invoices',
  admin: '/developer/docs/admin',
  linkUser: '/profile-link',
  pricing: '/developer/docs/pricing',
  forgotPassword: '/forgotpassword',
  /** Where the links in the identity provider's emails (password reset, address verification) lead. */
  action: '/auth/action',
  terms: '/terms-of-service',
  privacy: '/privacy-policy',
} as const;

export const FOOTER_GROUPS: readonly NavGroup[] = [
  {
    title: 'API',
    links: [
      { href: '/developer/docs', label: 'Documentation' },
      { href: '/developer/docs/pricing', label: 'Pricing' },
      { href: '/playground/stable', label: 'API Viewer' },
      { href: '/developer/docs/status/', label: 'Status' },
      { href: '/developer/docs/changelog/', label: 'Changelog' },
      { href: '/faqs', label: 'FAQs' },
      { href: '/developer/docs/cycle-times-stable/', label: 'Cycle Times' },
      { href: '/help-center', label: 'Help Center' },
      { href: '/developer/docs/legacy-endpoints', label: 'Legacy Endpoints' },
    ],
  },
  {
    title: 'Company',
    links: [
      { href: '/blogs/', label: 'Blog' },
      { href: '/market-news/', label: 'Market News' },
      { href: '/careers', label: 'Careers' },
      { href: '/affiliates', label: 'Affiliates' },
      { href: '/contact', label: 'Contact' },
      { href: PROFESSIONAL_NETWORK_URL, label: 'LinkedIn', external: true },
    ],
  },
  {
    title: 'Stock Screener',
    links: [
      { href: '/most-searched-stocks', label: 'Most Searched Stocks' },
      { href: '/currencies', label: 'Currencies' },
      { href: '/cryptocurrencies', label: 'Cryptocurrencies' },
      { href: '/market-indexes', label: 'Market Indexes' },
      { href: '/top-stock-gainers', label: 'Top Gainers' },
      { href: '/top-stock-losers', label: 'Top Losers' },
      { href: '/top-stock-actives', label: 'Most Active' },
      { href: '/sector-performance', label: 'Sector Performance' },
      { href: '/search', label: 'Symbol Search' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { href: '/terms-of-service', label: 'Terms of Service' },
      { href: '/privacy-policy', label: 'Privacy Policy' },
    ],
  },
];

/**
 * Pages that show account data: a signed-out visitor is sent to / (SPEC §6). Matched on the path,
 * with everything below a listed path included.
 */
export const PROTECTED_ROUTES: readonly string[] = [
  '/dashboard',
  '/developer/docs/dashboard',
  '/developer/docs/api-keys',
  '/developer/docs/request-log',
  '/developer/docs/settings',
  '/developer/docs/invoices',
];

/** The dashboard's API keys page, where keys are revealed, replaced and added. */
export const API_KEYS_PAGE = '/developer/docs/api-keys';

/** The dashboard's settings page: profile, address, password, sign-ins, export and deletion. */
export const SETTINGS_PAGE = '/developer/docs/settings';

/** The dashboard's own navigation (its layout, desktop and phone), in order. */
export const DASHBOARD_NAV: readonly NavLink[] = [
  { href: '/developer/docs/dashboard', label: 'Overview' },
  { href: API_KEYS_PAGE, label: 'API keys' },
  // The overview's usage panel: today, the last days and each endpoint's share.
  { href: '/developer/docs/dashboard#usage', label: 'Usage' },
  { href: '/developer/docs/request-log', label: 'Request log' },
  { href: '/developer/docs/quickstart', label: 'Quickstart' },
  { href: '/developer/docs/invoices', label: 'Invoices' },
  { href: SETTINGS_PAGE, label: 'Settings' },
];

/**
 * Short addresses that lead to their proper pages (SPEC §2 lists both): answered with a permanent
 * redirect that keeps the query.
 */
export const ROUTE_REDIRECTS: Readonly<Record<string, string>> = {
  '/dashboard': '/developer/docs/dashboard',
  '/documentation': '/developer/docs',
};

/** The admin console: administrators, and analysts (read-only); everyone else is sent to /. */
export const STAFF_ROUTES: readonly string[] = [AUTH_LINKS.admin];

/** Pages for administrators only; everyone else is sent to /. */
export const ADMIN_ROUTES: readonly string[] = [AUTH_LINKS.linkUser];

function underAny(routes: readonly string[], path: string): boolean {
  const target = normalizePath(path);
  return routes.some((route) => target === route || target.startsWith(`${route}/`));
}

/** What a path needs of its visitor: nothing, a signed-in user, staff (admin or analyst), or an administrator. */
export function routeAccess(path: string): 'public' | 'user' | 'staff' | 'admin' {
  if (underAny(ADMIN_ROUTES, path)) return 'admin';
  if (underAny(STAFF_ROUTES, path)) return 'staff';
  return underAny(PROTECTED_ROUTES, path) ? 'user' : 'public';
}

/** Whether a path is one of the pricing pages (personal or commercial use, any query). */
export function isPricingPage(path: string): boolean {
  return underAny([AUTH_LINKS.pricing], path);
}

/** Whether a path is a per-symbol page (`/chart/AAPL`): one of SPEC §2's pages and a symbol. */
export function isSymbolPagePath(path: string): boolean {
  const [page, symbol, ...rest] = normalizePath(path).split('/').slice(1);
  return (
    page !== undefined && isSymbolPage(page) && symbol !== undefined && symbol !== '' && rest.length === 0
  );
}

/**
 * Whether Sign In and Sign Up open the auth pop-up on this page rather than the full sign-in and
 * sign-up pages (SPEC §2, pop-ups): where leaving would lose the visitor's place, that is on the
 * pricing pages (the plan being chosen, a coupon) and on the per-symbol pages (the symbol, tab and
 * period being read). Everywhere else the full pages open. The one place this is decided.
 */
export function authOpensPopup(path: string): boolean {
  return isPricingPage(path) || isSymbolPagePath(path);
}

/** SPEC §2 route lists. Patterns use Astro's [param] and [...rest] syntax. */
export const ROUTE_LISTS = {
  dashboard: [
    '/dashboard',
    '/developer/docs/api-keys',
    '/developer/docs/dashboard',
    '/documentation',
    '/developer/docs',
    '/developer/docs/stable',
    '/developer/docs/legacy',
    '/developer/docs/settings',
    '/developer/docs/invoices',
    '/developer/docs/quickstart',
    '/developer/docs/excel-add-on',
  ],
  auth: ['/login', '/register', '/forgotpassword', '/devauth', '/enterprise-info'],
  playground: ['/playground'],
  /** The footer's Company pages: careers (with a page per open role), the affiliate programme, contact. */
  company: ['/careers', '/careers/[id]', '/affiliates', '/contact'],
  docsAndContent: [
    '/developer/docs/legacy-endpoints',
    '/developer/docs/stable/[...slug]',
    '/developer/docs/[...slug]',
    '/developer/docs/blog',
    '/developer/docs/blog/[id]',
    '/blogs',
    '/discounted-cash-flow-blogs',
    '/discounted-cash-flow-blogs/[id]',
    '/education',
    '/education/[...slug]',
    '/how-to',
    '/how-to/[id]',
    '/market-news',
    '/market-news/[id]',
    '/datasets',
    '/datasets/[id]',
  ],
} as const;

// The per-symbol pages (SPEC §2) with their tab sets and paths live beside the rules that route them.
export { SYMBOL_PAGES, SYMBOL_TABS, symbolPath, type SymbolPage, type SymbolTab } from './symbol-routes.ts';

/**
 * Internal routes that are linked from the shell but whose pages are built by later work. The
 * link checker accepts links to these (and only these) without a page; each finished page is
 * removed from this list. Empty: every internal link of the shell leads to a page.
 */
export const PENDING_ROUTES: readonly string[] = [];

/** The path part of an internal href, normalised (no query, no hash, no trailing slash except root). */
export function normalizePath(href: string): string {
  const path = href.split(/[?#]/)[0] ?? '/';
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** Whether an internal link points to a route still waiting for its page. */
export function isPending(href: string): boolean {
  const target = normalizePath(href);
  return PENDING_ROUTES.some((route) => normalizePath(route) === target);
}
