/** SQL for the stored variants of a case's run: the filtered, paged and clustered lists and one variant. */
import { and, asc, eq, getTableColumns, inArray, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/database.ts';
import { findInRun } from '../../db/ranked-page.ts';
import { hasFilters, LISTED_COLUMNS, listedVariantOf, rawRowDecoder, VARIANT_ORDER, variantWhere, type ListedVariantRow, type Page, type VariantFilters } from '../../db/run-variants.ts';
import { runVariants } from '../../db/schema/products.ts';
import { variantClassifications, type VariantClassificationRow } from '../../db/schema/variant-classifications.ts';

/**
 * Rows of a list page and the case's reviewer classifications of those rows' alleles, read in
 * the same statement (a left join on the classifications' unique allele index) instead of a
 * separate query of the case's classifications per request.
 */
export interface ListedVariants {
  rows: ListedVariantRow[];
  reviews: VariantClassificationRow[];
}

/** The join condition of a variant's reviewer classification in case `caseId`. */
function reviewOf(caseId: ReturnType<typeof sql.placeholder> | string) {
  return and(
    eq(variantClassifications.productId, caseId),
    eq(variantClassifications.chrom, runVariants.chrom),
    eq(variantClassifications.pos, runVariants.pos),
    eq(variantClassifications.ref, runVariants.ref),
    eq(variantClassifications.alt, runVariants.alt),
  );
}

/**
 * The reviewer classification columns of a listed row, selected as review_<column>: in a raw
 * row (selectListed) they would otherwise share names with run_variants' (id, chrom, pos...).
 */
const REVIEW_COLUMNS = getTableColumns(variantClassifications);
const REVIEW_FIELDS = Object.fromEntries(Object.values(REVIEW_COLUMNS).map((c) => [`review_${c.name}`, sql`${c}`.as(`review_${c.name}`)]));
const reviewOfRaw = rawRowDecoder(REVIEW_COLUMNS, (_key, c) => `review_${c.name}`);

/**
 * Runs a select of LISTED_COLUMNS and REVIEW_FIELDS (left-joined on reviewOf) as a raw query
 * and decodes its rows with rawRowDecoder: on a clustered page (up to 200 rows) drizzle's row
 * mapping was the largest part of the request's CPU.
 */
async function selectListed(db: Executor, query: SQLWrapper): Promise<ListedVariants> {
  return decodeListed(rowsOf(await db.execute(query.getSQL())));
}

/**
 * The raw rows of a prepared statement: `all()`, which drizzle's PostgreSQL and PGlite prepared
 * queries both implement (the rows as the driver answers them, without drizzle's row mapping)
 * but its select types do not declare.
 */
async function rawRowsOf(statement: object, params: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const all = (statement as { all?: (p: Record<string, unknown>) => Promise<unknown> }).all;
  if (typeof all !== 'function') throw new Error('this driver\'s prepared statement has no all(): cannot read raw rows');
  const rows = await all.call(statement, params);
  if (!Array.isArray(rows)) throw new Error('prepared statement all() did not answer rows');
  return rows as Record<string, unknown>[];
}

/** Raw rows of a select of LISTED_COLUMNS and REVIEW_FIELDS, decoded (selectListed). */
function decodeListed(raw: Record<string, unknown>[]): ListedVariants {
  const rows: ListedVariantRow[] = [];
  const reviews: VariantClassificationRow[] = [];
  for (const r of raw) {
    rows.push(listedVariantOf(r));
    if (r.review_id !== null) reviews.push(reviewOfRaw(r));
  }
  return { rows, reviews };
}

/** Counting stops here: deeper pages still work, the total shows as "10,000+". */
export const COUNT_CAP = 10_000;

/**
 * Number of matching rows, counted up to COUNT_CAP + 1 (an index range scan, never the whole case).
 * In list order, so a filter on a common value (outside the partial filter indexes) reads the
 * covering list index until the cap rather than a sequential scan of the table, which the planner
 * otherwise picks for it (every run's rows: seconds on a cold table).
 */
export async function cappedCount(db: Executor, runId: string, f: VariantFilters): Promise<{ total: number; capped: boolean }> {
  const order = sql.join([...VARIANT_ORDER], sql`, `);
  const rows = rowsOf(
    await db.execute(sql`select count(*)::int as n from (select 1 from run_variants where ${variantWhere(runId, f)} order by ${order} limit ${COUNT_CAP + 1}) t`),
  );
  const n = Number(rows[0]?.n ?? 0);
  return n > COUNT_CAP ? { total: COUNT_CAP, capped: true } : { total: n, capped: false };
}

/** Where a keyset page starts: the list-order key of the previous page's last variant. */
export interface ListCursor {
  rank: number | null;
  score: number;
  id: number;
}

export function encodeCursor(c: ListCursor): string {
  return Buffer.from(JSON.stringify([c.rank, c.score, c.id])).toString('base64url');
}

/** The cursor of `after`, or null when it is not one this server wrote. */
export function decodeCursor(text: string): ListCursor | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 3) return null;
  const [rank, score, id] = value as unknown[];
  const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
  if (!(rank === null || (isInt(rank) && rank >= 1))) return null;
  if (typeof score !== 'number' || !Number.isFinite(score) || !isInt(id) || id < 0) return null;
  return { rank, score, id };
}

