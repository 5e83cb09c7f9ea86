import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema.ts';
import { userData } from '../../src/server/auth/user-data.ts';
import { HARNESS_SECRET, openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

describe('the user data the browser keeps', () => {
  let h: DataApiHarness;
  const secretBefore = process.env.APP_SECRET;

  beforeAll(async () => {
    h = await openDataApiHarness({ seed: false });
    // The keys are issued under the harness's secret; the user data reveals them under the server's.
    process.env.APP_SECRET = HARNESS_SECRET;
  });

  afterAll(async () => {
    if (secretBefore === undefined) delete process.env.APP_SECRET;
    else process.env.APP_SECRET = secretBefore;
    await h.close();
  });

  const dataOf = async (planCode: string): Promise<Awaited<ReturnType<typeof userData>>> => {
    const key = await h.keyFor(planCode);
    const [user] = await h.db
      .select()
      .from(users)
      .where(eq(users.id, h.userOf(key)));
    if (user === undefined) throw new Error('no user');
    return userData(h.db, user);
  };

  it('carries the data tier of the account’s plan, so the site knows which sections to upsell', async () => {
    expect((await dataOf('free')).dataTier).toBe(0);
    expect((await dataOf('starterT1')).dataTier).toBe(1);
    expect((await dataOf('monthlyT2')).dataTier).toBe(2);
    expect((await dataOf('commercialBuild')).dataTier).toBe(4);
  });
});
