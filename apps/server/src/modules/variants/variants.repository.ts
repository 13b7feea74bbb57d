/** SQL for the stored variants of a case's run: the filtered, paged and clustered lists and one variant. */
import { and, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/database.ts';
import {
  hasFilters,
  LISTED_COLUMNS,
  listedVariantOf,
  matchesUnranked,
  rawRowDecoder,
  selectRankedVariants,
  UNRANKED_ORDER,
  VARIANT_ORDER,
  variantWhere,
  variantWherePrepared,
  type ListedVariantRow,
  type Page,
  type VariantFilters,
} from '../../db/run-variants.ts';
import { runVariantRanks, runVariants, type RunVariantRow } from '../../db/schema/products.ts';
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
 * The list's two parts, each read in the order of its own indexes: the run's candidates in rank
 * order from run_variant_ranks (`ranked`), and the other variants by (score desc, id) from
 * run_variants' list-order indexes, which hold the non-candidates only (`unranked`; absent when
 * the filters match candidates only). Every ranked row comes before every unranked one.
 * Each selects (id, rank, score): the rank null in the unranked part, the score null in the
 * ranked one (ranks are unique within a run).
 */
function listParts(where: { ranked: SQL; unranked: SQL | null }, limit: SQL | ReturnType<typeof sql.placeholder>, after?: { ranked: SQL | undefined; unranked: SQL[] }): SQL[] {
  const r = runVariantRanks;
  const v = runVariants;
  const parts: SQL[] = [];
  if (after === undefined || after.ranked !== undefined) {
    parts.push(sql`(select ${r.id} as id, ${r.rank} as rank, null::real as score from ${r} where ${where.ranked}${after?.ranked ? sql` and ${after.ranked}` : sql``} order by ${r.rank} limit ${limit})`);
  }
  if (where.unranked) {
    const order = sql.join([...UNRANKED_ORDER], sql`, `);
    for (const b of after?.unranked.length ? after.unranked : [undefined]) {
      parts.push(sql`(select ${v.id} as id, null::int as rank, ${v.score} as score from ${v} where ${where.unranked}${b ? sql` and ${b}` : sql``} order by ${order} limit ${limit})`);
    }
  }
  return parts;
}

/** The list order of listParts' rows (aliased `alias`). */
function partsOrder(alias: string): SQL {
  const a = sql.raw(alias);
  return sql`${a}.rank asc nulls last, ${a}.score desc nulls last, ${a}.id`;
}

/** The filter's WHERE clauses of both parts of a list with bound values (unranked: null when only candidates can match). */
function boundWheres(runId: string, f: VariantFilters): { ranked: SQL; unranked: SQL | null } {
  return { ranked: variantWhere(runId, f, 'ranked'), unranked: matchesUnranked(f) ? variantWhere(runId, f, 'unranked') : null };
}

/**
 * Number of matching rows, counted up to COUNT_CAP + 1 (index range scans, never the whole case).
 * Each part in its list order, so a filter on a common value (outside the partial filter indexes)
 * reads the covering list index until the cap rather than a sequential scan of the table, which
 * the planner otherwise picks for it (every run's rows: seconds on a cold table).
 */
