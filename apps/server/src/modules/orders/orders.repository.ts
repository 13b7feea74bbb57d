/** SQL for orders, their items and the cases counted against them. */
import { and, asc, count, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { orderItems, orders, orderUsages, type OrderItemRow, type OrderRow } from '../../db/schema/index.ts';
import { insertOne } from '../../db/insert-one.ts';

export type NewOrder = typeof orders.$inferInsert;
export type NewOrderItem = Omit<typeof orderItems.$inferInsert, 'orderId'>;

export interface OrderWithItems {
  order: OrderRow;
  items: OrderItemRow[];
  casesUsed: number;
  rawDataCasesUsed: number;
}

export async function insertOrder(db: Executor, order: NewOrder, items: NewOrderItem[]): Promise<OrderRow> {
  const row = await insertOne(db, orders, order);
  await db.insert(orderItems).values(items.map((item) => ({ ...item, orderId: row.id })));
  return row;
}

/** Active orders whose month is over become expired (run before every read of orders). */
export async function expireOrders(db: Executor, now: Date): Promise<void> {
  await db
    .update(orders)
    .set({ status: 'expired' })
    .where(and(eq(orders.status, 'active'), lte(orders.expiresAt, now)));
}

async function withItemsAndUsage(db: Executor, rows: OrderRow[]): Promise<OrderWithItems[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const items = await db
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, ids))
    .orderBy(asc(orderItems.orderId), asc(orderItems.position));
  const usage = await db
    .select({
      orderId: orderUsages.orderId,
      cases: count(),
      rawData: sql<number>`count(*) filter (where ${orderUsages.isRawData})`.mapWith(Number),
    })
    .from(orderUsages)
    .where(inArray(orderUsages.orderId, ids))
    .groupBy(orderUsages.orderId);
  return rows.map((order) => {
    const used = usage.find((u) => u.orderId === order.id);
    return {
      order,
      items: items.filter((i) => i.orderId === order.id),
      casesUsed: used?.cases ?? 0,
      rawDataCasesUsed: used?.rawData ?? 0,
    };
  });
}

export async function listOrdersOfUser(db: Executor, userId: string): Promise<OrderWithItems[]> {
  const rows = await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt), desc(orders.number));
  return withItemsAndUsage(db, rows);
}

/** Orders by status (operator listing), oldest first. */
export async function listOrdersByStatus(db: Executor, status: OrderRow['status']): Promise<OrderWithItems[]> {
  const rows = await db.select().from(orders).where(eq(orders.status, status)).orderBy(asc(orders.number));
  return withItemsAndUsage(db, rows);
}

export async function findOrder(db: Executor, id: string): Promise<OrderWithItems | null> {
  const rows = await db.select().from(orders).where(eq(orders.id, id));
  const [found] = await withItemsAndUsage(db, rows);
  return found ?? null;
}

/** The order row, locked until the transaction ends (status changes and case counting). */
export async function lockOrder(db: Executor, id: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).for('update');
  return row ?? null;
}

/** The user's active orders, locked, the one ending first first (its cases are used first). */
export async function lockActiveOrdersOfUser(db: Executor, userId: string, now: Date): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 'active'), gt(orders.expiresAt, now)))
    .orderBy(asc(orders.expiresAt), asc(orders.number))
    .for('update');
}

export async function activeOrdersOfUser(db: Executor, userId: string, now: Date): Promise<OrderWithItems[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 'active'), gt(orders.expiresAt, now)))
    .orderBy(asc(orders.expiresAt), asc(orders.number));
  return withItemsAndUsage(db, rows);
}

export async function countUsage(db: Executor, orderId: string): Promise<{ cases: number; rawData: number }> {
  const [row] = await db
    .select({ cases: count(), rawData: sql<number>`count(*) filter (where ${orderUsages.isRawData})`.mapWith(Number) })
    .from(orderUsages)
    .where(eq(orderUsages.orderId, orderId));
  return { cases: row?.cases ?? 0, rawData: row?.rawData ?? 0 };
}

export async function insertUsage(db: Executor, usage: { orderId: string; productId: string; isRawData: boolean }): Promise<void> {
  await db.insert(orderUsages).values(usage);
}

export async function activateOrder(db: Executor, id: string, activatedAt: Date, expiresAt: Date): Promise<OrderRow> {
  const [row] = await db.update(orders).set({ status: 'active', activatedAt, expiresAt }).where(eq(orders.id, id)).returning();
  if (row === undefined) throw new Error(`order ${id} vanished while being activated`);
  return row;
}

export async function cancelOrder(db: Executor, id: string, cancelledAt: Date): Promise<OrderRow> {
  const [row] = await db.update(orders).set({ status: 'cancelled', cancelledAt }).where(eq(orders.id, id)).returning();
  if (row === undefined) throw new Error(`order ${id} vanished while being cancelled`);
  return row;
}
