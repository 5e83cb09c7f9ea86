import { readFileSync } from 'node:fs';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { pricePlans, type PricePlan } from '../../src/server/db/schema.ts';

/*
 * The Plans and Rate limits guides give every plan's data tier, history and call limits. They are
 * held here to the catalogue the migrations create (the one the data API enforces), on the embedded
 * database: a catalogue change that leaves the guides behind fails this test.
 */

function guide(id: string): string {
  return readFileSync(path.resolve('src/content/docs', `${id}.md`), 'utf8');
}

/** A Markdown table's body rows as cells, the table found by its header's first cell. */
function tableRows(markdown: string, firstHeader: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${firstHeader} `));
  if (start < 0) throw new Error(`no table starting with "${firstHeader}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** A plan's name in the guides: monthly and annual billing of one plan share a row. */
const familyName = (plan: PricePlan): string => plan.name.replace(/ \(annual\)$/, '');
const count = (value: number | null): string => (value === null ? 'no limit' : value.toLocaleString('en-US'));
const history = (years: number | null): string =>
  years === null ? 'all' : `${String(years)} year${years === 1 ? '' : 's'}`;

describe('the plan guides', () => {
  let database: Database;
  let families: Map<string, PricePlan[]>;

  beforeAll(async () => {
    database = openDatabase({ dataDir: 'memory://', migrationsDir: path.resolve('db/migrations') });
    await database.migrate();
    const plans = await database.db
      .select()
      .from(pricePlans)
      .where(eq(pricePlans.active, true))
      .orderBy(asc(pricePlans.sortOrder));
    families = new Map();
    for (const plan of plans)
      families.set(familyName(plan), [...(families.get(familyName(plan)) ?? []), plan]);
  });

  afterAll(async () => {
    await database.close();
  });

  it('give every plan on sale its data tier, history and limits as the catalogue has them', () => {
    const rows = tableRows(guide('plans'), 'Plan');
    expect(rows.map((row) => row[0])).toEqual([...families.keys()]);
    for (const [name, plans] of families) {
      const row = rows.find((candidate) => candidate[0] === name) ?? [];
      for (const plan of plans) {
        expect(row[2], `${plan.name} data tier`).toBe(String(plan.dataTier));
        expect(row[3], `${plan.name} history`).toBe(history(plan.historyYears));
        expect(row[4], `${plan.name} calls a minute`).toBe(count(plan.callsPerMinute));
        expect(row[5], `${plan.name} calls a day`).toBe(count(plan.callsPerDay));
        expect(row[1], `${plan.name} use`).toBe(plan.planType === 'commercial' ? 'commercial' : 'personal');
      }
    }
  });

  it('give every plan on sale its call limits on the rate limits page', () => {
    const rows = tableRows(guide('rate-limits'), 'Plan');
    expect(rows).toHaveLength(families.size);
    for (const [name, plans] of families) {
      const row = rows.find((candidate) => candidate[0]?.startsWith(name)) ?? [];
      for (const plan of plans) {
        expect(row[1], `${plan.name} calls a minute`).toBe(count(plan.callsPerMinute));
        expect(row[2], `${plan.name} calls a day`).toBe(count(plan.callsPerDay));
      }
    }
  });
});
