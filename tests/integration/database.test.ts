import { eq } from 'drizzle-orm';
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
