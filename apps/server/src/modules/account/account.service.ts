/** The signed-in user's own account: profile, password, their data as a whole and its deletion. */
import { ErrorCode, Messages, type UpdateAccountBody } from '@rarelens/contract';
import type { Database } from '../../db/database.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import { hashPassword, revokeUserRefreshTokens, verifyPassword } from '../auth/index.ts';
import type { ActivityRecorder, RequestOrigin } from '../activity/activity.service.ts';
import { updateUserPassword, updateUserProfile } from '../users/index.ts';
import type { ObjectStorage } from '../../storage/object-storage.ts';
import { collectAccountData, deleteUserRows, ownedCaseIds, type AccountExport } from './account.data.ts';

export type AccountService = ReturnType<typeof createAccountService>;

export interface AccountServiceDeps {
  database: Database;
  activity: ActivityRecorder;
  /** Where case files live (deleted with the account). */
  storage: ObjectStorage;
  /** Base of the download addresses in an export. */
  publicUrl: string;
}

export function createAccountService({ database, activity, storage, publicUrl }: AccountServiceDeps) {
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

    /** Everything kept about the user, as one document; the export itself is recorded. */
    async exportData(user: UserRow, origin: RequestOrigin = {}): Promise<AccountExport> {
      const data = await collectAccountData(db, user, publicUrl);
      await activity.record(user.id, 'data_exported', { cases: data.cases.length }, origin);
      return data;
    },

    /**
     * Deletes the account after checking the password: first every file of the user's cases in
     * storage (idempotent, so a failure can be retried), then the user and all their rows in one
     * transaction.
     */
    async deleteAccount(user: UserRow, password: string): Promise<void> {
      if (!(await verifyPassword(user.passwordHash, password))) {
        throw new AppError(400, ErrorCode.wrongPassword, Messages.wrongCurrentPassword, [{ path: ['password'], message: Messages.wrongCurrentPassword }]);
      }
      for (const id of await ownedCaseIds(db, user.id)) await storage.deletePrefix(`products/${id}`);
      await db.transaction((tx) => deleteUserRows(tx, user));
    },
  };
}