/**
 * The rows after `c` in list order (rank asc nulls last, score desc, id), as index range
 * conditions: one per branch, each a contiguous range of the list indexes (a row comparison
 * cannot express the mixed sort directions, and an OR of them would lose the index order).
 */
function afterCursor(c: ListCursor): SQL[] {
  const { rank, score, id } = runVariants;
  const sameScoreLaterId = sql`${score} = ${c.score}::real and ${id} > ${c.id}`;
  const lowerScore = sql`${score} < ${c.score}::real`;
  if (c.rank === null) return [sql`${rank} is null and ${sameScoreLaterId}`, sql`${rank} is null and ${lowerScore}`];
  return [
    sql`${rank} = ${c.rank} and ${sameScoreLaterId}`,
    sql`${rank} = ${c.rank} and ${lowerScore}`,
    sql`${rank} > ${c.rank}`,
    sql`${rank} is null`,
  ];
}

/**
 * Variants in list order with filters; `knownTotal` skips counting (unfiltered lists).
 * Deferred join: the page of ids comes from an index-only scan of the covering list index
 * (deep offsets skip index entries, not wide heap rows), joined to the full rows in the same
 * statement.
 */
function pageQuery(db: Executor, where: SQL, at: PageAt) {
  const page = db
    .select({ id: runVariants.id, rank: runVariants.rank, score: runVariants.score })
    .from(runVariants)
    .where(where)
    .orderBy(...VARIANT_ORDER)
    .limit(at.limit)
    .offset(at.offset)
    .as('page');
  return db
    .select({ ...LISTED_COLUMNS, ...REVIEW_FIELDS })
    .from(page)
    .innerJoin(runVariants, and(eq(runVariants.runId, at.runId), eq(runVariants.id, page.id)))
    .leftJoin(variantClassifications, reviewOf(at.caseId))
    .orderBy(sql`${page.rank} asc nulls last`, sql`${page.score} desc nulls last`, asc(page.id));
}

/** Where a page query reads: values, or placeholders of a prepared statement. */
interface PageAt {
  runId: string | Placeholder;
  caseId: string | Placeholder;
  limit: number | Placeholder;
  offset: number | Placeholder;
}

const PREPARED_AT: PageAt = { runId: sql.placeholder('runId'), caseId: sql.placeholder('caseId'), limit: sql.placeholder('limit'), offset: sql.placeholder('offset') };

/**
 * A keyset page: the first `limit` rows after the cursor, one index range read per branch of
 * afterCursor (each stops after `limit` rows), then the full rows of those ids.
 */
function keysetQuery(db: Executor, caseId: string, where: SQL, c: ListCursor, limit: number) {
  const order = sql.join([...VARIANT_ORDER], sql`, `);
  const branches = afterCursor(c).map(
    (b) => sql`(select ${runVariants.id} as id, ${runVariants.rank} as rank, ${runVariants.score} as score from ${runVariants} where ${where} and ${b} order by ${order} limit ${limit})`,
  );
  const ids = sql`select id from (${sql.join(branches, sql` union all `)}) k order by k.rank asc nulls last, k.score desc, k.id limit ${limit}`;
  return db
    .select({ ...LISTED_COLUMNS, ...REVIEW_FIELDS })
    .from(runVariants)
    .leftJoin(variantClassifications, reviewOf(caseId))
    .where(and(where, sql`${runVariants.id} in (${ids})`))
    .orderBy(...VARIANT_ORDER);
}

/** The two filter-free list shapes (all variants, candidates only) as prepared statements. */
const pagePrepared = new WeakMap<object, { all: ReturnType<ReturnType<typeof pageQuery>['prepare']>; candidates: ReturnType<ReturnType<typeof pageQuery>['prepare']> }>();

/**
 * A page of the list of case `caseId`'s run `runId`: at `p`'s offset, or right after `after`
 * (keyset) when given; with the case's reviewer classifications of its rows.
 */
