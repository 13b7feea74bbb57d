/** SQL for the users table. E-mails are lower-cased by the contract before they get here. */
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { users, type NewUserRow, type UserRow } from '../../db/schema/index.ts';
import { insertOne } from '../../db/insert-one.ts';

/** PostgreSQL's unique_violation, raised for a duplicate e-mail. */
export function isUniqueViolation(error: unknown): boolean {
  // drizzle wraps driver errors (DrizzleQueryError) with the pg/PGlite error as `cause`.
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

export async function insertUser(db: Executor, user: NewUserRow): Promise<UserRow> {
  return insertOne(db, users, user);
}

export type UserProfileChanges = Pick<
  NewUserRow,
  'name' | 'surname' | 'birthDate' | 'address' | 'country' | 'state' | 'phoneNumber' | 'language'
>;

export async function updateUserProfile(
  db: Executor,
  id: string,
  changes: UserProfileChanges,
): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  if (row === undefined) throw new Error(`user ${id} vanished during update`);
  return row;
}

export async function updateUserPassword(
  db: Executor,
  id: string,
  passwordHash: string,
): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, updatedAt: sql`now()` })
    .where(eq(users.id, id));
}

/** Marks the address verified (keeps the first verification time). */
export async function markEmailVerified(db: Executor, id: string): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  if (row === undefined) throw new Error(`user ${id} vanished during verification`);
  return row;
}
