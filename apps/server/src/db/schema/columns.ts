/**
 * Columns that most tables share, written once: a random uuid primary key and the creation /
 * update times. References to a user or a case live beside their tables (`userRef` in
 * users.ts, `caseRef` in products.ts).
 */
import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** `id uuid primary key default gen_random_uuid()`. */
export const idColumn = () => uuid('id').primaryKey().defaultRandom();

/** `created_at timestamptz not null default now()`. */
export const createdAtColumn = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** `updated_at timestamptz not null default now()`. */
export const updatedAtColumn = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
