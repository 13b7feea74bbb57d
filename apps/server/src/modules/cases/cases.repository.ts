/** SQL for cases (table `products`) and their files. */
import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { findOne } from '../../db/find-one.ts';
import { preparedPerDb } from '../../db/prepared.ts';
import { users } from '../../db/schema/users.ts';
import {
  productFiles,
  productShares,
  products,
  type ProductFileRow,
  type ProductRow,
} from '../../db/schema/products.ts';

export type NewCase = typeof products.$inferInsert;
export type NewCaseFile = typeof productFiles.$inferInsert;

export async function insertCase(
  db: Executor,
  row: NewCase,
  files: NewCaseFile[],
): Promise<void> {
  await db.insert(products).values(row);
  if (files.length > 0) await db.insert(productFiles).values(files);
}

export { findRun } from '../../db/analysis-runs.ts';

/** The owner's name as shown beside their address: "Ada Lovelace" (name and surname, trimmed). */
const ownerDisplayName = sql<string>`trim(${users.name} || ' ' || ${users.surname})`;

function buildAccessQuery(db: Executor) {
  return db
    .select({
      caseRow: products,
      ownerEmail: users.email,
      ownerName: ownerDisplayName,
      storedVariants: sql<string | null>`(select r.counts->>'variantsStored' from analysis_runs r where r.id = ${products.currentRunId})`,
      runRankedAt: sql<string | null>`(select r.ranked_at::text from analysis_runs r where r.id = ${products.currentRunId})`,
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
    .prepare('cases_find_accessible');
}

/** Every request under a case runs this check: a prepared statement (preparedPerDb). */
const accessQuery = preparedPerDb(buildAccessQuery);

/** Access level of `user` on a case: owner, shared (read-only), or none. */
export async function findAccessibleCase(
  db: Executor,
  id: string,
  user: { id: string; email: string },
): Promise<{ caseRow: ProductRow; isOwner: boolean; ownerEmail: string; ownerName: string; storedVariants: number | null; runRankedAt: string | null } | null> {
  // One round trip: access check, owner e-mail, the current run's stored-variant count (the
  // total of unfiltered variant lists) and when it was last ranked (the key of cached counts).
  const rows = await accessQuery(db).execute({ id, userId: user.id, email: user.email });
  const row = rows[0];
  if (!row) return null;
  return {
    caseRow: row.caseRow,
    isOwner: row.caseRow.ownerId === user.id,
    ownerEmail: row.ownerEmail,
    ownerName: row.ownerName,
    storedVariants: row.storedVariants == null ? null : Number(row.storedVariants),
    runRankedAt: row.runRankedAt,
  };
}

export interface CaseListRow {
  caseRow: ProductRow;
  ownerEmail: string;
  /** The owner's name and surname as one (empty when the profile has none). */
  ownerName: string;
  shareCount: number;
}

/** The user's cases that are queued or being analysed. */
export async function countActiveCases(db: Executor, ownerId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(products)
    .where(and(eq(products.ownerId, ownerId), inArray(products.status, ['In queue', 'Processing'])));
  return row?.n ?? 0;
}

/** The user's own cases and the cases shared with their e-mail, newest first. */
export async function listCases(
  db: Executor,
  user: { id: string; email: string },
): Promise<CaseListRow[]> {
  const rows = await db
    .select({
      caseRow: products,
      ownerEmail: users.email,
      ownerName: ownerDisplayName,
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

export async function listFiles(db: Executor, caseId: string): Promise<ProductFileRow[]> {
  return db
    .select()
    .from(productFiles)
    .where(eq(productFiles.productId, caseId))
    .orderBy(productFiles.createdAt, productFiles.id);
}

export function findFile(db: Executor, caseId: string, fileId: string): Promise<ProductFileRow | null> {
  return findOne(db, productFiles, and(eq(productFiles.productId, caseId), eq(productFiles.id, fileId)));
}

export async function updateTerms(
  db: Executor,
  caseId: string,
  terms: { hpoTerms: string[]; excludedTerms: string[] },
): Promise<void> {
  await db
    .update(products)
    // Terms saved by a user (Diagnose) are the user's, even when PhenomeAI proposed the first ones.
    .set({ ...terms, hpoTermsSource: 'given', updatedAt: sql`now()` })
    .where(eq(products.id, caseId));
}

/** Deletes a case; its files, runs, results, shares and reports go with it (ON DELETE CASCADE). */
export async function deleteCase(db: Executor, caseId: string): Promise<void> {
  await db.delete(products).where(eq(products.id, caseId));
}

/**
 * Puts a failed case back in the queue (status In queue, no reason, no progress); false when
 * the case is not (or no longer) in Error, so two retries never queue it twice.
 */
export async function requeueFailedCase(db: Executor, caseId: string): Promise<boolean> {
  const rows = await db
    .update(products)
    .set({ status: 'In queue', progress: 0, progressStage: null, errorReason: null, updatedAt: sql`now()` })
    .where(and(eq(products.id, caseId), eq(products.status, 'Error')))
    .returning({ id: products.id });
  return rows.length > 0;
}
