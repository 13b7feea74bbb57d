/**
 * The significance of a ranked gene or disease: the most pathogenic class among the gene's
 * variants, where a reviewer's class (variant_classifications, per case and GRCh38 allele)
 * stands in for the automatic ACMG class of the variant it was set on. The ranking writes it
 * (analysis) and a reviewer's change rewrites it for the gene and its diseases, so every screen,
 * the shared link and the report read one value.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf, type Executor } from './database.ts';
import { runGenes, runPhenotypes, runVariantGenes } from './schema/products.ts';

/** ACMG classes from most to least pathogenic (index = severity order). */
export const ACMG_ORDER = ['Pathogenic', 'Likely pathogenic', 'Uncertain significance', 'Likely benign', 'Benign'] as const;

export interface GeneVariantStats {
  count: number;
  /** Most pathogenic class among the gene's variants (a reviewer's class over the automatic one), or null. */
  best: string | null;
  /** Best score among the gene's variants. */
  maxScore: number;
  /** Most pathogenic automatic ACMG class among the gene's variants (reviewers' classes left out): what run_variant_genes keeps. */
  automatic: string | null;
}

/** The most pathogenic of `classes` (unknown values ignored), or null. */
export function bestClass(classes: (string | null | undefined)[]): string | null {
  let best = -1;
  for (const c of classes) {
    const i = ACMG_ORDER.indexOf(c as (typeof ACMG_ORDER)[number]);
    if (i >= 0 && (best < 0 || i < best)) best = i;
  }
  return best < 0 ? null : (ACMG_ORDER[best] ?? null);
}

/** Per gene of the run (only `genes` when given): number of variants, their most pathogenic class and best score. */
export async function geneVariantStats(db: Executor, runId: string, genes?: string[]): Promise<Map<string, GeneVariantStats>> {
  const res = rowsOf(
    await db.execute(sql`
    select v.gene, count(*)::int as n,
           min(case coalesce(c.classification, v.acmg_class) when 'Pathogenic' then 0 when 'Likely pathogenic' then 1
               when 'Uncertain significance' then 2 when 'Likely benign' then 3 else 4 end)::int as best,
           min(case v.acmg_class when 'Pathogenic' then 0 when 'Likely pathogenic' then 1
               when 'Uncertain significance' then 2 when 'Likely benign' then 3 else 4 end)::int as automatic,
           max(v.score) as max_score
    from run_variants v
    join analysis_runs r on r.id = v.run_id
    left join variant_classifications c
      on c.product_id = r.product_id and c.chrom = v.chrom and c.pos = v.pos and c.ref = v.ref and c.alt = v.alt
    where v.run_id = ${runId} and v.gene is not null ${genes ? sql`and v.gene = any(${sql.param(genes)}::text[])` : sql``}
    group by v.gene`),
  );
  const out = new Map<string, GeneVariantStats>();
  for (const r of res) {
    out.set(String(r.gene), {
      count: Number(r.n),
      best: ACMG_ORDER[Number(r.best)] ?? null,
      maxScore: Number(r.max_score),
      automatic: ACMG_ORDER[Number(r.automatic)] ?? null,
    });
  }
  return out;
}

/**
 * geneVariantStats of a whole run from what the run stored with its first ranking
 * (run_variant_genes: each gene's variant count, best score and automatic class, which never
 * change since a run's variants do not), aggregating the variants only of the genes in which a
 * reviewer classified one (variant_classifications of the case; usually none or a few): a
 * re-ranking reads a few thousand rows instead of every stored variant of the run (0.7-1.2 s for
 * a 1.1 M-record genome). Null when the run has no stored gene rows or rows from before their
 * automatic class was kept (migration 0028): call geneVariantStats then.
 */
export async function storedGeneVariantStats(db: Executor, runId: string): Promise<Map<string, GeneVariantStats> | null> {
  const rows = await db
    .select({ gene: runVariantGenes.gene, count: runVariantGenes.variantCount, maxScore: runVariantGenes.maxScore, automatic: runVariantGenes.automaticSignificance })
    .from(runVariantGenes)
    .where(eq(runVariantGenes.runId, runId));
  if (rows.length === 0 || rows.some((r) => r.automatic === null)) return null;
  const out = new Map(rows.map((r) => [r.gene, { count: r.count, best: r.automatic, maxScore: r.maxScore, automatic: r.automatic }]));
  // Genes with a reviewer's class on one of their variants in this run (driven by the case's few classifications).
  const reviewed = rowsOf(
    await db.execute(sql`
      select distinct v.gene
      from analysis_runs r
      join variant_classifications c on c.product_id = r.product_id
      join run_variants v on v.run_id = r.id and v.chrom = c.chrom and v.pos = c.pos and v.ref = c.ref and v.alt = c.alt
      where r.id = ${runId} and v.gene is not null`),
  ).map((r) => String(r.gene));
  if (reviewed.length > 0) for (const [gene, stats] of await geneVariantStats(db, runId, reviewed)) out.set(gene, stats);
  return out;
}

/**
 * Rewrites the significance of `gene` and of the diseases that involve it in the run, after a
 * reviewer set or removed the class of one of its variants.
 */
export async function refreshGeneSignificance(db: Executor, runId: string, gene: string): Promise<void> {
  const diseases = await db
    .select({ diseaseId: runPhenotypes.diseaseId, genes: runPhenotypes.genes })
    .from(runPhenotypes)
    .where(and(eq(runPhenotypes.runId, runId), sql`${runPhenotypes.genes} @> ${JSON.stringify([gene])}::jsonb`));
  const involved = [...new Set([gene, ...diseases.flatMap((d) => d.genes)])];
  const stats = await geneVariantStats(db, runId, involved);
  await db
    .update(runGenes)
    .set({ significance: stats.get(gene)?.best ?? null })
    .where(and(eq(runGenes.runId, runId), eq(runGenes.symbol, gene)));
  const bySignificance = new Map<string | null, string[]>();
  for (const d of diseases) {
    const significance = bestClass(d.genes.map((g) => stats.get(g)?.best));
    bySignificance.set(significance, [...(bySignificance.get(significance) ?? []), d.diseaseId]);
  }
  for (const [significance, ids] of bySignificance) {
    await db
      .update(runPhenotypes)
      .set({ significance })
      .where(and(eq(runPhenotypes.runId, runId), inArray(runPhenotypes.diseaseId, ids)));
  }
}
