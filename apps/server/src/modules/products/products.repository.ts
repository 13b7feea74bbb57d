/** SQL for cases (products), their files and shares. */
import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { users } from '../../db/schema/users.ts';
import {
  productFiles,
  productShares,
  products,
  type ProductFileRow,
  type ProductRow,
} from '../../db/schema/products.ts';

export type NewProduct = typeof products.$inferInsert;
export type NewProductFile = typeof productFiles.$inferInsert;

export async function insertProduct(
  db: Executor,
  product: NewProduct,
  files: NewProductFile[],
): Promise<void> {
  await db.insert(products).values(product);
  if (files.length > 0) await db.insert(productFiles).values(files);
}

export async function findProduct(db: Executor, id: string): Promise<ProductRow | null> {
  const [row] = await db.select().from(products).where(eq(products.id, id));
  return row ?? null;
}

function buildAccessQuery(db: Executor) {
  return db
    .select({
      product: products,
      ownerEmail: users.email,
      storedVariants: sql<string | null>`(select r.counts->>'variantsStored' from analysis_runs r where r.id = ${products.currentRunId})`,
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.ownerId))
    .where(
      and(
        eq(products.id, sql.placeholder('id')),
        or(
          eq(products.ownerId, sql.placeholder('userId')),
          sql`exists (select 1 from product_shares s where s.product_id = ${products.id} and s.email = ${sql.placeholder('email')})`,
        ),
      ),
    )
    .prepare('products_find_accessible');
}

/** Prepared statements per database handle: every list request runs this check, and on a busy
 * server parsing and planning it costs more than executing it. */
const accessQueries = new WeakMap<object, ReturnType<typeof buildAccessQuery>>();

/** Access level of `user` on a case: owner, shared (read-only), or none. */
export async function findAccessibleProduct(
  db: Executor,
  id: string,
  user: { id: string; email: string },
): Promise<{ product: ProductRow; isOwner: boolean; ownerEmail: string; storedVariants: number | null } | null> {
  // One round trip: access check, owner e-mail and the current run's stored-variant count
  // (the total of unfiltered variant lists).
  let query = accessQueries.get(db);
  if (!query) {
    query = buildAccessQuery(db);
    accessQueries.set(db, query);
  }
  const rows = await query.execute({ id, userId: user.id, email: user.email });
  const row = rows[0];
  if (!row) return null;
  return {
    product: row.product,
    isOwner: row.product.ownerId === user.id,
    ownerEmail: row.ownerEmail,
    storedVariants: row.storedVariants == null ? null : Number(row.storedVariants),
  };
}

export interface ProductListRow {
  product: ProductRow;
  ownerEmail: string;
  shareCount: number;
}

/** The user's own cases and the cases shared with their e-mail, newest first. */
export async function listProducts(
  db: Executor,
  user: { id: string; email: string },
): Promise<ProductListRow[]> {
  const rows = await db
    .select({
      product: products,
      ownerEmail: users.email,
      shareCount: sql<number>`(select count(*)::int from product_shares s where s.product_id = ${products.id})`,
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.ownerId))
    .where(
      or(
        eq(products.ownerId, user.id),
        inArray(
          products.id,
          db
            .select({ id: productShares.productId })
            .from(productShares)
            .where(eq(productShares.email, user.email)),
        ),
      ),
    )
    .orderBy(desc(products.createdAt), desc(products.id));
  return rows.map((r) => ({ ...r, shareCount: Number(r.shareCount) }));
}

export async function listFiles(db: Executor, productId: string): Promise<ProductFileRow[]> {
  return db
    .select()
    .from(productFiles)
    .where(eq(productFiles.productId, productId))
    .orderBy(productFiles.createdAt, productFiles.id);
}

export async function findFile(
  db: Executor,
  productId: string,
  fileId: string,
): Promise<ProductFileRow | null> {
  const [row] = await db
    .select()
    .from(productFiles)
    .where(and(eq(productFiles.productId, productId), eq(productFiles.id, fileId)));
  return row ?? null;
}

export async function listShares(db: Executor, productId: string): Promise<string[]> {
  const rows = await db
    .select({ email: productShares.email })
    .from(productShares)
    .where(eq(productShares.productId, productId))
    .orderBy(productShares.email);
  return rows.map((r) => r.email);
}

export async function addShare(db: Executor, productId: string, email: string): Promise<void> {
  await db.insert(productShares).values({ productId, email }).onConflictDoNothing();
}

export async function removeShare(
  db: Executor,
  productId: string,
  email: string,
): Promise<boolean> {
  const rows = await db
    .delete(productShares)
    .where(and(eq(productShares.productId, productId), eq(productShares.email, email)))
    .returning({ email: productShares.email });
  return rows.length > 0;
}

export type StatusUpdate =
  | { status: 'In queue' }
  | { status: 'Processing'; progress: number }
  | { status: 'Completed'; runId: string; assembly: string }
  | { status: 'Error'; reason: string };

/** Sets the processing state shown in the UI. */
export async function setStatus(
  db: Executor,
  productId: string,
  update: StatusUpdate,
): Promise<void> {
  const base = { updatedAt: sql`now()` };
  switch (update.status) {
    case 'In queue':
      await db
        .update(products)
        .set({ ...base, status: 'In queue', progress: 0, errorReason: null })
        .where(eq(products.id, productId));
      return;
    case 'Processing':
      await db
        .update(products)
        .set({
          ...base,
          status: 'Processing',
          progress: Math.max(0, Math.min(100, Math.round(update.progress))),
          errorReason: null,
        })
        .where(eq(products.id, productId));
      return;
    case 'Completed':
      await db
        .update(products)
        .set({
          ...base,
          status: 'Completed',
          progress: 100,
          errorReason: null,
          currentRunId: update.runId,
          assembly: update.assembly,
        })
        .where(eq(products.id, productId));
      return;
    case 'Error':
      await db
        .update(products)
        .set({ ...base, status: 'Error', errorReason: update.reason.slice(0, 2000) })
        .where(eq(products.id, productId));
      return;
  }
}

/** Progress only, and only while the case is Processing (cheap, called often). */
export async function setProgress(
  db: Executor,
  productId: string,
  progress: number,
): Promise<void> {
  await db
    .update(products)
    .set({ progress: Math.max(0, Math.min(99, Math.round(progress))) })
    .where(and(eq(products.id, productId), eq(products.status, 'Processing')));
}

export async function updateTerms(
  db: Executor,
  productId: string,
  terms: { hpoTerms: string[]; excludedTerms: string[] },
): Promise<void> {
  await db
    .update(products)
    // Terms saved by a user (Diagnose) are the user's, even when PhenomeAI proposed the first ones.
    .set({ ...terms, hpoTermsSource: 'given', updatedAt: sql`now()` })
    .where(eq(products.id, productId));
}