export async function cappedCount(db: Executor, runId: string, f: VariantFilters): Promise<{ total: number; capped: boolean }> {
  const parts = listParts(boundWheres(runId, f), sql`${COUNT_CAP + 1}`);
  // The ranked part is read first (Append): the unranked one only for what the cap leaves.
  const rows = rowsOf(await db.execute(sql`select count(*)::int as n from (select 1 from (${sql.join(parts, sql` union all `)}) u limit ${COUNT_CAP + 1}) t`));
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
 * The rows after a cursor in list order, as index range conditions of each part (listParts'
 * `after`): after a ranked row, the ranked rows of higher rank (ranks are unique within a run)
 * and every unranked row; after an unranked row, no ranked row and the unranked rows after it,
 * one branch per contiguous range of the (score desc, id) indexes (a row comparison cannot
 * express the mixed sort directions, and an OR of them would lose the index order). Its values
 * are the placeholders CURSOR_AT.
 */
function afterCursor(rankIsNull: boolean): { ranked: SQL | undefined; unranked: SQL[] } {
  const { score, id } = runVariants;
  if (!rankIsNull) return { ranked: sql`${runVariantRanks.rank} > ${CURSOR_AT.rank}::int`, unranked: [] };
  return {
    ranked: undefined,
    unranked: [sql`${score} = ${CURSOR_AT.score}::real and ${id} > ${CURSOR_AT.id}::int`, sql`${score} < ${CURSOR_AT.score}::real`],
  };
}

/** Where a list statement reads: placeholders of the run, the case (reviews) and the page. */
const AT = { runId: sql.placeholder('runId'), caseId: sql.placeholder('caseId'), limit: sql.placeholder('limit'), offset: sql.placeholder('offset') };

/** The rank of a listed row as the page (`page`) gives it, selected as `rank` (listedVariantOf). */
const PAGE_RANK = sql<number | null>`page.rank`.as('rank');

/**
 * The listed rows of a page of ids (`page`: id, rank, score; `pageSql` with its own ORDER BY and
 * LIMIT): their stored rows and the case's reviews of them, in list order.
 */
function listedRows(db: Executor, pageSql: SQL) {
  return db
    .select({ ...LISTED_COLUMNS, rank: PAGE_RANK, ...REVIEW_FIELDS })
    .from(sql`(${pageSql}) as page`)
    .innerJoin(runVariants, and(sql`${runVariants.runId} = ${AT.runId}::uuid`, sql`${runVariants.id} = page.id`))
    .leftJoin(variantClassifications, reviewOf(AT.caseId))
    .orderBy(partsOrder('page'));
}

/**
 * Variants in list order with filters, at an offset. Every ranked row comes before every
 * unranked one, so the page is the ranked part's rows at the offset and, when the ranked part
 * ends before the page does, the unranked part's rows at the offset less the ranked rows before
 * it: each part reads at most offset + limit index entries (a union of both parts sorted would
 * read offset + limit of each). Deferred join: the page of ids comes from the narrow rank table
 * and the covering list index (deep offsets skip index entries, not wide heap rows), joined to
 * the full rows in the same statement.
 */
function pageQuery(db: Executor, where: { ranked: SQL; unranked: SQL | null }) {
  const r = runVariantRanks;
  const v = runVariants;
  const ranked = sql`select ${r.id} as id, ${r.rank} as rank, null::real as score from ${r} where ${where.ranked} order by ${r.rank} limit ${AT.limit} offset ${AT.offset}`;
  if (!where.unranked) return listedRows(db, ranked);
  const rankedBefore = sql`(select count(*) from (select 1 from ${r} where ${where.ranked} limit ${AT.offset}) b)`;
  const order = sql.join([...UNRANKED_ORDER], sql`, `);
  const unranked = sql`select ${v.id} as id, null::int as rank, ${v.score} as score from ${v} where ${where.unranked} order by ${order} limit ${AT.limit} offset greatest(0, ${AT.offset}::int - ${rankedBefore})`;
  return listedRows(db, rankedThenUnranked(ranked, unranked));
}

/**
 * A page of at most `limit` rows: the rows of `ranked`, then, only when they do not fill the page,
 * those of `unranked` (every ranked row comes first in list order). The unranked part's scan (and
 * its offset's count) does not run when the ranked rows fill the page: it sits under a one-time
 * filter on the ranked rows' number.
 */
function rankedThenUnranked(ranked: SQL, unranked: SQL): SQL {
  return sql`with rp as materialized (${ranked})
    select * from (select * from rp union all select * from (${unranked}) u where (select count(*) from rp) < ${AT.limit}::int) p
    order by ${partsOrder('p')} limit ${AT.limit}`;
}

/**
 * A keyset page: the first `limit` rows after the cursor, one index range read per branch of
 * afterCursor (each stops after `limit` rows; the unranked part only when the ranked rows after
 * the cursor do not fill the page), then the full rows of those ids.
 */
function keysetQuery(db: Executor, where: { ranked: SQL; unranked: SQL | null }, rankIsNull: boolean) {
  const parts = listParts(where, AT.limit, afterCursor(rankIsNull));
  if (!rankIsNull && where.unranked && parts.length === 2) return listedRows(db, rankedThenUnranked(sql`select * from ${parts[0]!} a`, sql`select * from ${parts[1]!} b`));
  return listedRows(db, sql`select * from (${sql.join(parts, sql` union all `)}) p order by ${partsOrder('p')} limit ${AT.limit}`);
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
 * The filter's WHERE clauses of both parts of a list for a prepared statement (unranked: null
 * when only candidates can match), their values by placeholder name and the statement's shape.
 */
function preparedWheres(runId: string, f: VariantFilters): { where: { ranked: SQL; unranked: SQL | null }; shape: string; params: Record<string, unknown> } {
  const ranked = variantWherePrepared(runId, f, 'ranked');
  const unranked = matchesUnranked(f) ? variantWherePrepared(runId, f, 'unranked') : null;
  // Both clauses name the same placeholders with the same values; the shape is the filters'.
  return { where: { ranked: ranked.where, unranked: unranked?.where ?? null }, shape: ranked.shape, params: ranked.params };
}

/**
 * A page of the list of case `caseId`'s run `runId`: at `p`'s offset, or right after `after`
 * (keyset) when given; with the case's reviewer classifications of its rows.
 */
export async function listVariants(db: Executor, caseId: string, runId: string, f: VariantFilters, p: Page, after?: ListCursor): Promise<ListedVariants> {
  const { where, shape, params } = preparedWheres(runId, f);
  const values = { ...params, caseId, limit: p.pageSize };
  if (after) {
    const rankIsNull = after.rank === null;
    const statement = listStatement(db, `run_variants_keyset_${rankIsNull ? 'n' : 'r'}_${shape}`, () => keysetQuery(db, where, rankIsNull));
    return decodeListed(await rawRowsOf(statement, { ...values, afterRank: after.rank, afterScore: after.score, afterId: after.id }));
  }
  const offset = (p.page - 1) * p.pageSize;
  const statement = listStatement(db, `run_variants_page_${shape}`, () => pageQuery(db, where));
  return decodeListed(await rawRowsOf(statement, { ...values, offset }));
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
  // Candidates (run_variants_candidates_idx) and the other variants (the filter indexes) apart:
  // the filter indexes hold the non-candidates only.
  const part = (where: SQL) =>
    sql`select run_variants.gene, count(*)::int as n, max(run_variants.score) as max_score from run_variants where ${where} and run_variants.gene is not null group by run_variants.gene`;
  const parts = [part(variantWhere(runId, { ...f, candidatesOnly: true }))];
  if (matchesUnranked(f)) parts.push(part(variantWhere(runId, f, 'unranked')));
  return clusterRows(
    await db.execute(sql`
      select x.gene as gene, sum(x.n)::int as n, g.rank as gene_rank, g.score as gene_score
      from (${sql.join(parts, sql` union all `)}) x
      left join run_genes g on g.run_id = ${runId}::uuid and g.symbol = x.gene
      group by x.gene, g.rank, g.score
      order by g.rank asc nulls last, max(x.max_score) desc, x.gene`),
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
  const { where, shape, params } = preparedWheres(runId, f);
  const statement = listStatement(db, `run_variants_clusters_${shape}`, () => {
    const perGeneAt = sql.placeholder('perGene');
    const r = runVariantRanks;
    const v = runVariants;
    const parts = [sql`(select ${r.id} as id, ${r.rank} as rank, null::real as score from ${r} where ${where.ranked} and ${r.gene} = g.symbol order by ${r.rank} limit ${perGeneAt})`];
    if (where.unranked) {
      const order = sql.join([...UNRANKED_ORDER], sql`, `);
      parts.push(sql`(select ${v.id} as id, null::int as rank, ${v.score} as score from ${v} where ${where.unranked} and ${v.gene} = g.symbol order by ${order} limit ${perGeneAt})`);
    }
    const firstOfGene = sql`select * from (${sql.join(parts, sql` union all `)}) q order by ${partsOrder('q')} limit ${perGeneAt}`;
    return listedRows(db, sql`select l.id, l.rank, l.score from unnest(${sql.placeholder('genes')}::text[]) as g(symbol) cross join lateral (${firstOfGene}) as l`);
  });
  const { rows, reviews } = decodeListed(await rawRowsOf(statement, { ...params, caseId, genes, perGene }));
  for (const v of rows) {
    const list = byGene.get(v.gene ?? '') ?? [];
    list.push(v);
    byGene.set(v.gene ?? '', list);
  }
  return { byGene, reviews };
}

export async function findVariant(db: Executor, runId: string, id: number): Promise<RunVariantRow | null> {
  const [row] = await selectRankedVariants(db).where(and(eq(runVariants.runId, runId), eq(runVariants.id, id))).limit(1);
  return row ?? null;
}

/** Top variants (list order: candidates by rank) in the given genes. */
export async function variantsInGenes(db: Executor, runId: string, genes: string[], limit: number): Promise<RunVariantRow[]> {
  if (genes.length === 0) return [];
  return selectRankedVariants(db)
    .where(and(eq(runVariants.runId, runId), inArray(runVariants.gene, genes)))
    .orderBy(...VARIANT_ORDER)
    .limit(limit);
}
