/** SQL for the stored variants of a case's run: the filtered, paged and clustered lists and one variant. */
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/database.ts';
import { hasFilters, VARIANT_ORDER, variantWhere, type Page, type VariantFilters } from '../../db/run-variants.ts';
import { runVariants, type RunVariantRow } from '../../db/schema/products.ts';

/** Counting stops here: deeper pages still work, the total shows as "10,000+". */
export const COUNT_CAP = 10_000;

/** Number of matching rows, counted up to COUNT_CAP + 1 (an index range scan, never the whole case). */
async function cappedCount(db: Executor, where: SQL, table: 'run_variants'): Promise<{ total: number; capped: boolean }> {
  const rows = rowsOf(
    await db.execute(sql`select count(*)::int as n from (select 1 from ${sql.identifier(table)} where ${where} limit ${COUNT_CAP + 1}) t`),
  );
  const n = Number(rows[0]?.n ?? 0);
  return n > COUNT_CAP ? { total: COUNT_CAP, capped: true } : { total: n, capped: false };
}

/**
 * Variants in list order with filters; `knownTotal` skips counting (unfiltered lists).
 * Deferred join: the page of ids comes from an index-only scan of the covering list index
 * (deep offsets skip index entries, not wide heap rows), joined to the full rows in the same
 * statement.
 */
function pageQuery(db: Executor, where: SQL) {
  const page = db
    .select({ id: runVariants.id, rank: runVariants.rank, score: runVariants.score })
    .from(runVariants)
    .where(where)
    .orderBy(...VARIANT_ORDER)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .as('page');
  return db
    .select({ v: runVariants })
    .from(page)
    .innerJoin(runVariants, and(eq(runVariants.runId, sql.placeholder('runId')), eq(runVariants.id, page.id)))
    .orderBy(sql`${page.rank} asc nulls last`, sql`${page.score} desc nulls last`, asc(page.id));
}

/** The two filter-free list shapes (all variants, candidates only) as prepared statements. */
const pagePrepared = new WeakMap<object, { all: ReturnType<ReturnType<typeof pageQuery>['prepare']>; candidates: ReturnType<ReturnType<typeof pageQuery>['prepare']> }>();

export async function listVariants(db: Executor, runId: string, f: VariantFilters, p: Page, knownTotal?: number) {
  const where = variantWhere(runId, f);
  const params = { runId, limit: p.pageSize, offset: (p.page - 1) * p.pageSize };
  let rowsPromise;
  if (!hasFilters(f)) {
    let prepared = pagePrepared.get(db);
    if (!prepared) {
      const byRun = eq(runVariants.runId, sql.placeholder('runId'));
      prepared = {
        all: pageQuery(db, byRun).prepare('run_variants_page_all'),
        candidates: pageQuery(db, and(byRun, sql`${runVariants.rank} is not null`)!).prepare('run_variants_page_candidates'),
      };
      pagePrepared.set(db, prepared);
    }
    rowsPromise = (f.candidatesOnly ? prepared.candidates : prepared.all).execute(params);
  } else {
    rowsPromise = pageQuery(db, where).execute(params);
  }
  const [rows, count] = await Promise.all([
    rowsPromise,
    knownTotal != null ? Promise.resolve({ total: knownTotal, capped: false }) : cappedCount(db, where, 'run_variants'),
  ]);
  return { items: rows.map((r) => r.v), ...count };
}

/**
 * Clustered view: a page of genes that have matching variants, in gene-rank order (ranked
 * genes first, then other genes by their best variant), each with up to `perGene` variants.
 */
export async function listVariantClusters(db: Executor, runId: string, f: VariantFilters, p: Page, perGene: number) {
  const where = variantWhere(runId, f);
  const groups = rowsOf(
    await db.execute(sql`
      select run_variants.gene as gene, count(*)::int as n, g.rank as gene_rank, g.score as gene_score
      from run_variants
      left join run_genes g on g.run_id = run_variants.run_id and g.symbol = run_variants.gene
      where ${where} and run_variants.gene is not null
      group by run_variants.gene, g.rank, g.score
      order by g.rank asc nulls last, max(run_variants.score) desc, run_variants.gene
      limit ${p.pageSize} offset ${(p.page - 1) * p.pageSize}`),
  );
  const totalRows = rowsOf(
    await db.execute(sql`select count(distinct gene)::int as n from run_variants where ${where} and gene is not null`),
  );
  const symbols = groups.map((g) => String(g.gene));
  const variants = symbols.length
    ? await db
        .select()
        .from(runVariants)
        .where(and(where, inArray(runVariants.gene, symbols)))
        .orderBy(...VARIANT_ORDER)
    : [];
  const byGene = new Map<string, RunVariantRow[]>();
  for (const v of variants) {
    const list = byGene.get(v.gene ?? '') ?? [];
    if (list.length < perGene) list.push(v);
    byGene.set(v.gene ?? '', list);
  }
  return {
    total: Number(totalRows[0]?.n ?? 0),
    items: groups.map((g) => ({
      symbol: String(g.gene),
      geneRank: g.gene_rank == null ? null : Number(g.gene_rank),
      geneScore: g.gene_score == null ? null : Number(g.gene_score),
      variantCount: Number(g.n),
      variants: byGene.get(String(g.gene)) ?? [],
    })),
  };
}

export async function findVariant(db: Executor, runId: string, id: number) {
  const [row] = await db
    .select()
    .from(runVariants)
    .where(and(eq(runVariants.runId, runId), eq(runVariants.id, id)));
  return row ?? null;
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

