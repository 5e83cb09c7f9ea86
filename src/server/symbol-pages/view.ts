/**
 * Pieces shared by several panels' view models: table columns, links and the gate of figures that
 * only some plans include. Plain data, so the components render them without reaching the server.
 */
import type { Db } from '../db/client.ts';
import { upgradePlanName } from './premium.ts';

/** A column of a data table (the symbol pages' DataTable renders these). */
export interface TableColumn {
  label: string;
  /** Right-aligned, tabular digits. */
  numeric?: boolean;
}

/** A link of a panel's navigation; `current` marks the page being shown. */
export interface PanelLink {
  label: string;
  href: string;
  current: boolean;
}

/** What the PremiumContent wrapper needs to cover figures that need a plan. */
export interface PremiumGate {
  /** The data tier the figures need; undefined when they are free to everyone. */
  tier: number | undefined;
  /** The cheapest active plan that reaches the tier; undefined when none does (or no tier). */
  plan: string | undefined;
}

/** The gate of figures needing `tier`, naming the plan to buy (no query when nothing is gated). */
export async function premiumGate(db: Db, tier: number | undefined): Promise<PremiumGate> {
  return { tier, plan: tier === undefined ? undefined : await upgradePlanName(db, tier) };
}

/** A statistic of a stat grid: the term over its formatted value, optionally a link. */
export interface Stat {
  term: string;
  value: string;
  /** Makes the value a link (same-site path or an already checked external address). */
  href?: string | undefined;
  /** Set for links leaving the site. */
  external?: boolean;
}
