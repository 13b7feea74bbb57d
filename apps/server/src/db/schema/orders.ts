import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { idColumn, createdAtColumn } from './columns.ts';
import { products } from './products.ts';
import { userRef } from './users.ts';

/**
 * An order of a plan (spec §3 Order: order ID, price): one month of `cases_per_month` cases,
 * optionally with add-ons, priced from the price list at the time of ordering. Amounts are
 * integers in the currency's minor unit. `number` gives the human reference (RL-000042).
 */
export const orders = pgTable(
  'orders',
  {
    id: idColumn(),
    number: bigserial('number', { mode: 'number' }).notNull().unique(),
    userId: userRef(),
    plan: text('plan').notNull(),
    planName: text('plan_name').notNull(),
    casesPerMonth: integer('cases_per_month').notNull(),
    addOns: jsonb('add_ons').$type<string[]>().notNull(),
    currency: text('currency').notNull(),
    price: integer('price').notNull(),
    status: text('status', { enum: ['pending_payment', 'active', 'cancelled', 'expired'] })
      .notNull()
      .default('pending_payment'),
    paymentMethod: text('payment_method', { enum: ['invoice'] }).notNull(),
    createdAt: createdAtColumn(),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    index('orders_user_created_idx').on(t.userId, t.createdAt),
    check('orders_status', sql`${t.status} in ('pending_payment', 'active', 'cancelled', 'expired')`),
    check('orders_cases_positive', sql`${t.casesPerMonth} > 0`),
    check('orders_price_non_negative', sql`${t.price} >= 0`),
    check('orders_active_has_period', sql`${t.status} <> 'active' or ${t.expiresAt} is not null`),
  ],
);

/** The priced lines of an order, frozen when it is placed (a later price change does not alter it). */
export const orderItems = pgTable(
  'order_items',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    kind: text('kind', { enum: ['plan', 'add-on'] }).notNull(),
    code: text('code').notNull(),
    description: text('description').notNull(),
    quantity: integer('quantity').notNull(),
    unitPrice: integer('unit_price').notNull(),
    amount: integer('amount').notNull(),
  },
  (t) => [index('order_items_order_idx').on(t.orderId, t.position)],
);

/**
 * One case counted against an order (billing on). The row outlives the case: deleting a case
 * does not give its case back to the month.
 */
export const orderUsages = pgTable(
  'order_usages',
  {
    id: idColumn(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    /** A FASTQ upload (raw data analysis add-on). */
    isRawData: boolean('is_raw_data').notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [index('order_usages_order_idx').on(t.orderId)],
);

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
