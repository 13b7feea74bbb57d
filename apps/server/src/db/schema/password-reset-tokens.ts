import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { idColumn, createdAtColumn } from './columns.ts';
import { userRef } from './users.ts';

/** Password reset links (sha256 of 32 random bytes); 20-minute lifetime, usable once. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: idColumn(),
    userId: userRef(),
    tokenHash: text('token_hash').notNull().unique('password_reset_tokens_token_hash_unique'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);

export type PasswordResetTokenRow = typeof passwordResetTokens.$inferSelect;
