import { ADMIN_NAV, adminUserHref, isStaffRole } from '../../src/lib/admin.ts';
import { describe, expect, it } from 'vitest';
import {
  DASHBOARD_NAV,
  DATASETS_MENU,
  DOCUMENTATION_MENU,
  FOOTER_GROUPS,
  PENDING_ROUTES,
  PRICING_MENU,
  ROUTE_LISTS,
  SYMBOL_PAGES,
  SYMBOL_TABS,
  authOpensPopup,
  isPending,
  isPricingPage,
  normalizePath,
  routeAccess,
  type NavLink,
} from '../../src/lib/routes.ts';
import type { SymbolKind } from '../../src/lib/symbol-routes.ts';

/** SPEC §2, Datasets menu, in the order given there. */
const SPEC_DATASETS = [
  'market-data-real-time',
  'market-data-historic',
  'fundamental-financial-statements',
  'indexes',
  'economics',
  'company-profile',
  'analyst-estimates-targets',
  'earnings-call-transcripts',
  'search-directory',
  'calendars',
  'form-13f',
  'advanced',
  'crypto',
  'forex',
  'commodity',
  'ownership-senate-insider',
  'esg',
];

/** SPEC §2, Documentation menu. */
const SPEC_DOCUMENTATION = [
  '/developer/docs',
  '/playground',
  '/developer/docs/legacy',
  '/playground/legacy',
  '/developer/docs/status/',
  '/developer/docs/changelog/',
  '/developer/docs/cycle-times-stable/',
  '/developer/docs/cycle-times/',
  '/faqs',
  '/developer/docs/formula',
  '/developer/docs/parsing-statements',
  '/developer/docs/dcf-formula',
  '/developer/docs/piotroski-score',
  '/developer/docs/owner-earnings',
  '/developer/docs/recommendations-formula',
  '/developer/docs/excel-add-on',
  '/developer/docs/excel-add-on-explorer',
  '/developer/docs/resources/',
  '/help-center',
];

/** SPEC §2, Footer groups (the external professional-network link is checked on its own). */
const SPEC_FOOTER: Record<string, string[]> = {
  API: [
    '/developer/docs',
    '/developer/docs/pricing',
    '/playground/stable',
    '/developer/docs/status/',
    '/developer/docs/changelog/',
    '/faqs',
    '/developer/docs/cycle-times-stable/',
    '/help-center',
    '/developer/docs/legacy-endpoints',
  ],
  Company: ['/blogs/', '/market-news/', '/careers', '/affiliates', '/contact'],
  'Stock Screener': [
    '/most-searched-stocks',
    '/currencies',
    '/cryptocurrencies',
    '/market-indexes',
    '/top-stock-gainers',
    '/top-stock-losers',
    '/top-stock-actives',
    '/sector-performance',
    '/search',
  ],
  Legal: ['/terms-of-service', '/privacy-policy'],
};

/** SPEC §2, Per-symbol pages. */
const SPEC_SYMBOL_PAGES = [
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
];

/** SPEC §2, "Symbol page tabs, stock", in order. */
const SPEC_STOCK_TABS = [
  { page: 'financial-summary', label: 'Overview' },
  { page: 'profile', label: 'Profile' },
  { page: 'financial-statements', label: 'Financial Statements' },
  { page: 'financial-ratios', label: 'Financial Ratios' },
  { page: 'chart', label: 'Chart' },
  { page: 'analysis', label: 'Analysis' },
  { page: 'news', label: 'News' },
  { page: 'corporate-actions', label: 'Corporate Actions' },
  { page: 'discounted-cash-flow-model', label: 'DCF' },
];

/** SPEC §2, "Tab sets per asset type". */
const SPEC_TAB_SETS: Record<SymbolKind, string[]> = {
  crypto: ['cryptocurrency', 'chart', 'historical-data-crypto'],
  index: ['index-summary', 'chart', 'historical-data-index'],
  forex: ['forex', 'chart', 'historical-data-forex'],
  commodity: ['commodity', 'chart', 'historical-data-commodity'],
  stock: [
    'financial-summary',
    'chart',
    'financial-statements',
    'financial-ratios',
    'profile',
    'news',
    'discounted-cash-flow-model',
  ],
};

const hrefs = (links: readonly NavLink[]): string[] => links.map((link) => link.href);
const documentationLinks = DOCUMENTATION_MENU.flatMap((group) => group.links);
const footerLinks = FOOTER_GROUPS.flatMap((group) => group.links);

