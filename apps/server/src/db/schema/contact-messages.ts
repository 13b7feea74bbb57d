import { pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, createdAtColumn } from './columns.ts';

/** Contact form submissions (spec §3). */
export const contactMessages = pgTable('contact_messages', {
  id: idColumn(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  surname: text('surname').notNull(),
  message: text('message').notNull(),
  createdAt: createdAtColumn(),
});

export type ContactMessageRow = typeof contactMessages.$inferSelect;
