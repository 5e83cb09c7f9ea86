/**
 * Where office.js comes from: Microsoft's CDN, the only supported source of Office's JavaScript API
 * (add-ins must not bundle their own copy). The add-in's pages load it, and their policy allows this
 * origin (src/server/app/content-security-policy.ts).
 */
export const OFFICE_JS_URL = 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js';

/** The origin office.js loads its further scripts from. */
export const OFFICE_JS_ORIGIN = new URL(OFFICE_JS_URL).origin;

/**
 * Where Office on the web frames an add-in's pages: Excel for the web runs under these domains
 * (Microsoft 365, consumer OneDrive, SharePoint-hosted workbooks). Desktop Excel shows the pages in a
 * webview of its own, which no frame-ancestors rule concerns.
 */
export const OFFICE_FRAME_ANCESTORS: readonly string[] = [
  'https://*.officeapps.live.com',
  'https://*.office.com',
  'https://*.office365.com',
  'https://*.microsoft365.com',
  'https://*.cloud.microsoft',
  'https://*.sharepoint.com',
  'https://*.live.com',
];
