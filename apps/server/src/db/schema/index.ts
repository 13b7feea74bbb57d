/**
 * The whole database schema: one file per resource, re-exported here. drizzle-kit reads this
 * directory to generate migrations (see docs/ARCHITECTURE.md, "Database").
 */
export * from './users.ts';
export * from './email-verification-codes.ts';
export * from './refresh-tokens.ts';
export * from './password-reset-tokens.ts';
export * from './demo-requests.ts';
export * from './contact-messages.ts';
export * from './products.ts';
export * from './reports.ts';
export * from './activity-events.ts';
export * from './chat.ts';
export * from './orders.ts';
export * from './read-alignments.ts';
export * from './variant-classifications.ts';
