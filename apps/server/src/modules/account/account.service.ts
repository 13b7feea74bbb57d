/** The signed-in user's own account: profile and password. */
import { ErrorCode, Messages, type UpdateAccountBody } from '@rarelens/contract';
import type { Database } from '../../db/database.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import { revokeUserRefreshTokens } from '../auth/auth.repository.ts';
import { hashPassword, verifyPassword } from '../auth/password-hasher.ts';
import type { ActivityRecorder, RequestOrigin } from '../activity/activity.service.ts';
import { updateUserPassword, updateUserProfile } from '../users/users.repository.ts';

export type AccountService = ReturnType<typeof createAccountService>;

export function createAccountService({ database, activity }: { database: Database; activity: ActivityRecorder }) {
  const { db } = database;
  return {
    async updateProfile(user: UserRow, body: UpdateAccountBody): Promise<UserRow> {
      return updateUserProfile(db, user.id, {
        name: body.name,
        surname: body.surname,
        birthDate: body.birthDate,
        address: body.address ?? null,
        country: body.country ?? null,
        state: body.state ?? null,
        phoneNumber: body.phoneNumber ?? null,
        language: body.language,
      });
    },

    /** Checks the current password, sets the new one and ends the user's other sessions. */
    async changePassword(
      user: UserRow,
      sessionId: string,
      currentPassword: string,
      password: string,
      origin: RequestOrigin = {},
    ): Promise<void> {
      if (!(await verifyPassword(user.passwordHash, currentPassword))) {
        throw new AppError(400, ErrorCode.wrongPassword, Messages.wrongCurrentPassword);
      }
      const passwordHash = await hashPassword(password);
      await db.transaction(async (tx) => {
        await updateUserPassword(tx, user.id, passwordHash);
        await revokeUserRefreshTokens(tx, user.id, sessionId);
        await activity.record(user.id, 'password_changed', {}, origin, tx);
      });
    },
  };
}
