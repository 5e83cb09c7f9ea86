import { desc } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { auditLog, type AuditAction, type AuditEntry } from '../db/schema.ts';

export interface AuditInput {
  actorUserId: string | null;
  action: AuditAction;
  targetUserId: string | null;
  details?: Record<string, unknown> | undefined;
}

const DEFAULT_PAGE = 100;
const MAX_PAGE = 500;

/**
 * Records a privileged action. Pass the transaction that makes the change, so the change and its record
 * commit or fail together.
 */
export async function audit(db: Db, entry: AuditInput): Promise<AuditEntry> {
  const [row] = await db
    .insert(auditLog)
    .values({
      actorUserId: entry.actorUserId,
      action: entry.action,
      targetUserId: entry.targetUserId,
      details: entry.details ?? {},
    })
    .returning();
  if (!row) throw new Error('Audit insert returned no row');
  return row;
}

/** The most recent actions first, for the admin screen. */
export function listAudit(db: Db, options: { limit?: number | undefined } = {}): Promise<AuditEntry[]> {
  const requested = options.limit;
  const limit =
    requested === undefined || !Number.isFinite(requested)
      ? DEFAULT_PAGE
      : Math.min(Math.max(Math.trunc(requested), 1), MAX_PAGE);
  return db.select().from(auditLog).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(limit);
}
