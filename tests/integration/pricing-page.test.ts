import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import { exampleQuery } from '../../src/server/docs/reference.ts';
import { loadPricingPage, type PricingPageView } from '../../src/server/pricing/pricing-page.ts';
import { PRICE_PLANS_ERROR_MESSAGE } from '../../src/lib/messages.ts';
import { coupons } from '../../src/server/db/schema.ts';
import { openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

/*
 * The pricing page says what each plan opens; these tests hold it to what the data API answers: a
 * key on a plan reads every endpoint its card (or a cheaper card) lists, and is refused with 402 an
 * endpoint that only a dearer card lists.
 */

let h: DataApiHarness;
let personal: PricingPageView;

beforeAll(async () => {
  h = await openDataApiHarness();
  personal = await loadPricingPage(() => Promise.resolve(h.db), 'personal', '');
}, 120_000);

afterAll(async () => {
  await h.close();
});

/** The example call of an endpoint, as its reference page shows it (sample symbols, in range). */
async function status(path: string, key: string): Promise<number> {
  const endpoint = ALL_ENDPOINTS.find((candidate) => candidate.path === path);
  if (endpoint === undefined) throw new Error(`no endpoint ${path}`);
  const query = Object.fromEntries(exampleQuery(endpoint));
  // Calls a minute are not what is tested here: each call starts a new minute.
  h.clock.advance(61_000);
  const res = await h.request(`/stable/${path}`, { ...query, apikey: key });
  return res.status;
}

describe('the pricing page', () => {
  it('lists the personal plans of the catalogue, cheapest first, Professional chosen by default', () => {
    expect(personal.errorMessage).toBe('');
    expect(personal.products.map((product) => product.name)).toEqual([
      'Free',
      'Starter',
      'Professional',
      'Power',
    ]);
    expect(personal.products.find((product) => product.highlighted)?.monthly?.code).toBe('monthlyT2');
  });

  it('promises no endpoint a plan’s key cannot read, and no endpoint of a dearer plan to a cheaper one', async () => {
    const products = personal.products;
    for (const [index, product] of products.entries()) {
      const code = product.monthly?.code ?? product.annual?.code ?? '';
      const key = await h.keyFor(code);
      const opened = products
        .slice(0, index + 1)
        .flatMap((card) =>
          card.opens.groups.flatMap((group) => group.endpoints.map((endpoint) => endpoint.path)),
        );
      for (const path of opened) expect(await status(path, key), `${code} reads ${path}`).toBe(200);
      const next = products[index + 1]?.opens.groups[0]?.endpoints[0]?.path;
      if (next !== undefined) expect(await status(next, key), `${code} reads ${next}`).toBe(402);
    }
  }, 120_000);

  it('prices the cards with a valid coupon and says why another is refused', async () => {
    await h.db.insert(coupons).values({ code: 'LAUNCH20', percentOff: 20, active: true });
    const priced = await loadPricingPage(() => Promise.resolve(h.db), 'personal', 'launch20');
    expect(priced.couponCode).toBe('LAUNCH20');
    const professional = priced.products.find((product) => product.name === 'Professional');
    expect(professional?.monthly?.discountedPriceCents).toBe(3120);
    const refused = await loadPricingPage(() => Promise.resolve(h.db), 'personal', 'NOPE');
    expect(refused.couponCodeError).toBe('Coupon code NOPE is not valid.');
    expect(
      refused.products.find((product) => product.name === 'Professional')?.monthly?.discountedPriceCents,
    ).toBeNull();
  });

  it('shows SPEC’s message instead of plans when the catalogue cannot be read', async () => {
    const view = await loadPricingPage(
      () => Promise.reject(new Error('connect ECONNREFUSED')),
      'personal',
      '',
    );
    expect(view.products).toEqual([]);
    expect(view.errorMessage).toBe(PRICE_PLANS_ERROR_MESSAGE);
  });
});
