import { randomUUID } from 'node:crypto';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { coupons } from '../../src/server/db/schema.ts';
import { NO_SUCH_INVOICE_MESSAGE } from '../../src/server/routes/billing.ts';
import { recordInvoice } from '../../src/server/services/billing/invoices.ts';
import type { BillingProfileView, InvoiceView } from '../../src/lib/invoices.ts';
import { billingAppOn, bearer, post } from './accounts-app.ts';
import {
  type SignedInAccount,
  signedInAccount,
  TEST_CARD,
  useBillingEnvironment,
} from './billing-support.ts';
import { databaseTargets } from './databases.ts';

type Json = Record<string, unknown>;

const CARD = TEST_CARD;

const PROFILE = {
  name: 'Analytical Engines Ltd',
  address: {
    line1: '12 Babbage Street',
    line2: 'Floor 3',
    city: 'Cambridge',
    postalCode: 'CB2 1TN',
    country: 'GB',
  },
};

useBillingEnvironment();

async function json<T = Json>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

function put(body: unknown, token: string): RequestInit {
  return { ...post(body, { Authorization: `Bearer ${token}` }), method: 'PUT' };
}

describe.each(databaseTargets())('invoices on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;
  const { app } = billingAppOn(db);

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  /** A signed-in account on the free plan; `role` makes it an administrator. */
  const account = (role: 'user' | 'admin' = 'user'): Promise<SignedInAccount> =>
    signedInAccount(db(), 'invoices', role);

  /** Opens a checkout for Professional (with a coupon if given) and pays it with 4242 on the test-mode page. */
  async function subscribe(token: string, couponCode?: string, card: Json = CARD): Promise<void> {
    const opened = await app.request(
      '/portal/billing/checkout',
      post(
        { planCode: 'monthlyT2', ...(couponCode ? { couponCode } : {}) },
        { Authorization: `Bearer ${token}` },
      ),
    );
    expect(opened.status).toBe(200);
    const id =
      String((await json(opened)).url)
        .split('/')
        .at(-1) ?? '';
    expect((await app.request(`/billing/test-checkout/${id}/pay`, post(card))).status).toBe(200);
  }

  async function invoicesOf(token: string): Promise<InvoiceView[]> {
    const res = await app.request('/portal/billing/invoices', bearer(token));
    expect(res.status).toBe(200);
    return (await json<{ invoices: InvoiceView[] }>(res)).invoices;
  }

  async function pdfText(res: Response): Promise<string> {
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    const { text } = await extractText(bytes, { mergePages: true });
    return text;
  }

  it('records the paid checkout as a numbered TEST invoice with the plan, the period and the amount', async () => {
    const { token } = await account();
    await subscribe(token);
    const [invoice] = await invoicesOf(token);
    expect(invoice).toMatchObject({
      provider: 'test',
      status: 'paid',
      planCode: 'monthlyT2',
      planName: 'Professional',
      currency: 'usd',
      subtotalCents: 3900,
      taxCents: 0,
      totalCents: 3900,
      cardLast4: '4242',
    });
    expect(invoice?.number).toMatch(/^TEST-\d{6}$/);
    expect(invoice?.lines).toEqual([
      {
        description: expect.stringMatching(/^Professional, .+ to .+/) as string,
        amountCents: 3900,
      },
    ]);
  });

  it('numbers the invoices of the test-mode account one after another across accounts', async () => {
    const first = await account();
    const second = await account();
    await subscribe(first.token);
    await subscribe(second.token);
    const [a] = await invoicesOf(first.token);
    const [b] = await invoicesOf(second.token);
    const sequence = (number = ''): number => Number(number.split('-').at(-1));
    expect(sequence(b?.number)).toBe(sequence(a?.number) + 1);
  });

  it("lists only the signed-in account's invoices, newest first", async () => {
    const owner = await account();
    const other = await account();
    await subscribe(other.token);
    const base = {
      provider: 'test',
      subscriptionId: null,
      planCode: 'monthlyT2',
      status: 'paid' as const,
      currency: 'usd',
      lines: [{ description: 'Professional', amountCents: 3900 }],
      taxCents: 0,
      paidAt: null,
      cardLast4: null,
    };
    const older = await recordInvoice(db(), {
      ...base,
      userId: owner.userId,
      providerInvoiceId: `in_${randomUUID()}`,
      periodStart: new Date('2026-09-01T00:00:00Z'),
      periodEnd: new Date('2026-10-01T00:00:00Z'),
      issuedAt: new Date('2026-09-01T00:00:00Z'),
    });
    const newer = await recordInvoice(db(), {
      ...base,
      userId: owner.userId,
      providerInvoiceId: `in_${randomUUID()}`,
      status: 'open',
      periodStart: new Date('2026-10-01T00:00:00Z'),
      periodEnd: new Date('2026-11-01T00:00:00Z'),
      issuedAt: new Date('2026-10-01T00:00:00Z'),
    });
    const listed = await invoicesOf(owner.token);
    expect(listed.map((invoice) => invoice.number)).toEqual([newer.number, older.number]);
    expect(listed.map((invoice) => invoice.status)).toEqual(['open', 'paid']);
    const [othersInvoice] = await invoicesOf(other.token);
    expect(listed.map((invoice) => invoice.number)).not.toContain(othersInvoice?.number);
  });

  it('refuses a visitor who is not signed in with 401', async () => {
    expect((await app.request('/portal/billing/invoices')).status).toBe(401);
    expect((await app.request('/portal/billing/profile')).status).toBe(401);
  });

  it('answers 404 to another account for the invoice and its PDF, as for a number that does not exist, while an administrator reads both', async () => {
    const owner = await account();
    await subscribe(owner.token);
    const [invoice] = await invoicesOf(owner.token);
    const number = invoice?.number ?? '';
    const stranger = await account();
    for (const path of [`/portal/billing/invoices/${number}`, `/portal/billing/invoices/${number}/pdf`]) {
      const refused = await app.request(path, bearer(stranger.token));
      expect(refused.status).toBe(404);
      expect(await json(refused)).toEqual({ error: NO_SUCH_INVOICE_MESSAGE });
    }
    const missing = await app.request('/portal/billing/invoices/TEST-999999/pdf', bearer(owner.token));
    expect(missing.status).toBe(404);
    expect(await json(missing)).toEqual({ error: NO_SUCH_INVOICE_MESSAGE });

    const admin = await account('admin');
    const read = await app.request(`/portal/billing/invoices/${number}`, bearer(admin.token));
    expect(read.status).toBe(200);
    expect((await json<{ invoice: InvoiceView }>(read)).invoice).toMatchObject({ number, totalCents: 3900 });
    const pdf = await app.request(`/portal/billing/invoices/${number}/pdf`, bearer(admin.token));
    expect(pdf.status).toBe(200);
    expect(await pdfText(pdf)).toContain(number);
  });

  it('invoice PDF contains the amounts: a real PDF with the number, the billing name and every amount', async () => {
    const code = `HALF${randomUUID().slice(0, 6).toUpperCase()}`;
    await db().insert(coupons).values({ code, percentOff: 25 });
    const { token } = await account();
    await subscribe(token, code);
    const [invoice] = await invoicesOf(token);
    expect(invoice?.lines.map((line) => line.amountCents)).toEqual([3900, -975]);
    const number = invoice?.number ?? '';

    const res = await app.request(`/portal/billing/invoices/${number}/pdf`, bearer(token));
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.headers.get('Content-Disposition')).toBe(
      `attachment; filename="tickerlake-invoice-${number}.pdf"`,
    );
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const text = await pdfText(res);
    for (const expected of [
      number,
      'Ada Lovelace',
      '1 Analytical Way',
      'N1 9GU London',
      'United Kingdom',
      `Coupon ${code}`,
      '$39.00',
      '-$9.75',
      'Subtotal $29.25',
      'Total (USD) $29.25',
      'Status: Paid',
      'support@tickerlake.com',
      'TEST MODE',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Tax');
  });

  it('prints a tax line on the PDF when the invoice has tax', async () => {
    const { userId, token } = await account();
    const invoice = await recordInvoice(db(), {
      userId,
      provider: 'test',
      providerInvoiceId: `in_${randomUUID()}`,
      subscriptionId: null,
      planCode: 'monthlyT2',
      status: 'paid',
      currency: 'usd',
      lines: [{ description: 'Professional', amountCents: 3900 }],
      taxCents: 780,
      periodStart: new Date('2026-11-01T00:00:00Z'),
      periodEnd: new Date('2026-12-01T00:00:00Z'),
      issuedAt: new Date('2026-11-01T00:00:00Z'),
      paidAt: new Date('2026-11-01T00:00:00Z'),
      cardLast4: '4242',
    });
    const text = await pdfText(
      await app.request(`/portal/billing/invoices/${invoice.number}/pdf`, bearer(token)),
    );
    expect(text).toContain('Tax $7.80');
    expect(text).toContain('Total (USD) $46.80');
  });

  it("keeps the card form's name and address as the account's billing details when it has none, and never overwrites them", async () => {
    const { token } = await account();
    const empty = await json<{ profile: BillingProfileView }>(
      await app.request('/portal/billing/profile', bearer(token)),
    );
    expect(empty.profile).toEqual({ name: '', address: null });
    await subscribe(token);
    const kept = await json<{ profile: BillingProfileView }>(
      await app.request('/portal/billing/profile', bearer(token)),
    );
    expect(kept.profile).toEqual({
      name: 'Ada Lovelace',
      address: { line1: '1 Analytical Way', line2: '', city: 'London', postalCode: 'N1 9GU', country: 'GB' },
    });

    const other = await account();
    expect((await app.request('/portal/billing/profile', put(PROFILE, other.token))).status).toBe(200);
    await subscribe(other.token, undefined, { ...CARD, name: 'Someone Else', city: 'Paris', country: 'FR' });
    const after = await json<{ profile: BillingProfileView }>(
      await app.request('/portal/billing/profile', bearer(other.token)),
    );
    expect(after.profile).toEqual(PROFILE);
  });

  it('puts an updated billing name and address on the next invoice and leaves the earlier ones as issued', async () => {
    const { token } = await account();
    await subscribe(token);
    const saved = await app.request('/portal/billing/profile', put(PROFILE, token));
    expect(saved.status).toBe(200);
    expect(await json(saved)).toEqual({ profile: PROFILE });
    const upgraded = await app.request(
      '/portal/billing/change-plan',
      post({ planCode: 'monthlyT3' }, { Authorization: `Bearer ${token}` }),
    );
    expect(upgraded.status).toBe(200);
    const [next, earlier] = await invoicesOf(token);
    expect(next).toMatchObject({ billingName: PROFILE.name, billingAddress: PROFILE.address });
    expect(earlier).toMatchObject({
      billingName: 'Ada Lovelace',
      billingAddress: { city: 'London', line1: '1 Analytical Way' },
    });
    const earlierPdf = await pdfText(
      await app.request(`/portal/billing/invoices/${earlier?.number ?? ''}/pdf`, bearer(token)),
    );
    expect(earlierPdf).toContain('Ada Lovelace');
    expect(earlierPdf).not.toContain(PROFILE.name);
  });

  it.each([
    ['an empty name', { ...PROFILE, name: '  ' }, 'name', 'Enter the name for your invoices.'],
    [
      'a missing city',
      { ...PROFILE, address: { ...PROFILE.address, city: '' } },
      'address.city',
      'Enter the city.',
    ],
    [
      'an unknown country',
      { ...PROFILE, address: { ...PROFILE.address, country: 'ZZ' } },
      'address.country',
      'Choose the country.',
    ],
    [
      'a postal code that is too long',
      { ...PROFILE, address: { ...PROFILE.address, postalCode: '1'.repeat(21) } },
      'address.postalCode',
      'Shorten the postal code to at most 20 characters.',
    ],
    ['an unknown field', { ...PROFILE, vatNumber: 'GB123' }, 'vatNumber', 'Unknown field'],
  ])('refuses %s with 400 naming the field and saves nothing', async (_label, body, field, message) => {
    const { token } = await account();
    const res = await app.request('/portal/billing/profile', put(body, token));
    expect(res.status).toBe(400);
    const answer = await json<{ field: string; issues: { path: string; message: string }[] }>(res);
    expect(answer.field).toBe(field);
    expect(answer.issues).toContainEqual({ path: field, message });
    const stored = await json<{ profile: BillingProfileView }>(
      await app.request('/portal/billing/profile', bearer(token)),
    );
    expect(stored.profile).toEqual({ name: '', address: null });
  });
});