export async function listVariants(db: Executor, caseId: string, runId: string, f: VariantFilters, p: Page, after?: ListCursor): Promise<ListedVariants> {
  if (after) return selectListed(db, keysetQuery(db, caseId, variantWhere(runId, f), after, p.pageSize));
  const params = { runId, caseId, limit: p.pageSize, offset: (p.page - 1) * p.pageSize };
  if (hasFilters(f)) return selectListed(db, pageQuery(db, variantWhere(runId, f), params));
  let prepared = pagePrepared.get(db);
  if (!prepared) {
    const byRun = eq(runVariants.runId, sql.placeholder('runId'));
    prepared = {
      all: pageQuery(db, byRun, PREPARED_AT).prepare('run_variants_listed_page_all'),
      candidates: pageQuery(db, and(byRun, sql`${runVariants.rank} is not null`)!, PREPARED_AT).prepare('run_variants_listed_page_candidates'),
    };
    pagePrepared.set(db, prepared);
  }
  return decodeListed(await rawRowsOf(f.candidatesOnly ? prepared.candidates : prepared.all, params));
}

/** A gene of the clustered view: its matching variants' count and the gene's rank and score. */
export interface GeneCluster {
  symbol: string;
  variantCount: number;
  geneRank: number | null;
  geneScore: number | null;
}

/**
 * Every gene that has matching variants, in clustered-view order (ranked genes by rank, then
 * the other genes by their best variant's score, then symbol). One aggregate over the
 * matching variants: callers keep it (per run, ranking and filter) and page through it.
 */
export async function clusterGenes(db: Executor, runId: string, f: VariantFilters): Promise<GeneCluster[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select run_variants.gene as gene, count(*)::int as n, g.rank as gene_rank, g.score as gene_score
      from run_variants
      left join run_genes g on g.run_id = run_variants.run_id and g.symbol = run_variants.gene
      where ${variantWhere(runId, f)} and run_variants.gene is not null
      group by run_variants.gene, g.rank, g.score
      order by g.rank asc nulls last, max(run_variants.score) desc, run_variants.gene`),
  );
  return rows.map((g) => ({
    symbol: String(g.gene),
    variantCount: Number(g.n),
    geneRank: g.gene_rank == null ? null : Number(g.gene_rank),
    geneScore: g.gene_score == null ? null : Number(g.gene_score),
  }));
}

/**
 * The first `perGene` matching variants (list order) of each of `genes`: one ordered range read
 * of the (run, gene, rank, score, id) index per gene, never all of a large gene's variants;
 * with case `caseId`'s reviewer classifications of them.
 */
export async function clusterVariants(
  db: Executor,
  caseId: string,
  runId: string,
  f: VariantFilters,
  genes: string[],
  perGene: number,
): Promise<{ byGene: Map<string, ListedVariantRow[]>; reviews: VariantClassificationRow[] }> {
  const byGene = new Map<string, ListedVariantRow[]>();
  if (genes.length === 0) return { byGene, reviews: [] };
  const where = variantWhere(runId, f);
  const order = sql.join([...VARIANT_ORDER], sql`, `);
  const firstOfGene = sql`select ${runVariants.id} from ${runVariants} where ${where} and ${runVariants.gene} = g.symbol order by ${order} limit ${perGene}`;
  const { rows, reviews } = await selectListed(
    db,
    db
      .select({ ...LISTED_COLUMNS, ...REVIEW_FIELDS })
      .from(runVariants)
      .leftJoin(variantClassifications, reviewOf(caseId))
      .where(and(where, sql`${runVariants.id} in (select l.id from unnest(${sql.param(genes)}::text[]) as g(symbol) cross join lateral (${firstOfGene}) as l(id))`))
      .orderBy(...VARIANT_ORDER),
  );
  for (const v of rows) {
    const list = byGene.get(v.gene ?? '') ?? [];
    list.push(v);
    byGene.set(v.gene ?? '', list);
  }
  return { byGene, reviews };
}

export function findVariant(db: Executor, runId: string, id: number) {
  return findInRun(db, runVariants, runId, eq(runVariants.id, id));
}

/** Top variants (by rank) in the given genes. */
export async function variantsInGenes(db: Executor, runId: string, genes: string[], limit: number) {
  if (genes.length === 0) return [];
  return db
    .select()
    .from(runVariants)
    .where(and(eq(runVariants.runId, runId), inArray(runVariants.gene, genes)))
    .orderBy(...VARIANT_ORDER)
    .limit(limit);
}

