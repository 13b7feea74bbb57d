/** SQL for the stored variants of a case's run: the filtered, paged and clustered lists and one variant. */
import { and, asc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/database.ts';
import { findInRun } from '../../db/ranked-page.ts';
import { hasFilters, LISTED_COLUMNS, listedVariantOf, rawRowDecoder, VARIANT_ORDER, variantWhere, variantWherePrepared, type ListedVariantRow, type Page, type VariantFilters } from '../../db/run-variants.ts';
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
 * row (a list statement's) they would otherwise share names with run_variants' (id, chrom, pos...).
 */
const REVIEW_COLUMNS = getTableColumns(variantClassifications);
const REVIEW_FIELDS = Object.fromEntries(Object.values(REVIEW_COLUMNS).map((c) => [`review_${c.name}`, sql`${c}`.as(`review_${c.name}`)]));
const reviewOfRaw = rawRowDecoder(REVIEW_COLUMNS, (_key, c) => `review_${c.name}`);

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

/**
 * Raw rows of a select of LISTED_COLUMNS and REVIEW_FIELDS (left-joined on reviewOf), decoded by
 * rawRowDecoder: on a clustered page (up to 200 rows) drizzle's row mapping was the largest part
 * of the request's CPU.
 */
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

/** A list-order key in a prepared statement: placeholders for the cursor's values. */
const CURSOR_AT = { rank: sql.placeholder('afterRank'), score: sql.placeholder('afterScore'), id: sql.placeholder('afterId') };

/**
 * The rows after a cursor in list order (rank asc nulls last, score desc, id), as index range
 * conditions: one per branch, each a contiguous range of the list indexes (a row comparison
 * cannot express the mixed sort directions, and an OR of them would lose the index order). The
 * branches depend on whether the cursor's rank is null; its values are the placeholders CURSOR_AT.
 */
function afterCursor(rankIsNull: boolean): SQL[] {
  const { rank, score, id } = runVariants;
  const sameScoreLaterId = sql`${score} = ${CURSOR_AT.score}::real and ${id} > ${CURSOR_AT.id}::int`;
  const lowerScore = sql`${score} < ${CURSOR_AT.score}::real`;
  if (rankIsNull) return [sql`${rank} is null and ${sameScoreLaterId}`, sql`${rank} is null and ${lowerScore}`];
  return [
    sql`${rank} = ${CURSOR_AT.rank}::int and ${sameScoreLaterId}`,
    sql`${rank} = ${CURSOR_AT.rank}::int and ${lowerScore}`,
    sql`${rank} > ${CURSOR_AT.rank}::int`,
    sql`${rank} is null`,
  ];
}

/** Where a list statement reads: placeholders of the run, the case (reviews) and the page. */
const AT = { runId: sql.placeholder('runId'), caseId: sql.placeholder('caseId'), limit: sql.placeholder('limit'), offset: sql.placeholder('offset') };

/**
 * Variants in list order with filters, at an offset. Deferred join: the page of ids comes from an
 * index-only scan of the covering list index (deep offsets skip index entries, not wide heap
 * rows), joined to the full rows in the same statement.
 */
function pageQuery(db: Executor, where: SQL) {
  const page = db
    .select({ id: runVariants.id, rank: runVariants.rank, score: runVariants.score })
    .from(runVariants)
    .where(where)
    .orderBy(...VARIANT_ORDER)
    .limit(AT.limit)
    .offset(AT.offset)
    .as('page');
  return db
    .select({ ...LISTED_COLUMNS, ...REVIEW_FIELDS })
    .from(page)
    .innerJoin(runVariants, and(sql`${runVariants.runId} = ${AT.runId}::uuid`, eq(runVariants.id, page.id)))
    .leftJoin(variantClassifications, reviewOf(AT.caseId))
    .orderBy(sql`${page.rank} asc nulls last`, sql`${page.score} desc nulls last`, asc(page.id));
}

/**
 * A keyset page: the first `limit` rows after the cursor, one index range read per branch of
 * afterCursor (each stops after `limit` rows), then the full rows of those ids.
 */
function keysetQuery(db: Executor, where: SQL, rankIsNull: boolean) {
  const order = sql.join([...VARIANT_ORDER], sql`, `);
  const branches = afterCursor(rankIsNull).map(
    (b) => sql`(select ${runVariants.id} as id, ${runVariants.rank} as rank, ${runVariants.score} as score from ${runVariants} where ${where} and ${b} order by ${order} limit ${AT.limit})`,
  );
  const ids = sql`select id from (${sql.join(branches, sql` union all `)}) k order by k.rank asc nulls last, k.score desc, k.id limit ${AT.limit}`;
  return db
    .select({ ...LISTED_COLUMNS, ...REVIEW_FIELDS })
    .from(runVariants)
    .leftJoin(variantClassifications, reviewOf(AT.caseId))
    .where(and(where, sql`${runVariants.id} in (${ids})`))
    .orderBy(...VARIANT_ORDER);
}

/**
 * The list's prepared statements per database handle, by name: one per kind of list statement
 * and filter shape (variantWherePrepared), built by drizzle and parsed by PostgreSQL once per
 * connection, then executed with each request's values. Building a filtered page's SQL per
 * request was the largest part of the list's API CPU after the socket writes, and parsing it the
 * database's. The names are few (one per shape used) and their text never changes.
 */
const listStatements = new WeakMap<object, Map<string, object>>();

function listStatement(db: Executor, name: string, build: () => { prepare(name: string): object }): object {
  let byName = listStatements.get(db);
  if (byName === undefined) listStatements.set(db, (byName = new Map<string, object>()));
  let statement = byName.get(name);
  if (statement === undefined) {
    statement = build().prepare(name);
    byName.set(name, statement);
  }
  return statement;
}

/**
 * A page of the list of case `caseId`'s run `runId`: at `p`'s offset, or right after `after`
 * (keyset) when given; with the case's reviewer classifications of its rows.
 */
export async function listVariants(db: Executor, caseId: string, runId: string, f: VariantFilters, p: Page, after?: ListCursor): Promise<ListedVariants> {
  const { where, shape, params } = variantWherePrepared(runId, f);
  const values = { ...params, caseId, limit: p.pageSize };
  if (after) {
    const rankIsNull = after.rank === null;
    const statement = listStatement(db, `run_variants_keyset_${rankIsNull ? 'n' : 'r'}_${shape}`, () => keysetQuery(db, where, rankIsNull));
    return decodeListed(await rawRowsOf(statement, { ...values, afterRank: after.rank, afterScore: after.score, afterId: after.id }));
  }
  const statement = listStatement(db, `run_variants_page_${shape}`, () => pageQuery(db, where));
  return decodeListed(await rawRowsOf(statement, { ...values, offset: (p.page - 1) * p.pageSize }));
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
 * the other genes by their best variant's score, then symbol). Unfiltered (the default view):
 * the run's stored per-gene aggregate (run_variant_genes, written with its ranking), one read
 * of a few thousand rows; filtered, or for a run without it, one aggregate over the matching
 * variants. Callers keep it (per run, ranking and filter) and page through it.
 */
export async function clusterGenes(db: Executor, runId: string, f: VariantFilters): Promise<GeneCluster[]> {
  if (!hasFilters(f) && !f.candidatesOnly) {
    const stored = clusterRows(
      await db.execute(sql`
        select s.gene as gene, s.variant_count as n, g.rank as gene_rank, g.score as gene_score
        from run_variant_genes s
        left join run_genes g on g.run_id = s.run_id and g.symbol = s.gene
        where s.run_id = ${runId}::uuid
        order by g.rank asc nulls last, s.max_score desc, s.gene`),
    );
    if (stored.length > 0) return stored;
  }
  return clusterRows(
    await db.execute(sql`
      select run_variants.gene as gene, count(*)::int as n, g.rank as gene_rank, g.score as gene_score
      from run_variants
      left join run_genes g on g.run_id = run_variants.run_id and g.symbol = run_variants.gene
      where ${variantWhere(runId, f)} and run_variants.gene is not null
      group by run_variants.gene, g.rank, g.score
      order by g.rank asc nulls last, max(run_variants.score) desc, run_variants.gene`),
  );
}

function clusterRows(result: unknown): GeneCluster[] {
  return rowsOf(result).map((g) => ({
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
  const { where, shape, params } = variantWherePrepared(runId, f);
  const statement = listStatement(db, `run_variants_clusters_${shape}`, () => {
    const order = sql.join([...VARIANT_ORDER], sql`, `);
    const firstOfGene = sql`select ${runVariants.id} from ${runVariants} where ${where} and ${runVariants.gene} = g.symbol order by ${order} limit ${sql.placeholder('perGene')}`;
    return db
      .select({ ...LISTED_COLUMNS, ...REVIEW_FIELDS })
      .from(runVariants)
      .leftJoin(variantClassifications, reviewOf(AT.caseId))
      .where(and(where, sql`${runVariants.id} in (select l.id from unnest(${sql.placeholder('genes')}::text[]) as g(symbol) cross join lateral (${firstOfGene}) as l(id))`))
      .orderBy(...VARIANT_ORDER);
  });
  const { rows, reviews } = decodeListed(await rawRowsOf(statement, { ...params, caseId, genes, perGene }));
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

