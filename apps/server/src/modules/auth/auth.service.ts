/**
 * Account rules: registration with an e-mailed code, login, sessions with rotating refresh
 * tokens (reuse of a rotated token revokes the whole family), logout and password reset.
 */
import { randomUUID } from 'node:crypto';
import { Constants, ErrorCode, Messages, type RegisterBody } from '@rarelens/contract';
import type { Database, Executor } from '../../db/database.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { Config } from '../../env.ts';
import { AppError, Errors } from '../../errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import {
  findUserByEmail,
  findUserById,
  insertUser,
  isUniqueViolation,
  markEmailVerified,
  updateUserPassword,
} from '../users/index.ts';
import {
  consumeVerificationCode,
  expirePasswordResetTokens,
  expireVerificationCodes,
  findLiveResetTokenUser,
  findRefreshTokenByHash,
  findUserWithLiveSession,
  insertPasswordResetToken,
  insertRefreshToken,
  insertVerificationCode,
  revokeRefreshFamily,
  revokeUserRefreshTokens,
  rotateRefreshToken,
  spendVerificationAttempt,
  useResetToken,
  verificationAttemptsSince,
} from './auth.repository.ts';
import { passwordResetMail, verificationCodeMail } from './auth.mails.ts';
import { assertMayLogIn } from './auth.policy.ts';
import { hashPassword, verifyDummyPassword, verifyPassword } from './password-hasher.ts';
import type { SessionCache } from './session-cache.ts';
import type { AccessClaims, TokenService } from './token.service.ts';
import type { ActivityRecorder, RequestOrigin } from '../activity/activity.service.ts';

/**
 * Verification codes live 15 minutes. An account has 5 attempts (including the right one) per
 * hour, whatever the number of codes it asks for: a resent code inherits the guesses spent on
 * the codes of the last hour, so a resend never resets the budget.
 */
export const VERIFICATION_CODE_TTL_MINUTES = 15;
export const MAX_VERIFICATION_ATTEMPTS = 5;
export const VERIFICATION_BUDGET_WINDOW_MINUTES = 60;
const RESET_LINK_TTL_MINUTES = Constants.resetLinkLifetimeMs / 60_000;

export interface Session {
  user: UserRow;
  token: string;
  refreshToken: string;
  /** When the refresh token expires (cookie max-age). */
  refreshExpiresAt: Date;
}

export interface AuthServiceDeps {
  database: Database;
  tokens: TokenService;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'refreshTokenTtlDays'>;
  /** The account activity log (sign-ins, failed sign-ins, password resets). */
  activity: ActivityRecorder;
  /** Live sessions kept in memory (PostgreSQL, session-cache.ts); absent = the database answers every check. */
  sessions?: SessionCache;
}

const invalidCode = () =>
  new AppError(400, ErrorCode.invalidCode, Messages.invalidVerificationCode);
const invalidRefresh = () =>
  new AppError(401, ErrorCode.invalidRefreshToken, Messages.sessionExpiredToast);
