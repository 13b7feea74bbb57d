import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Contact form submissions (spec §3). */
export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  surname: text('surname').notNull(),
  message: text('message').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type ContactMessageRow = typeof contactMessages.$inferSelect;
