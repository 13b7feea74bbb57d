/** SQL for the shares of a case (table product_shares: the e-mails a case is shared with). */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { productShares } from '../../db/schema/products.ts';

export async function listShares(db: Executor, caseId: string): Promise<string[]> {
  const rows = await db
    .select({ email: productShares.email })
    .from(productShares)
    .where(eq(productShares.productId, caseId))
    .orderBy(productShares.email);
  return rows.map((r) => r.email);
}

export async function addShare(db: Executor, caseId: string, email: string): Promise<void> {
  await db.insert(productShares).values({ productId: caseId, email }).onConflictDoNothing();
}

export async function removeShare(
  db: Executor,
  caseId: string,
  email: string,
): Promise<boolean> {
  const rows = await db
    .delete(productShares)
    .where(and(eq(productShares.productId, caseId), eq(productShares.email, email)))
    .returning({ email: productShares.email });
  return rows.length > 0;
}

