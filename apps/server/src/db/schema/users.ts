import { sql } from 'drizzle-orm';
import { check, date, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { idColumn, createdAtColumn, updatedAtColumn } from './columns.ts';

/** Accounts. E-mail addresses are stored lower-case (enforced by a check constraint). */
export const users = pgTable(
  'users',
  {
    id: idColumn(),
    name: text('name').notNull(),
    surname: text('surname').notNull(),
    birthDate: date('birth_date', { mode: 'string' }).notNull(),
    email: text('email').notNull().unique('users_email_unique'),
    passwordHash: text('password_hash').notNull(),
    address: text('address'),
    country: text('country'),
    state: text('state'),
    phoneNumber: text('phone_number'),
    language: text('language', { enum: ['en', 'tr'] })
      .notNull()
      .default('en'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [check('users_email_lower_case', sql`${t.email} = lower(${t.email})`)],
);

/** A reference to the owning user (`user_id` unless named); the row goes with the account. */
export const userRef = (name = 'user_id') =>
  uuid(name)
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
