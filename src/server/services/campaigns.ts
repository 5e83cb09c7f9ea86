import type { Db } from '../db/client.ts';
import { campaigns } from '../db/schema.ts';

/** The UTM fields of SPEC §3, named as the client sends them. */
export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];

/** Longest value kept for any field; session storage is client-controlled, so it is bounded here. */
export const CAMPAIGN_FIELD_LIMIT = 500;

export type CampaignInput = { email?: string | null | undefined } & Partial<
  Record<UtmField, string | null | undefined>
>;

export type CampaignRecord = { id: string; email: string; createdAt: Date } & Record<UtmField, string>;

export type SaveCampaignResult =
  | { saved: true; campaign: CampaignRecord }
  | { saved: false; reason: 'missing_email' | 'missing_utm_source' | 'too_long' };

/**
 * Records where a new account came from. SPEC §5: nothing is stored without an email and a utm_source,
 * since such a row could not be attributed; this is a normal outcome, not an error.
 */
export async function saveCampaign(db: Db, input: CampaignInput): Promise<SaveCampaignResult> {
  const email = (input.email ?? '').trim();
  if (email === '') return { saved: false, reason: 'missing_email' };
  const utm = Object.fromEntries(UTM_FIELDS.map((field) => [field, (input[field] ?? '').trim()])) as Record<
    UtmField,
    string
  >;
  if (utm.utm_source === '') return { saved: false, reason: 'missing_utm_source' };
  if ([email, ...Object.values(utm)].some((value) => value.length > CAMPAIGN_FIELD_LIMIT)) {
    return { saved: false, reason: 'too_long' };
  }
  const [row] = await db
    .insert(campaigns)
    .values({
      email,
      utmSource: utm.utm_source,
      utmMedium: utm.utm_medium,
      utmCampaign: utm.utm_campaign,
      utmTerm: utm.utm_term,
      utmContent: utm.utm_content,
    })
    .returning();
  if (!row) throw new Error('Campaign insert returned no row');
  return {
    saved: true,
    campaign: {
      id: row.id,
      email: row.email,
      utm_source: row.utmSource,
      utm_medium: row.utmMedium,
      utm_campaign: row.utmCampaign,
      utm_term: row.utmTerm,
      utm_content: row.utmContent,
      createdAt: row.createdAt,
    },
  };
}