describe('datasets menu', () => {
  it('links the 17 datasets under /datasets/ in SPEC order', () => {
    expect(hrefs(DATASETS_MENU)).toEqual(SPEC_DATASETS.map((id) => `/datasets/${id}`));
  });

  it('gives every dataset its own non-empty label', () => {
    const labels = DATASETS_MENU.map((link) => link.label);
    expect(labels.every((label) => label.trim().length > 0)).toBe(true);
    expect(new Set(labels).size).toBe(labels.length);
  });
});

describe('documentation menu', () => {
  it('holds exactly the SPEC items, each once', () => {
    expect(hrefs(documentationLinks).toSorted()).toEqual(SPEC_DOCUMENTATION.toSorted());
  });

  it('flags exactly the legacy documentation and the legacy API viewer as legacy', () => {
    expect(hrefs(documentationLinks.filter((link) => link.legacy === true)).toSorted()).toEqual([
      '/developer/docs/legacy',
      '/playground/legacy',
    ]);
  });

  it('has only internal links', () => {
    expect(documentationLinks.every((link) => link.href.startsWith('/') && link.external !== true)).toBe(
      true,
    );
  });
});

describe('pricing menu', () => {
  it('is exactly personal use and commercial use pricing', () => {
    expect(hrefs(PRICING_MENU)).toEqual([
      '/developer/docs/pricing',
      '/developer/docs/pricing?planType=commercial',
    ]);
  });
});

describe('footer', () => {
  it('has the API, Company, Stock Screener and Legal groups in that order', () => {
    expect(FOOTER_GROUPS.map((group) => group.title)).toEqual(['API', 'Company', 'Stock Screener', 'Legal']);
  });

  it('holds exactly the SPEC internal links in each group', () => {
    for (const group of FOOTER_GROUPS) {
      const internal = group.links.filter((link) => link.external !== true);
      expect(hrefs(internal), group.title).toEqual(SPEC_FOOTER[group.title]);
    }
  });

  it('has one external link, an https professional-network page in the Company group', () => {
    const external = footerLinks.filter((link) => link.external === true);
    expect(external).toHaveLength(1);
    const company = FOOTER_GROUPS.find((group) => group.title === 'Company');
    expect(company?.links).toContain(external[0]);
    expect(new URL(external[0]?.href ?? '').protocol).toBe('https:');
  });

  it('marks every absolute link as external', () => {
    for (const link of footerLinks) expect(link.href.startsWith('/'), link.href).toBe(link.external !== true);
  });
});

