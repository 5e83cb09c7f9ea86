import { Hono } from 'hono';
import { database, type AccountsEnv } from './context.ts';
import { apiError, handleApiError } from './errors.ts';
import { checkDatabase, checkRateLimits, healthRoutes } from './health.ts';
import { checkIdentityProvider } from '../auth/identity.ts';
import { bodyLimit, requireJson } from '../middleware/body.ts';
import { caller } from '../middleware/caller.ts';
import { originCheck, siteCors } from '../middleware/cors.ts';
import { securityHeaders } from '../middleware/security-headers.ts';
import { accountActionRoutes } from '../routes/account-actions.ts';
import { adminRoutes } from '../routes/admin.ts';
import { adminCouponRoutes } from '../routes/admin-coupons.ts';
import { affiliateRoutes } from '../routes/affiliates.ts';
import { companyRoutes } from '../routes/company.ts';
import { appServerRoutes } from '../routes/app-server.ts';
import { billingWebhookRoutes, portalBillingRoutes } from '../routes/billing.ts';
import { clientConfigRoutes } from '../routes/client-config.ts';
import { devauthRoutes } from '../routes/devauth.ts';
import { enterpriseRoutes } from '../routes/enterprise.ts';
import { helpRoutes } from '../routes/help.ts';
import { internalRoutes } from '../routes/internal.ts';
import { marketChartRoutes } from '../routes/market-chart.ts';
import { playgroundRoutes } from '../routes/playground.ts';
import { createMarketHistoryRoutes } from '../routes/market-history.ts';
import { devMailboxRoutes } from '../routes/dev-mailbox.ts';
import { apiUsageRoutes } from '../routes/api-usage.ts';
import { accountSettingsRoutes } from '../routes/account-settings.ts';
import { apiKeyRoutes } from '../routes/api-keys.ts';
import { requestLogRoutes } from '../routes/request-log.ts';
import { usageAlertRoutes } from '../routes/usage-alerts.ts';
import { emailVerificationRoutes } from '../routes/email-verification.ts';
import { portalAuthRoutes } from '../routes/portal-auth.ts';
import { portalRoutes } from '../routes/portal.ts';
import { statusRoutes } from '../routes/status.ts';
import { supportRoutes } from '../routes/support.ts';
import { symbolSearchRoutes } from '../routes/symbol-searches.ts';
import { testCheckoutRoutes } from '../routes/test-checkout.ts';

/** Request bodies of the accounts API are small forms; anything larger is refused with 413. */
export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * How the test-mode provider sends its events: through the whole accounts app (headers, CORS, origin
 * check, body limit, JSON check), exactly as a delivery from an external provider arrives.
 */
function deliverToWebhook(init: RequestInit): Promise<Response> {
  return Promise.resolve(accountsApp.request('/billing/webhook', init));
}

const api = new Hono<AccountsEnv>()
  .use(database(), caller())
  .route('/portal', portalRoutes)
  .route('/portal', portalAuthRoutes)
  .route('/portal', enterpriseRoutes)
  .route('/portal', helpRoutes)
  .route('/portal', companyRoutes)
  .route('/portal', affiliateRoutes)
  .route('/portal', emailVerificationRoutes)
  .route('/portal', accountActionRoutes)
  .route('/portal', apiUsageRoutes)
  .route('/portal', apiKeyRoutes)
  .route('/portal', accountSettingsRoutes)
  .route('/portal', requestLogRoutes)
  .route('/portal', usageAlertRoutes)
  .route('/portal', portalBillingRoutes(deliverToWebhook))
  .route('/billing', billingWebhookRoutes)
  .route('/billing', testCheckoutRoutes(deliverToWebhook))
  .route('/app', appServerRoutes)
  .route('/market', marketChartRoutes)
  .route('/market', createMarketHistoryRoutes())
  .route('/playground', playgroundRoutes)
  .route('/search', symbolSearchRoutes)
  .route('/admin', adminRoutes)
  .route('/admin/coupons', adminCouponRoutes)
  .route('/devauth', devauthRoutes)
  .route('/internal', internalRoutes)
  .route('/', supportRoutes)
  .route('/', clientConfigRoutes)
  .route('/', devMailboxRoutes);

/**
 * The accounts API served by the site under /api (the spec's portal and app server): health and
 * status first (they answer while the database is down), then protection (headers, CORS, origin
 * check, body limits, JSON only), then the database and the caller, then the routes.
 */
export const accountsApp = new Hono<AccountsEnv>()
  .use(securityHeaders())
  .route(
    '/',
    healthRoutes({
      database: () => checkDatabase(),
      identity: () => checkIdentityProvider(),
      limits: () => checkRateLimits(),
    }),
  )
  .route('/', statusRoutes())
  .use(siteCors(), originCheck(), bodyLimit(BODY_LIMIT_BYTES), requireJson())
  .route('/', api)
  .all('*', (c) => apiError(c, 404, `No API route for ${c.req.method} ${c.req.path}`));

accountsApp.onError(handleApiError);
