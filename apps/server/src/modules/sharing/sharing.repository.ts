/**
 * SQL for the shares of a case: product_shares (the e-mails a case is shared with, read by the
 * case access check) and share_links (the e-mailed /shared/{token} links, their expiry,
 * revocation and opens).
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/database.ts';
import { deleteWhere } from '../../db/delete-where.ts';
import { products, productShares, shareLinks, type ProductRow, type ShareLinkRow } from '../../db/schema/products.ts';
import { users } from '../../db/schema/users.ts';

export async function listShares(db: Executor, caseId: string): Promise<string[]> {
  const rows = await db
    .select({ email: productShares.email })
    .from(productShares)
    .where(eq(productShares.productId, caseId))
    .orderBy(productShares.email);
  return rows.map((r) => r.email);
}

/** A person as the share e-mail names them: the account's name and surname and its address. */
export interface MailPerson {
  name: string;
  surname: string;
  email: string;
}

/** The names of the accounts with these ids or addresses (the sender, and the recipient if they have an account). */
export async function accountNames(db: Executor, where: { id: string } | { email: string }): Promise<MailPerson | null> {
  const [row] = await db
    .select({ name: users.name, surname: users.surname, email: users.email })
    .from(users)
    .where('id' in where ? eq(users.id, where.id) : eq(users.email, where.email));
  return row ?? null;
}

export async function addShare(db: Executor, caseId: string, email: string): Promise<void> {
  await db.insert(productShares).values({ productId: caseId, email }).onConflictDoNothing();
}

export function removeShare(db: Executor, caseId: string, email: string): Promise<boolean> {
  return deleteWhere(db, productShares, and(eq(productShares.productId, caseId), eq(productShares.email, email)));
}

export async function insertLink(
  db: Executor,
  link: { productId: string; email: string; tokenHash: string; expiresAt: Date },
): Promise<ShareLinkRow> {
  const [row] = await db.insert(shareLinks).values(link).returning();
  return row!;
}

/** Marks every live link of (case, e-mail) revoked; returns how many. */
export async function revokeLinks(db: Executor, caseId: string, email: string): Promise<number> {
  const rows = await db
    .update(shareLinks)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(shareLinks.productId, caseId), eq(shareLinks.email, email), isNull(shareLinks.revokedAt)))
    .returning({ id: shareLinks.id });
  return rows.length;
}

export interface LinkWithCase {
  link: ShareLinkRow;
  caseRow: ProductRow;
  ownerEmail: string;
  ownerName: string;
  ownerSurname: string;
  /** The e-mail is still in product_shares (not unshared). */
  stillShared: boolean;
}

/** The link with this token hash, its case and the case's owner, or null. */
export async function findLinkByTokenHash(db: Executor, tokenHash: string): Promise<LinkWithCase | null> {
  const [row] = await db
    .select({
      link: shareLinks,
      caseRow: products,
      ownerEmail: users.email,
      ownerName: users.name,
      ownerSurname: users.surname,
      stillShared: sql<boolean>`exists (select 1 from product_shares s where s.product_id = ${shareLinks.productId} and s.email = ${shareLinks.email})`,
    })
    .from(shareLinks)
    .innerJoin(products, eq(products.id, shareLinks.productId))
    .innerJoin(users, eq(users.id, products.ownerId))
    .where(eq(shareLinks.tokenHash, tokenHash));
  return row ?? null;
}

/** Counts one open of a link (last opened = now). */
export async function recordOpen(db: Executor, linkId: string): Promise<void> {
  await db
    .update(shareLinks)
    .set({ lastOpenedAt: sql`now()`, openCount: sql`${shareLinks.openCount} + 1` })
    .where(eq(shareLinks.id, linkId));
}

/**
 * Every share of the owner's cases: the latest link per (case, e-mail), newest first. Opens are
 * summed over every link sent for the pair; the last opening is the latest of them.
 */
export async function listOwnerShares(db: Executor, ownerId: string) {
  type Raw = {
    product_id: string;
    case_id: string;
    email: string;
    created_at: string | Date;
    expires_at: string | Date;
    revoked_at: string | Date | null;
    last_opened_at: string | Date | null;
    open_count: number | string;
  };
  const result = await db.execute(sql`
    select distinct on (l.product_id, l.email)
      l.product_id, p.case_id, l.email, l.created_at, l.expires_at, l.revoked_at,
      max(l.last_opened_at) over pair as last_opened_at,
      sum(l.open_count) over pair as open_count
    from share_links l
    join products p on p.id = l.product_id
    where p.owner_id = ${ownerId}
    window pair as (partition by l.product_id, l.email)
    order by l.product_id, l.email, l.created_at desc, l.id desc`);
  return (rowsOf(result) as Raw[])
    .map((r) => ({
      productId: r.product_id,
      caseId: r.case_id,
      email: r.email,
      createdAt: new Date(r.created_at),
      expiresAt: new Date(r.expires_at),
      revokedAt: r.revoked_at === null ? null : new Date(r.revoked_at),
      lastOpenedAt: r.last_opened_at === null ? null : new Date(r.last_opened_at),
      openCount: Number(r.open_count),
    }))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.email.localeCompare(b.email));
}

export type OwnerShareRow = Awaited<ReturnType<typeof listOwnerShares>>[number];

/** The newest link of (case, e-mail), if any (tests and the share response). */
export async function latestLink(db: Executor, caseId: string, email: string): Promise<ShareLinkRow | null> {
  const [row] = await db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.productId, caseId), eq(shareLinks.email, email)))
    .orderBy(desc(shareLinks.createdAt))
    .limit(1);
  return row ?? null;
}
