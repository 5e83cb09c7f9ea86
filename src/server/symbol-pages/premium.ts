import { and, asc, eq, gte } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pricePlans } from '../db/schema.ts';

/**
 * The name of the cheapest active plan whose data reaches `tier`, so an upsell can say what to buy
 * (the data API's 402 names the same plan). Undefined when no plan on sale reaches it.
 */
export async function upgradePlanName(db: Db, tier: number): Promise<string | undefined> {
  const [plan] = await db
    .select({ name: pricePlans.name })
    .from(pricePlans)
    .where(and(eq(pricePlans.active, true), gte(pricePlans.dataTier, tier)))
    .orderBy(asc(pricePlans.priceCents), asc(pricePlans.sortOrder))
    .limit(1);
  return plan?.name;
}
