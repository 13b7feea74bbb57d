import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** "Request a demo" submissions (spec §3). */
export const demoRequests = pgTable('demo_requests', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  surname: text('surname').notNull(),
  jobTitle: text('job_title').notNull(),
  companyName: text('company_name').notNull(),
  phone: text('phone').notNull(),
  country: text('country').notNull(),
  yearlySampleCount: text('yearly_sample_count').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type DemoRequestRow = typeof demoRequests.$inferSelect;