const resetLinkExpired = () =>
  new AppError(410, ErrorCode.resetLinkExpired, Messages.resetLinkExpired);

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService({ database, tokens, mailer, config, activity, sessions }: AuthServiceDeps) {
  const { db } = database;
  const refreshTtlMs = config.refreshTokenTtlDays * 24 * 60 * 60 * 1000;

  /** Creates a code and sends it; runs inside the caller's transaction so a failed send rolls back. */
  async function issueVerificationCode(executor: Executor, user: UserRow): Promise<void> {
    const code = tokens.createVerificationCode();
    const spent = await verificationAttemptsSince(executor, user.id, VERIFICATION_BUDGET_WINDOW_MINUTES);
    await insertVerificationCode(executor, {
      userId: user.id,
      codeHash: tokens.hashVerificationCode(user.id, code),
      expiresAt: new Date(Date.now() + VERIFICATION_CODE_TTL_MINUTES * 60_000),
      attempts: Math.min(spent, MAX_VERIFICATION_ATTEMPTS),
    });
    await mailer.send(verificationCodeMail(user, code, VERIFICATION_CODE_TTL_MINUTES));
  }

  /** Starts a session: a new refresh-token family whose id is the access token's `sid`. */
  async function openSession(user: UserRow): Promise<Session> {
    const familyId = randomUUID();
    const refresh = tokens.createOpaqueToken();
    const refreshExpiresAt = new Date(Date.now() + refreshTtlMs);
    await insertRefreshToken(db, {
      id: randomUUID(),
      userId: user.id,
      familyId,
      tokenHash: refresh.hash,
      expiresAt: refreshExpiresAt,
    });
    const token = await tokens.signAccessToken({ userId: user.id, sessionId: familyId });
    return { user, token, refreshToken: refresh.token, refreshExpiresAt };
  }

  return {
    async register(body: RegisterBody): Promise<UserRow> {
      const passwordHash = await hashPassword(body.password);
      try {
        return await db.transaction(async (tx) => {
          const user = await insertUser(tx, {
            name: body.name,
            surname: body.surname,
            birthDate: body.birthDate,
            email: body.email,
            passwordHash,
          });
          await issueVerificationCode(tx, user);
          return user;
        });
      } catch (error) {
        if (isUniqueViolation(error))
          throw new AppError(409, ErrorCode.emailTaken, Messages.emailTaken);
        throw error;
      }
    },

    async verifyEmail(email: string, code: string): Promise<UserRow> {
      const user = await findUserByEmail(db, email);
      if (user === undefined) throw invalidCode();
      if (user.emailVerifiedAt !== null) {
        throw new AppError(409, ErrorCode.emailAlreadyVerified, Messages.emailAlreadyVerified);
      }
      const live = await spendVerificationAttempt(db, user.id, MAX_VERIFICATION_ATTEMPTS);
      if (live === undefined && (await verificationAttemptsSince(db, user.id, VERIFICATION_BUDGET_WINDOW_MINUTES)) >= MAX_VERIFICATION_ATTEMPTS) {
        throw new AppError(429, ErrorCode.rateLimited, Messages.verificationLocked);
      }
      if (
        live === undefined ||
        !tokens.hashesEqual(live.codeHash, tokens.hashVerificationCode(user.id, code))
      ) {
        throw invalidCode();
      }
      return db.transaction(async (tx) => {
        await consumeVerificationCode(tx, live.id);
        return markEmailVerified(tx, user.id);
      });
    },

    /** Sends a fresh code. Unknown or already verified addresses get the same answer and no mail. */
    async resendCode(email: string): Promise<void> {
      const user = await findUserByEmail(db, email);
      if (user === undefined || user.emailVerifiedAt !== null) return;
      await db.transaction(async (tx) => {
        await expireVerificationCodes(tx, user.id);
        await issueVerificationCode(tx, user);
      });
    },

    async login(email: string, password: string, origin: RequestOrigin = {}): Promise<Session> {
      const user = await findUserByEmail(db, email);
      const matches =
        user === undefined
          ? await verifyDummyPassword(password)
          : await verifyPassword(user.passwordHash, password);
      if (user === undefined || !matches) {
        if (user !== undefined) await activity.record(user.id, 'sign_in_failed', { reason: 'wrong password' }, origin);
        throw new AppError(401, ErrorCode.invalidCredentials, Messages.incorrectCredentials);
      }
      assertMayLogIn(user);
      const session = await openSession(user);
      await activity.record(user.id, 'sign_in', {}, origin);
      return session;
    },

    /** Rotates a refresh token; presenting a rotated (or revoked) one ends its whole family. */
    async refresh(refreshToken: string): Promise<Session> {
      const row = await findRefreshTokenByHash(db, tokens.hashOpaqueToken(refreshToken));
      if (row === undefined) throw invalidRefresh();
      if (row.revokedAt !== null) {
        await revokeRefreshFamily(db, row.familyId);
        throw invalidRefresh();
      }
      if (row.expiresAt.getTime() <= Date.now()) throw invalidRefresh();
      const user = await findUserById(db, row.userId);
      if (user === undefined) throw invalidRefresh();

      const next = tokens.createOpaqueToken();
      const nextId = randomUUID();
      const refreshExpiresAt = new Date(Date.now() + refreshTtlMs);
      const rotated = await db.transaction(async (tx) => {
        if (!(await rotateRefreshToken(tx, row.id, nextId))) return false;
        await insertRefreshToken(tx, {
          id: nextId,
          userId: row.userId,
          familyId: row.familyId,
          tokenHash: next.hash,
          expiresAt: refreshExpiresAt,
        });
        return true;
      });
      if (!rotated) {
        // A concurrent request rotated it first: the token was used twice.
        await revokeRefreshFamily(db, row.familyId);
        throw invalidRefresh();
      }
      const token = await tokens.signAccessToken({ userId: row.userId, sessionId: row.familyId });
      return { user, token, refreshToken: next.token, refreshExpiresAt };
    },

    /**
     * Ends the session named by the refresh token, or else by a valid access token.
     * Throws 401 when neither identifies a session.
     */
    async logout(refreshToken: string | undefined, accessToken: string | undefined): Promise<void> {
      if (refreshToken !== undefined) {
        const row = await findRefreshTokenByHash(db, tokens.hashOpaqueToken(refreshToken));
        if (row !== undefined) {
          await revokeRefreshFamily(db, row.familyId);
          return;
        }
      }
      if (accessToken !== undefined) {
        // An expired but authentic access token still names the session to end.
        const claims = await tokens.verifyAccessToken(accessToken, { allowExpired: true });
        await revokeRefreshFamily(db, claims.sessionId);
        return;
      }
      throw Errors.unauthorized();
    },

    /** The user of an access token whose session is live; 401 otherwise. */
    async authenticate(accessToken: string): Promise<{ user: UserRow; claims: AccessClaims }> {
      const claims = await tokens.verifyAccessToken(accessToken);
      const load = () => findUserWithLiveSession(db, claims.userId, claims.sessionId);
      const user = sessions ? await sessions.lookup(claims.userId, claims.sessionId, load) : (await load())?.user;
      if (user === undefined) throw Errors.unauthorized();
      return { user, claims };
    },

    async requestPasswordReset(email: string): Promise<void> {
      const user = await findUserByEmail(db, email);
      if (user === undefined)
        throw new AppError(404, ErrorCode.unknownEmail, Messages.unknownResetEmail);
      const { token, hash } = tokens.createOpaqueToken();
      await db.transaction(async (tx) => {
        await expirePasswordResetTokens(tx, user.id);
        await insertPasswordResetToken(tx, {
          userId: user.id,
          tokenHash: hash,
          expiresAt: new Date(Date.now() + Constants.resetLinkLifetimeMs),
        });
        await mailer.send(
          passwordResetMail(
            user,
            `${config.publicUrl}/reset-password/${token}`,
            RESET_LINK_TTL_MINUTES,
          ),
        );
      });
    },

    /** The account of a live reset link; 410 `reset_link_expired` when expired, used or unknown. */
    async checkResetToken(token: string): Promise<UserRow> {
      const user = await findLiveResetTokenUser(db, tokens.hashOpaqueToken(token));
      if (user === undefined) throw resetLinkExpired();
      return user;
    },

    /** Sets the new password once per link, verifies the address and ends every session. */
    async resetPassword(token: string, password: string, origin: RequestOrigin = {}): Promise<void> {
      const passwordHash = await hashPassword(password);
      await db.transaction(async (tx) => {
        const userId = await useResetToken(tx, tokens.hashOpaqueToken(token));
        if (userId === undefined) throw resetLinkExpired();
        await updateUserPassword(tx, userId, passwordHash);
        // Following the e-mailed link proves the address.
        await markEmailVerified(tx, userId);
        await revokeUserRefreshTokens(tx, userId);
        await activity.record(userId, 'password_reset', {}, origin, tx);
      });
    },
  };
}
