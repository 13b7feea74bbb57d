import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { idColumn, createdAtColumn } from './columns.ts';
import { userRef } from './users.ts';

/** Six-digit e-mail verification codes, stored as keyed hashes (HMAC-SHA256). */
export const emailVerificationCodes = pgTable(
  'email_verification_codes',
  {
    id: idColumn(),
    userId: userRef(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Failed attempts against this code; the code is dead once the limit is reached. */
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (t) => [index('email_verification_codes_user_idx').on(t.userId)],
);

export type EmailVerificationCodeRow = typeof emailVerificationCodes.$inferSelect;
