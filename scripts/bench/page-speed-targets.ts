/**
 * The pages `npm run bench` measures with Lighthouse, grouped by page type, each type with the
 * product's page-speed targets. This is the one list: a new kind of page (docs, blog, datasets…)
 * is measured by adding its pages here, to its type's entry or to a new one.
 */

/**
 * The most JavaScript a content page may transfer: 60 KB (of 1,024 bytes) of compressed scripts.
 * `npm run size` states it next to the gzip sizes it finds in the build.
 */
export const CONTENT_PAGE_SCRIPT_BYTES = 60 * 1024;

/** What one page type must reach on Lighthouse's mobile preset; a figure without a target is only reported. */
export interface PageSpeedTargets {
  /** The lowest performance score (0–100) that passes. */
  performance: number;
  /** Largest Contentful Paint, at most, in milliseconds. */
  lcpMs?: number;
  /** Total Blocking Time, at most, in milliseconds. */
  tbtMs?: number;
  /** Cumulative Layout Shift, at most (as Lighthouse shows it, to three decimals). */
  cls?: number;
  /** JavaScript transferred (the scripts' compressed bytes and headers), at most. */
  scriptBytes?: number;
}

/** One page to measure. */
export interface PageSpeedPage {
  /** Site path, with the query string if any. */
  path: string;
  /** Measured signed in as a freshly created, verified account (pages that show an account's data). */
  signedIn?: boolean;
}

/** A kind of page, its targets and the pages that represent it. */
export interface PageSpeedPageType {
  /** Name of the page type, as the report prints it. */
  type: string;
  targets: PageSpeedTargets;
  pages: readonly PageSpeedPage[];
}

/** What a content page's loading must reach, whatever scripts it may load later. */
const CONTENT_PAGE_LOADING = { performance: 100, lcpMs: 1_600, tbtMs: 50, cls: 0 } as const;

/** The content pages' targets, shared by every content page type (home, legal; later docs, blog, datasets). */
export const CONTENT_PAGE_TARGETS: PageSpeedTargets = {
  ...CONTENT_PAGE_LOADING,
  scriptBytes: CONTENT_PAGE_SCRIPT_BYTES,
};

/**
 * The help center: a content page whose contact form, at the end of the page, hydrates (with React)
 * only once it scrolls into view. Lighthouse loads the page without scrolling, so the content
 * targets apply to what it measures; the script budget is left out because `npm run size` counts the
 * form's island, which a reader who never reaches the form never downloads.
 */
export const HELP_CENTER_TARGETS: PageSpeedTargets = { ...CONTENT_PAGE_LOADING };

/** Every page type measured, in report order. */
export const PAGE_SPEED_TARGETS: readonly PageSpeedPageType[] = [
  { type: 'home', targets: CONTENT_PAGE_TARGETS, pages: [{ path: '/' }] },
  { type: 'legal', targets: CONTENT_PAGE_TARGETS, pages: [{ path: '/terms-of-service' }] },
  { type: 'docs landing', targets: CONTENT_PAGE_TARGETS, pages: [{ path: '/developer/docs' }] },
  { type: 'docs guide', targets: CONTENT_PAGE_TARGETS, pages: [{ path: '/developer/docs/quickstart' }] },
  {
    type: 'docs reference',
    targets: CONTENT_PAGE_TARGETS,
    pages: [{ path: '/developer/docs/stable/quote' }],
  },
  { type: 'faqs', targets: CONTENT_PAGE_TARGETS, pages: [{ path: '/faqs' }] },
  { type: 'help center', targets: HELP_CENTER_TARGETS, pages: [{ path: '/help-center' }] },
  { type: 'docs status', targets: CONTENT_PAGE_TARGETS, pages: [{ path: '/developer/docs/status' }] },
  { type: 'pricing', targets: CONTENT_PAGE_TARGETS, pages: [{ path: '/developer/docs/pricing' }] },
  { type: 'blog index', targets: CONTENT_PAGE_TARGETS, pages: [{ path: '/blogs' }] },
  {
    type: 'blog article',
    targets: CONTENT_PAGE_TARGETS,
    pages: [{ path: '/discounted-cash-flow-blogs/what-a-dcf-is-and-when-it-misleads' }],
  },
  {
    type: 'dataset',
    targets: CONTENT_PAGE_TARGETS,
    pages: [{ path: '/datasets/market-data-historic' }],
  },
  {
    type: 'education article',
    targets: CONTENT_PAGE_TARGETS,
    pages: [{ path: '/education/discounted-cash-flow-step-by-step' }],
  },
  {
    type: 'how-to guide',
    targets: CONTENT_PAGE_TARGETS,
    pages: [{ path: '/how-to/build-a-stock-screener-in-python' }],
  },
  { type: 'market page', targets: CONTENT_PAGE_TARGETS, pages: [{ path: '/top-stock-gainers' }] },
  { type: 'market news', targets: CONTENT_PAGE_TARGETS, pages: [{ path: '/market-news' }] },
  { type: 'company page', targets: CONTENT_PAGE_TARGETS, pages: [{ path: '/careers' }] },
  { type: 'sign-in', targets: { performance: 98 }, pages: [{ path: '/login' }] },
  { type: 'sign-up', targets: { performance: 98 }, pages: [{ path: '/register' }] },
  {
    type: 'symbol',
    targets: { performance: 98 },
    pages: [{ path: '/financial-summary/AAPL' }, { path: '/income-statement/AAPL' }],
  },
  { type: 'symbol chart', targets: { performance: 95 }, pages: [{ path: '/chart/AAPL' }] },
  { type: 'API viewer', targets: { performance: 95 }, pages: [{ path: '/playground' }] },
  {
    type: 'formula explorer',
    targets: { performance: 95 },
    pages: [{ path: '/developer/docs/excel-add-on-explorer' }],
  },
  {
    type: 'dashboard',
    targets: { performance: 95 },
    pages: [{ path: '/developer/docs/dashboard', signedIn: true }],
  },
];