describe('route lists', () => {
  it('lists the SPEC dashboard, auth, playground, company and content routes', () => {
    expect(ROUTE_LISTS.dashboard).toEqual([
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
    ]);
    expect(ROUTE_LISTS.docsAndContent).toEqual([
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
    ]);
    expect(ROUTE_LISTS.auth).toEqual([
      '/login',
      '/register',
      '/forgotpassword',
      '/devauth',
      '/enterprise-info',
    ]);
    expect(ROUTE_LISTS.playground).toEqual(['/playground']);
    expect(ROUTE_LISTS.company).toEqual(['/careers', '/careers/[id]', '/affiliates', '/contact']);
  });

  it('has no route twice', () => {
    const all = Object.values(ROUTE_LISTS).flat();
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('symbol pages', () => {
  it('are the 38 SPEC per-symbol pages', () => {
    expect(SYMBOL_PAGES).toHaveLength(38);
    expect([...SYMBOL_PAGES].toSorted()).toEqual(SPEC_SYMBOL_PAGES.toSorted());
  });

  it('use only symbol pages as tabs, each once per asset type', () => {
    const pages = new Set<string>(SYMBOL_PAGES);
    for (const [type, tabs] of Object.entries(SYMBOL_TABS)) {
      for (const tab of tabs) expect(pages.has(tab.page), `${type}: ${tab.page}`).toBe(true);
      expect(new Set(tabs.map((tab) => tab.page)).size, type).toBe(tabs.length);
    }
  });

  it('show the stock tabs in SPEC order', () => {
    expect(SYMBOL_TABS.stock.map(({ page, label }) => ({ page, label }))).toEqual(SPEC_STOCK_TABS);
  });

  it('include every page of the SPEC tab set of each asset type', () => {
    for (const [type, pages] of Object.entries(SPEC_TAB_SETS) as [SymbolKind, string[]][]) {
      const tabPages = SYMBOL_TABS[type].map((tab) => tab.page);
      expect(tabPages, type).toEqual(expect.arrayContaining(pages));
    }
  });

  it('start every asset type with an Overview tab and offer a Chart tab', () => {
    for (const [type, tabs] of Object.entries(SYMBOL_TABS)) {
      expect(tabs[0]?.label, type).toBe('Overview');
      expect(
        tabs.some((tab) => tab.page === 'chart'),
        type,
      ).toBe(true);
    }
  });
});

describe('pending routes', () => {
  // isPending can only be exercised against a real entry; once every page exists there is none.
  const sample = PENDING_ROUTES.find((route) => route !== '/') ?? '';

  it('lists no route twice, even with a trailing slash', () => {
    const normalised = PENDING_ROUTES.map(normalizePath);
    expect(new Set(normalised).size).toBe(normalised.length);
  });

  it('are written as plain paths', () => {
    for (const route of PENDING_ROUTES) expect(route, route).toBe(normalizePath(route));
  });

  it.skipIf(sample === '')(
    'are matched by isPending whatever the query string, hash or trailing slash',
    () => {
      expect(isPending(sample)).toBe(true);
      expect(isPending(`${sample}/`)).toBe(true);
      expect(isPending(`${sample}?planType=commercial`)).toBe(true);
      expect(isPending(`${sample}/?a=1#top`)).toBe(true);
    },
  );

  it.skipIf(sample === '')('does not match routes that only share a prefix with a pending route', () => {
    expect(isPending(`${sample}-other`)).toBe(false);
    expect(isPending(`${sample}/deeper`)).toBe(false);
  });

  it('does not treat the home page as pending', () => {
    expect(isPending('/')).toBe(false);
    expect(isPending('/?ref=nav')).toBe(false);
  });
});

describe('the dashboard’s navigation', () => {
  it('leads to pages that are all kept from signed-out visitors, except the public quickstart', () => {
    for (const link of DASHBOARD_NAV) {
      expect(routeAccess(link.href), link.href).toBe(
        link.href === '/developer/docs/quickstart' ? 'public' : 'user',
      );
    }
  });
});

describe('who may open the admin pages', () => {
  it('keeps the admin console and every page below it for staff, and Link User for administrators', () => {
    for (const link of ADMIN_NAV) expect(routeAccess(link.href), link.href).toBe('staff');
    expect(routeAccess(adminUserHref('7d4c1a2e-0000-4000-8000-000000000000'))).toBe('staff');
    expect(routeAccess('/profile-link')).toBe('admin');
    expect(routeAccess('/profile-link/')).toBe('admin');
  });

  it('counts administrators and any role containing analyst as staff, and nobody else', () => {
    expect(isStaffRole('admin')).toBe(true);
    expect(isStaffRole('analyst')).toBe(true);
    expect(isStaffRole('senior-analyst')).toBe(true);
    expect(isStaffRole('user')).toBe(false);
    expect(isStaffRole('')).toBe(false);
  });
});

describe('where Sign In and Sign Up open the auth pop-up', () => {
  it.each([
    '/developer/docs/pricing',
    '/developer/docs/pricing/',
    '/developer/docs/pricing?planType=commercial',
    '/developer/docs/pricing?couponCode=SPRING#plans',
  ])('opens it on the pricing page %s', (path) => {
    expect(authOpensPopup(path)).toBe(true);
  });

  it('opens it on every per-symbol page, whatever the symbol and query', () => {
    for (const page of SYMBOL_PAGES) expect(authOpensPopup(`/${page}/AAPL`)).toBe(true);
    expect(authOpensPopup('/index-summary/%5EGSPC')).toBe(true);
    expect(authOpensPopup('/financial-statements/MSFT/?period=quarter')).toBe(true);
  });

  it.each([
    ['the home page', '/'],
    ['the sign-in page', '/login'],
    ['the sign-up page', '/register'],
    ['a docs page', '/developer/docs/quickstart'],
    ['a page named like the pricing page', '/developer/docs/pricing-history'],
    ['a symbol page without a symbol', '/chart'],
    ['a symbol page with more after the symbol', '/chart/AAPL/extra'],
    ['a path that is no symbol page', '/datasets/crypto'],
  ])('keeps the full pages on %s', (_, path) => {
    expect(authOpensPopup(path)).toBe(false);
  });

  it('recognises the pricing pages by their path', () => {
    expect(isPricingPage('/developer/docs/pricing')).toBe(true);
    expect(isPricingPage('/developer/docs/pricing/')).toBe(true);
    expect(isPricingPage('/developer/docs/pricing?planType=commercial')).toBe(true);
    expect(isPricingPage('/developer/docs/pricing-history')).toBe(false);
    expect(isPricingPage('/register')).toBe(false);
  });
});
