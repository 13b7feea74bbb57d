/**
 * A user's data as a whole: everything RareLens keeps about them, exported as one JSON document
 * (GDPR-style access/portability), and the deletion of the account with all of it, uploaded files
 * included. Queries read only the database layer; files go through the storage port.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import {
  activityEvents,
  chatConversations,
  chatMessages,
  orderItems,
  orders,
  productFiles,
  products,
  productShares,
  reportItems,
  reports,
  users,
  type UserRow,
} from '../../db/schema/index.ts';
import { presentUser } from '../users/index.ts';

export const EXPORT_FORMAT = 'rarelens-account-export';

/** The export document; files are listed with the address they download from, not inlined. */
export async function collectAccountData(db: Executor, user: UserRow, publicUrl: string) {
  const cases = await db.select().from(products).where(eq(products.ownerId, user.id)).orderBy(asc(products.createdAt));
  const caseIds = cases.map((c) => c.id);
  const some = caseIds.length > 0;
  const [files, shares, items, caseReports, sharedWithMe, conversations, userOrders, activity] = await Promise.all([
    some ? db.select().from(productFiles).where(inArray(productFiles.productId, caseIds)) : [],
    some ? db.select().from(productShares).where(inArray(productShares.productId, caseIds)) : [],
    some ? db.select().from(reportItems).where(inArray(reportItems.productId, caseIds)) : [],
    some ? db.select().from(reports).where(inArray(reports.productId, caseIds)) : [],
    db
      .select({ id: products.id, caseId: products.caseId, owner: users.email, sharedAt: productShares.createdAt })
      .from(productShares)
      .innerJoin(products, eq(products.id, productShares.productId))
      .innerJoin(users, eq(users.id, products.ownerId))
      .where(eq(productShares.email, user.email)),
    db.select().from(chatConversations).where(eq(chatConversations.userId, user.id)).orderBy(asc(chatConversations.createdAt)),
    db.select().from(orders).where(eq(orders.userId, user.id)).orderBy(asc(orders.createdAt)),
    db.select().from(activityEvents).where(eq(activityEvents.userId, user.id)).orderBy(asc(activityEvents.createdAt)),
  ]);
  const conversationIds = conversations.map((c) => c.id);
  const orderIds = userOrders.map((o) => o.id);
  const [messages, lines] = await Promise.all([
    conversationIds.length > 0 ? db.select().from(chatMessages).where(inArray(chatMessages.conversationId, conversationIds)).orderBy(asc(chatMessages.createdAt)) : [],
    orderIds.length > 0 ? db.select().from(orderItems).where(inArray(orderItems.orderId, orderIds)) : [],
  ]);
  const byCase = <T extends { productId: string }>(rows: T[], id: string) => rows.filter((r) => r.productId === id);
  const api = `${publicUrl}/api/products`;
  return {
    format: EXPORT_FORMAT,
    version: 1,
    exportedAt: new Date().toISOString(),
    account: { ...presentUser(user), createdAt: user.createdAt.toISOString() },
    cases: cases.map((c) => ({
      id: c.id,
      caseId: c.caseId,
      gender: c.gender,
      symptoms: c.symptoms,
      hpoTerms: c.hpoTerms,
      excludedTerms: c.excludedTerms,
      assemblyRequested: c.assemblyRequested,
      status: c.status,
      createdAt: c.createdAt.toISOString(),
      files: byCase(files, c.id).map((f) => ({
        id: f.id,
        role: f.role,
        name: f.originalName,
        sizeBytes: f.sizeBytes,
        sha256: f.sha256,
        format: f.format,
        download: `${api}/${c.id}/files/${f.id}`,
      })),
      sharedWith: byCase(shares, c.id).map((s) => ({ email: s.email, since: s.createdAt.toISOString() })),
      reportingList: byCase(items, c.id).map((i) => ({ chrom: i.chrom, pos: i.pos, ref: i.ref, alt: i.alt, gene: i.gene, addedAt: i.createdAt.toISOString() })),
      reports: byCase(caseReports, c.id).map((r) => ({
        id: r.id,
        fileName: r.fileName,
        createdAt: r.createdAt.toISOString(),
        interpretation: r.interpretation,
        download: `${api}/${c.id}/reports/${r.id}`,
      })),
      results: `${api}/${c.id}`,
    })),
    sharedWithMe: sharedWithMe.map((s) => ({ id: s.id, caseId: s.caseId, owner: s.owner, since: s.sharedAt.toISOString() })),
    conversations: conversations.map((c) => ({
      id: c.id,
      case: c.productId,
      title: c.title,
      createdAt: c.createdAt.toISOString(),
      messages: messages.filter((m) => m.conversationId === c.id).map((m) => ({ role: m.role, text: m.text, citations: m.citations, createdAt: m.createdAt.toISOString() })),
    })),
    orders: userOrders.map((o) => ({ ...o, items: lines.filter((l) => l.orderId === o.id) })),
    activity: activity.map((a) => ({ kind: a.kind, detail: a.detail, ip: a.ip, userAgent: a.userAgent, at: a.createdAt.toISOString() })),
  };
}

export type AccountExport = Awaited<ReturnType<typeof collectAccountData>>;

/** Ids of the cases the user owns (their files are deleted with the account). */
export async function ownedCaseIds(db: Executor, userId: string): Promise<string[]> {
  return (await db.select({ id: products.id }).from(products).where(eq(products.ownerId, userId))).map((r) => r.id);
}

/**
 * Deletes the user: their row and, by the schema's cascades, their cases with every result,
 * their conversations, orders, sessions and activity. Shares made to their e-mail go too, so a
 * future account with the same address sees nothing of the old one's.
 */
export async function deleteUserRows(db: Executor, user: UserRow): Promise<void> {
  await db.delete(productShares).where(eq(productShares.email, user.email));
  await db.delete(users).where(eq(users.id, user.id));
}
