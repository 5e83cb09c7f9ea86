import { eq, sql } from 'drizzle-orm';
import { PGLITE_ANALYZED_TABLES } from '../../src/server/db/client.ts';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema.ts';
import { databaseTargets } from './databases.ts';

describe.each(databaseTargets())('the migrated schema on $name', (target) => {
  it('keeps one account per email whatever its letter case', async () => {
    const database = await target.open();
    try {
      await database.db
        .insert(users)
        .values({ firebaseUid: 'u1', email: 'Ann@Example.com', username: 'ann' });
      await expect(
        database.db.insert(users).values({ firebaseUid: 'u2', email: 'ann@example.com', username: 'ann2' }),
      ).rejects.toThrow();
    } finally {
      await database.close();
    }
  });

  it('gives a new account the free plan, the user role and no flags', async () => {
    const database = await target.open();
    try {
      await database.db.insert(users).values({ firebaseUid: 'u3', email: 'bo@example.com', username: 'bo' });
      const [row] = await database.db.select().from(users).where(eq(users.username, 'bo'));
      expect(row).toMatchObject({
        planCode: 'free',
        role: 'user',
        legacy: false,
        blocked: false,
        isPremium: false,
      });
    } finally {
      await database.close();
    }
  });
});

describe('the embedded database’s planner statistics', () => {
  it('are gathered for the tables the console searches as soon as it is migrated', async () => {
    const [pglite] = databaseTargets();
    if (pglite?.name !== 'PGlite') throw new Error('the first target is the embedded database');
    const database = await pglite.open();
    try {
      const rows = await database.db.execute<{ relname: string; analysed: boolean }>(
        sql`select relname, last_analyze is not null as analysed from pg_stat_user_tables where relname in (${sql.join(
          PGLITE_ANALYZED_TABLES.map((table) => sql`${table}`),
          sql`, `,
        )})`,
      );
      const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
        relname: string;
        analysed: boolean;
      }[];
      expect(list.map((row) => row.relname).sort()).toEqual([...PGLITE_ANALYZED_TABLES].sort());
      expect(list.every((row) => row.analysed)).toBe(true);
    } finally {
      await database.close();
    }
  });
});
