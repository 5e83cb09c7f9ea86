import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { billingProfiles } from '../../src/server/db/schema.ts';
import { recordInvoice, type InvoiceInput } from '../../src/server/services/billing/invoices.ts';
import { createUser } from '../../src/server/services/users.ts';
import { databaseTargets } from './databases.ts';

describe.each(databaseTargets())('invoice records on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  async function account(): Promise<string> {
    const user = await createUser(db(), {
      firebaseUid: randomUUID(),
      email: `${randomUUID()}@example.com`,
    });
    return user.id;
  }

  function input(userId: string, overrides: Partial<InvoiceInput> = {}): InvoiceInput {
    return {
      userId,
      provider: 'test',
      providerInvoiceId: `in_${randomUUID()}`,
      subscriptionId: null,
      planCode: 'monthlyT2',
      status: 'paid',
      currency: 'usd',
      lines: [{ description: 'Professional, 1 month', amountCents: 3900 }],
      taxCents: 0,
      periodStart: new Date('2026-11-01T00:00:00Z'),
      periodEnd: new Date('2026-12-01T00:00:00Z'),
      issuedAt: new Date('2026-11-01T00:00:00Z'),
      paidAt: new Date('2026-11-01T00:00:00Z'),
      cardLast4: '4242',
      ...overrides,
    };
  }

  it('numbers the invoices of a provider account one after another, without gaps, even when issued at once', async () => {
    const userId = await account();
    const first = await recordInvoice(db(), input(userId, { provider: 'sequence-check' }));
    const rest = await Promise.all(
      [1, 2, 3, 4].map(() =>
        db().transaction((tx) => recordInvoice(tx, input(userId, { provider: 'sequence-check' }))),
      ),
    );
    const numbers = [first, ...rest].map((invoice) => invoice.number).sort();
    expect(numbers).toEqual([
      'SEQUENCE-CHECK-000001',
      'SEQUENCE-CHECK-000002',
      'SEQUENCE-CHECK-000003',
      'SEQUENCE-CHECK-000004',
      'SEQUENCE-CHECK-000005',
    ]);
  });

  it('gives a rolled-back invoice its number back', async () => {
    const userId = await account();
    await recordInvoice(db(), input(userId, { provider: 'rollback-check' }));
    await expect(
      db().transaction(async (tx) => {
        await recordInvoice(tx, input(userId, { provider: 'rollback-check' }));
        throw new Error('the event failed after the invoice');
      }),
    ).rejects.toThrow('the event failed');
    const next = await recordInvoice(db(), input(userId, { provider: 'rollback-check' }));
    expect(next.number).toBe('ROLLBACK-CHECK-000002');
  });

  it('stores a reported invoice once: the same provider invoice again keeps its number and amounts', async () => {
    const userId = await account();
    const report = input(userId);
    const first = await recordInvoice(db(), report);
    const again = await recordInvoice(db(), {
      ...report,
      lines: [{ description: 'changed', amountCents: 1 }],
    });
    expect(again.id).toBe(first.id);
    expect(again.number).toBe(first.number);
    expect(again.totalCents).toBe(3900);
  });

  it('settles an open invoice once, and a late "open" report does not reopen a paid one', async () => {
    const userId = await account();
    const report = input(userId, { status: 'open', paidAt: null, cardLast4: null });
    const open = await recordInvoice(db(), report);
    expect(open.status).toBe('open');
    const paidAt = new Date('2026-11-04T00:00:00Z');
    const paid = await recordInvoice(db(), { ...report, status: 'paid', paidAt, cardLast4: '4242' });
    expect(paid).toMatchObject({ id: open.id, status: 'paid', paidAt, cardLast4: '4242' });
    const late = await recordInvoice(db(), report);
    expect(late.status).toBe('paid');
  });

  it('adds the lines and the tax into the total, a proration credit counting against the charge', async () => {
    const userId = await account();
    const invoice = await recordInvoice(
      db(),
      input(userId, {
        lines: [
          { description: 'Unused time on Starter', amountCents: -950 },
          { description: 'Remaining time on Professional', amountCents: 1950 },
        ],
        taxCents: 200,
      }),
    );
    expect(invoice).toMatchObject({ subtotalCents: 1000, taxCents: 200, totalCents: 1200 });
  });

  it('copies the billing name and address the account has when the invoice is issued', async () => {
    const userId = await account();
    const address = {
      line1: '1 Analytical Way',
      line2: '',
      city: 'London',
      postalCode: 'N1 9GU',
      country: 'GB',
    };
    await db().insert(billingProfiles).values({ userId, name: 'Ada Lovelace Ltd', address });
    const invoice = await recordInvoice(db(), input(userId));
    expect(invoice).toMatchObject({ billingName: 'Ada Lovelace Ltd', billingAddress: address });
  });
});
