/** SQL for verification codes, refresh tokens and password reset tokens. */
import { and, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedPerDb } from '../../db/prepared.ts';
import {
  emailVerificationCodes,
  passwordResetTokens,
  refreshTokens,
  users,
  type RefreshTokenRow,
  type UserRow,
} from '../../db/schema/index.ts';

// ---- verification codes ----

export async function insertVerificationCode(
  db: Executor,
  code: { userId: string; codeHash: string; expiresAt: Date; attempts?: number },
): Promise<void> {
  await db.insert(emailVerificationCodes).values(code);
}

/**
 * Guesses spent on the user's codes created in the last `windowMinutes`. Each new code starts
 * with the guesses of the one before (asking for another code must not buy another set of
 * guesses), so the newest code's count is the running total: the maximum, not the sum.
 */
export async function verificationAttemptsSince(db: Executor, userId: string, windowMinutes: number): Promise<number> {
  const [row] = await db
    .select({ spent: sql<string>`coalesce(max(${emailVerificationCodes.attempts}), 0)` })
    .from(emailVerificationCodes)
    .where(
      and(
        eq(emailVerificationCodes.userId, userId),
        isNull(emailVerificationCodes.consumedAt),
        gt(emailVerificationCodes.createdAt, sql`now() - make_interval(mins => ${windowMinutes})`),
      ),
    );
  return Number(row?.spent ?? 0);
}

/** Ends every open code of the user (a resend makes older codes useless). */
export async function expireVerificationCodes(db: Executor, userId: string): Promise<void> {
  await db
    .update(emailVerificationCodes)
    .set({ expiresAt: sql`least(${emailVerificationCodes.expiresAt}, now())` })
    .where(
      and(eq(emailVerificationCodes.userId, userId), isNull(emailVerificationCodes.consumedAt)),
    );
}

/**
 * Spends one attempt on the user's newest live code and returns its hash, or undefined when
 * there is no live code (expired, consumed or out of attempts). Counting before comparing
 * means parallel guesses cannot exceed the limit.
 */
export async function spendVerificationAttempt(
  db: Executor,
  userId: string,
  maxAttempts: number,
): Promise<{ id: string; codeHash: string } | undefined> {
  const newest = db
    .select({ id: emailVerificationCodes.id })
    .from(emailVerificationCodes)
    .where(eq(emailVerificationCodes.userId, userId))
    .orderBy(desc(emailVerificationCodes.createdAt))
    .limit(1);
  const [row] = await db
    .update(emailVerificationCodes)
    .set({ attempts: sql`${emailVerificationCodes.attempts} + 1` })
    .where(
      and(
        eq(emailVerificationCodes.id, sql`(${newest})`),
        isNull(emailVerificationCodes.consumedAt),
        gt(emailVerificationCodes.expiresAt, sql`now()`),
        lt(emailVerificationCodes.attempts, maxAttempts),
      ),
    )
    .returning({ id: emailVerificationCodes.id, codeHash: emailVerificationCodes.codeHash });
  return row;
}

export async function consumeVerificationCode(db: Executor, id: string): Promise<void> {
  await db
    .update(emailVerificationCodes)
    .set({ consumedAt: sql`now()` })
    .where(eq(emailVerificationCodes.id, id));
}

// ---- refresh tokens ----

export async function insertRefreshToken(
  db: Executor,
  token: { id: string; userId: string; familyId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(refreshTokens).values(token);
}

export async function findRefreshTokenByHash(
  db: Executor,
  tokenHash: string,
): Promise<RefreshTokenRow | undefined> {
  const [row] = await db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/**
 * Marks a live token as rotated into `replacedBy`. Returns false when another request got
 * there first (the token was already revoked), which the caller treats as reuse.
 */
export async function rotateRefreshToken(
  db: Executor,
  id: string,
  replacedBy: string,
): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()`, replacedBy })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

export async function revokeRefreshFamily(db: Executor, familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Revokes every session of the user, except `keepFamilyId` when given. */
export async function revokeUserRefreshTokens(
  db: Executor,
  userId: string,
  keepFamilyId?: string,
): Promise<void> {
  const conditions = [eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)];
  if (keepFamilyId !== undefined) conditions.push(ne(refreshTokens.familyId, keepFamilyId));
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(...conditions));
}

/**
 * The user of an access token, provided its session (refresh family) is still live: logout,
 * a password change or detected token reuse end the session for access tokens too. With the
 * user comes when the session stops being live on its own (its newest live refresh token
 * expires), for the session cache (session-cache.ts).
 */
const liveSessionUser = preparedPerDb((db) =>
  db
    .select({
      user: users,
      liveUntil: sql<Date | null>`(select max(${refreshTokens.expiresAt}) from ${refreshTokens} where ${refreshTokens.familyId} = ${sql.placeholder('familyId')} and ${refreshTokens.userId} = ${sql.placeholder('userId')} and ${refreshTokens.revokedAt} is null and ${refreshTokens.expiresAt} > now())`.mapWith(
        refreshTokens.expiresAt,
      ),
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .limit(1)
    .prepare('auth_live_session_user'),
);

export async function findUserWithLiveSession(
  db: Executor,
  userId: string,
  familyId: string,
): Promise<{ user: UserRow; liveUntil: Date } | undefined> {
  // Every authenticated request that the session cache does not answer runs it: a prepared statement (preparedPerDb).
  const [row] = await liveSessionUser(db).execute({ userId, familyId });
  return row?.liveUntil ? { user: row.user, liveUntil: row.liveUntil } : undefined;
}

// ---- housekeeping ----

/**
 * Deletes auth records that can no longer matter: codes, reset links and refresh tokens that
 * expired more than `graceDays` ago (an expired refresh token is refused whether or not its row
 * exists). Returns how many rows went, per table.
 */
export async function deleteExpiredAuthRecords(
  db: Executor,
  graceDays: number,
): Promise<{ codes: number; resets: number; refreshTokens: number }> {
  const cutoff = sql`now() - make_interval(days => ${graceDays})`;
  const codes = await db
    .delete(emailVerificationCodes)
    .where(lt(emailVerificationCodes.expiresAt, cutoff))
    .returning({ id: emailVerificationCodes.id });
  const resets = await db
    .delete(passwordResetTokens)
    .where(lt(passwordResetTokens.expiresAt, cutoff))
    .returning({ id: passwordResetTokens.id });
  const refresh = await db
    .delete(refreshTokens)
    .where(lt(refreshTokens.expiresAt, cutoff))
    .returning({ id: refreshTokens.id });
  return { codes: codes.length, resets: resets.length, refreshTokens: refresh.length };
}

// ---- password reset tokens ----

export async function insertPasswordResetToken(
  db: Executor,
  token: { userId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(passwordResetTokens).values(token);
}

/** A new link replaces older ones: their lifetime ends now. */
export async function expirePasswordResetTokens(db: Executor, userId: string): Promise<void> {
  await db
    .update(passwordResetTokens)
    .set({ expiresAt: sql`least(${passwordResetTokens.expiresAt}, now())` })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}

/** The user of a live (unused, unexpired) reset token. */
export async function findLiveResetTokenUser(
  db: Executor,
  tokenHash: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(
      and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row?.user;
}

/** Atomically marks a live reset token used; returns its user id, or undefined if not live. */
export async function useResetToken(db: Executor, tokenHash: string): Promise<string | undefined> {
  const [row] = await db
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: passwordResetTokens.userId });
  return row?.userId;
}
