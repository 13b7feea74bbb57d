import { pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, createdAtColumn } from './columns.ts';

/** "Request a demo" submissions (spec §3). */
export const demoRequests = pgTable('demo_requests', {
  id: idColumn(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  surname: text('surname').notNull(),
  jobTitle: text('job_title').notNull(),
  companyName: text('company_name').notNull(),
  phone: text('phone').notNull(),
  country: text('country').notNull(),
  yearlySampleCount: text('yearly_sample_count').notNull(),
  createdAt: createdAtColumn(),
});

export type DemoRequestRow = typeof demoRequests.$inferSelect;
