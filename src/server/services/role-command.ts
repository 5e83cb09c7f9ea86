import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { USER_ROLES, users, type UserRole } from '../db/schema.ts';
import { setRole } from './users.ts';

// What `npm run user:role -- <email> <role>` does, wherever it runs: directly on the database, or in
// the running server's process through its internal route. The console changes roles by id with a
// reason; the command exists for the first administrator, whom no console can name yet.

/** A role change the command cannot make, in words for the person who typed it. */
export class RoleCommandError extends Error {
  /** 'role': the role typed is not one; 'account': no account has the address. */
  readonly kind: 'role' | 'account';

  constructor(kind: 'role' | 'account', message: string) {
    super(message);
    this.name = 'RoleCommandError';
    this.kind = kind;
  }
}

/** The refusal of an address no account has. */
export function noAccountMessage(email: string): string {
  return `No account has the address ${email}.`;
}

/** The role typed, or a RoleCommandError naming the roles there are. */
export function parseRole(value: string): UserRole {
  const role = USER_ROLES.find((candidate) => candidate === value.trim().toLowerCase());
  if (role === undefined) {
    throw new RoleCommandError(
      'role',
      `Unknown role "${value}": choose admin, analyst or user (admins act in the console, analysts read it).`,
    );
  }
  return role;
}

/** Where a change came from, kept in its audit entry beside `via: 'command'`. */
export interface RoleCommandOrigin {
  /** The operating-system account that ran the command. */
  operator: string;
  /** 'server': through the running server's process; 'database': the command opened the database. */
  through: 'server' | 'database';
}

/** What the command changed (or found already so). */
export interface RoleChange {
  userId: string;
  email: string;
  from: UserRole;
  to: UserRole;
  changed: boolean;
}

/**
 * Gives the account with this address (any case) the role, audited in the same transaction with
 * no acting account and `via: 'command'`. An account that already has the role is left alone and
 * nothing is audited, so running the command twice records one change.
 */
export async function changeRoleByEmail(
  db: Db,
  email: string,
  role: UserRole,
  origin: RoleCommandOrigin,
): Promise<RoleChange> {
  const address = email.trim();
  const [account] = await db
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${address})`)
    .limit(1);
  if (account === undefined) throw new RoleCommandError('account', noAccountMessage(address));
  if (account.role === role) {
    return { userId: account.id, email: account.email, from: role, to: role, changed: false };
  }
  const updated = await setRole(db, account.id, role, null, {
    via: 'command',
    operator: origin.operator,
    through: origin.through,
  });
  if (updated === null) throw new RoleCommandError('account', noAccountMessage(address));
  return { userId: updated.id, email: updated.email, from: account.role, to: role, changed: true };
}

/** The line the command prints: `ada@example.com: user → admin`. */
export function describeRoleChange(change: RoleChange): string {
  return change.changed
    ? `${change.email}: ${change.from} → ${change.to}`
    : `${change.email} is already ${change.to}; nothing changed.`;
}
