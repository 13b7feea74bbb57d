/**
 * SQL for analysis results: runs, annotated variants, ranked phenotypes and genes. Writes are
 * keyed by run id; the product only points at a run once the run is complete.
 */
import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { AnnotatedVariant } from '@rarelens/engine';
import type { Executor } from '../../db/database.ts';
import type { RankingValue } from '../../jobs/analysis-engine.ts';
import { rowsOf } from '../../jobs/job.registry.ts';
import {
  analysisRuns,
  products,
  runGenes,
  runPhenotypes,
  runVariants,
  type RunVariantRow,
} from '../../db/schema/products.ts';

/** ACMG classes from most to least pathogenic (index = severity order). */
export const ACMG_ORDER = [
  'Pathogenic',
  'Likely pathogenic',
  'Uncertain significance',
  'Likely benign',
  'Benign',
] as const;

export interface NewRun {
  productId: string;
  jobId: string | null;
  softwareVersion: string;
  kbVersions: Record<string, string>;
  assembly: string;
  inputAssembly: string;
  hpoTerms: string[];
  excludedTerms: string[];
}

export async function insertRun(db: Executor, run: NewRun): Promise<string> {
  const [row] = await db.insert(analysisRuns).values(run).returning({ id: analysisRuns.id });
  if (!row) throw new Error('insert into analysis_runs returned no row');
  return row.id;
}

/** Deletes runs of a product that never completed (partial results of a crashed attempt). */
export async function deleteUnfinishedRuns(db: Executor, productId: string): Promise<void> {
  await db
    .delete(analysisRuns)
    .where(and(eq(analysisRuns.productId, productId), eq(analysisRuns.state, 'running')));
}

/** Deletes every run of the product except `keepRunId` (older results, once a new run is live). */
export async function deleteOtherRuns(
  db: Executor,
  productId: string,
  keepRunId: string,
): Promise<void> {
  await db
    .delete(analysisRuns)
    .where(and(eq(analysisRuns.productId, productId), ne(analysisRuns.id, keepRunId)));
}

/** One variant as stored: `ordinal` is its 1-based position in the input's variant stream. */
export function toVariantRow(
  runId: string,
  ordinal: number,
  v: AnnotatedVariant,
  isCandidate: boolean,
) {
  return {
    runId,
    id: ordinal,
    rank: null,
    chrom: v.chrom,
    pos: v.pos,
    ref: v.ref,
    alt: v.alt,
    gene: v.gene,
    hgncId: v.hgncId ?? null,
    transcript: v.transcript,
    isManeSelect: v.isManeSelect ?? false,
    consequence: v.consequences[0] ?? null,
    consequences: v.consequences,
    impact: v.impact,
    hgvsC: v.hgvsC,
    hgvsP: v.hgvsP,
    af: v.af,
    afSource: v.afSource ?? null,
    clinvarSignificance: v.clinvar?.significance ?? null,
    clinvar: v.clinvar,
    acmgClass: v.acmg.classification,
    acmgPoints: Math.round(v.acmg.points),
    acmgCriteria: v.acmg.criteria,
    zygosity: v.genotype.zygosity,
    genotype: v.genotype,
    qual: v.qual,
    filter: v.filter,
    score: v.score,
    isCandidate,
    input: v.input,
    details:
      v.acmg.notAssessed?.length || v.otherGenes?.length || v.geneConstraint
        ? { acmgNotAssessed: v.acmg.notAssessed ?? [], otherGenes: v.otherGenes ?? [], geneConstraint: v.geneConstraint ?? null }
        : null,
  } satisfies typeof runVariants.$inferInsert;
}

/** The AnnotatedVariant a stored row came from (re-ranking works from these). */
export function fromVariantRow(r: RunVariantRow): AnnotatedVariant {
  const details = r.details as StoredDetails | null;
  return {
    chrom: r.chrom,
    pos: r.pos,
    ref: r.ref,
    alt: r.alt,
    input: r.input as AnnotatedVariant['input'],
    assembly: 'GRCh38',
    genotype: r.genotype as AnnotatedVariant['genotype'],
    filter: r.filter,
    qual: r.qual,
    gene: r.gene,
    hgncId: r.hgncId,
    transcript: r.transcript,
    isManeSelect: r.isManeSelect,
    consequences: r.consequences,
    impact: r.impact as AnnotatedVariant['impact'],
    hgvsC: r.hgvsC,
    hgvsP: r.hgvsP,
    af: r.af,
    afSource: r.afSource,
    clinvar: r.clinvar as AnnotatedVariant['clinvar'],
    acmg: {
      classification: r.acmgClass as AnnotatedVariant['acmg']['classification'],
      points: r.acmgPoints,
      criteria: r.acmgCriteria as AnnotatedVariant['acmg']['criteria'],
      ...(details?.acmgNotAssessed.length ? { notAssessed: details.acmgNotAssessed } : {}),
    },
    score: r.score,
    ...(details?.otherGenes.length ? { otherGenes: details.otherGenes } : {}),
    ...(details?.geneConstraint ? { geneConstraint: details.geneConstraint } : {}),
  };
}

/** The `details` column. */
export interface StoredDetails {
  acmgNotAssessed: NonNullable<AnnotatedVariant['acmg']['notAssessed']>;
  otherGenes: NonNullable<AnnotatedVariant['otherGenes']>;
  geneConstraint: AnnotatedVariant['geneConstraint'] | null;
}

/** Rows per INSERT (one array parameter per column, so the batch size is not bound by the
 * 65,535-parameter limit of the protocol). */
export const VARIANT_BATCH = 5000;

type VariantInsert = typeof runVariants.$inferInsert;

const json = (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v));

/**
 * Inserts variant rows with one `unnest` of column arrays per batch: far fewer bind
 * parameters and a much smaller statement than a multi-row VALUES list.
 */
export async function insertVariants(db: Executor, rows: VariantInsert[]): Promise<void> {
  for (let i = 0; i < rows.length; i += VARIANT_BATCH) {
    const b = rows.slice(i, i + VARIANT_BATCH);
    const col = <T>(f: (r: VariantInsert) => T) => sql.param(b.map(f));
    await db.execute(sql`
      insert into run_variants (run_id, id, rank, chrom, pos, ref, alt, gene, hgnc_id, transcript, is_mane_select,
        consequence, consequences, impact, hgvs_c, hgvs_p, af, af_source, clinvar_significance, clinvar, acmg_class,
        acmg_points, acmg_criteria, zygosity, genotype, qual, filter, score, is_candidate, input, details)
      select run_id, id, rank, chrom, pos, ref, alt, gene, hgnc_id, transcript, is_mane_select,
        consequence, consequences::jsonb, impact, hgvs_c, hgvs_p, af, af_source, clinvar_significance, clinvar::jsonb, acmg_class,
        acmg_points, acmg_criteria::jsonb, zygosity, genotype::jsonb, qual, filter::jsonb, score, is_candidate, input::jsonb, details::jsonb
      from unnest(
        ${col((r) => r.runId)}::uuid[], ${col((r) => r.id)}::int4[], ${col((r) => r.rank ?? null)}::int4[],
        ${col((r) => r.chrom)}::text[], ${col((r) => r.pos)}::int4[], ${col((r) => r.ref)}::text[], ${col((r) => r.alt)}::text[],
        ${col((r) => r.gene ?? null)}::text[], ${col((r) => r.hgncId ?? null)}::text[], ${col((r) => r.transcript ?? null)}::text[],
        ${col((r) => r.isManeSelect ?? false)}::bool[], ${col((r) => r.consequence ?? null)}::text[],
        ${col((r) => json(r.consequences))}::text[], ${col((r) => r.impact)}::text[], ${col((r) => r.hgvsC ?? null)}::text[],
        ${col((r) => r.hgvsP ?? null)}::text[], ${col((r) => r.af ?? null)}::float4[], ${col((r) => r.afSource ?? null)}::text[],
        ${col((r) => r.clinvarSignificance ?? null)}::text[], ${col((r) => json(r.clinvar))}::text[], ${col((r) => r.acmgClass)}::text[],
        ${col((r) => r.acmgPoints)}::int4[], ${col((r) => json(r.acmgCriteria))}::text[], ${col((r) => r.zygosity)}::text[],
        ${col((r) => json(r.genotype))}::text[], ${col((r) => r.qual ?? null)}::float4[], ${col((r) => json(r.filter))}::text[],
        ${col((r) => r.score)}::float4[], ${col((r) => r.isCandidate)}::bool[], ${col((r) => json(r.input))}::text[],
        ${col((r) => json(r.details))}::text[]
      ) as t(run_id, id, rank, chrom, pos, ref, alt, gene, hgnc_id, transcript, is_mane_select,
        consequence, consequences, impact, hgvs_c, hgvs_p, af, af_source, clinvar_significance, clinvar, acmg_class,
        acmg_points, acmg_criteria, zygosity, genotype, qual, filter, score, is_candidate, input, details)`);
  }
}

/**
 * Ranks of candidate variants (same order as `candidates`): the engine's variant rank when it
 * gives one; then by gene rank (genes the ranking left out last), variant score (higher
 * first) and input order.
 */
export function candidateRanks(candidates: AnnotatedVariant[], ids: number[], ranking: RankingValue): number[] {
  const geneRank = new Map(ranking.genes.map((g, i) => [g.symbol, i + 1]));
  const engineRank = candidates.map((v) => ranking.variantRank?.(v) ?? Number.MAX_SAFE_INTEGER);
  const order = candidates.map((_, i) => i);
  const gr = (i: number) => geneRank.get(candidates[i]?.gene ?? '') ?? Number.MAX_SAFE_INTEGER;
  // Scores are compared as stored (float4), so this order matches the database's.
  const sc = (i: number) => Math.fround(candidates[i]?.score ?? 0);
  order.sort(
    (a, b) =>
      (engineRank[a] ?? 0) - (engineRank[b] ?? 0) || gr(a) - gr(b) || sc(b) - sc(a) || (ids[a] ?? 0) - (ids[b] ?? 0),
  );
  const ranks = new Array<number>(candidates.length);
  order.forEach((idx, r) => (ranks[idx] = r + 1));
  return ranks;
}

/** Candidate variants of a run with their ids, in id order. */
export async function loadCandidates(
  db: Executor,
  runId: string,
): Promise<{ id: number; variant: AnnotatedVariant }[]> {
  const rows = await db
    .select()
    .from(runVariants)
    .where(and(eq(runVariants.runId, runId), eq(runVariants.isCandidate, true)))
    .orderBy(asc(runVariants.id));
  return rows.map((r) => ({ id: r.id, variant: fromVariantRow(r) }));
}

interface GeneVariantStats {
  count: number;
  best: string | null;
}

async function geneVariantStats(
  db: Executor,
  runId: string,
): Promise<Map<string, GeneVariantStats>> {
  const res = rowsOf(
    await db.execute(sql`
    select gene, count(*)::int as n,
           min(case acmg_class when 'Pathogenic' then 0 when 'Likely pathogenic' then 1
               when 'Uncertain significance' then 2 when 'Likely benign' then 3 else 4 end)::int as best
    from run_variants where run_id = ${runId} and gene is not null group by gene`),
  );
  const out = new Map<string, GeneVariantStats>();
  for (const r of res) {
    out.set(String(r.gene), { count: Number(r.n), best: ACMG_ORDER[Number(r.best)] ?? null });
  }
  return out;
}

function bestClass(classes: (string | null | undefined)[]): string | null {
  let best = -1;
  for (const c of classes) {
    const i = ACMG_ORDER.indexOf(c as (typeof ACMG_ORDER)[number]);
    if (i >= 0 && (best < 0 || i < best)) best = i;
  }
  return best < 0 ? null : (ACMG_ORDER[best] ?? null);
}

export interface GeneFactsLookup {
  (symbol: string): {
    hgncId: string | null;
    name: string | null;
    chromosome: string | null;
    locusType: string | null;
    description: string | null;
    synonyms: string[];
    onset: string[];
  } | null;
}

/**
 * Replaces the run's ranked phenotypes and genes and re-orders its variants (gene rank, then
 * variant score, then input order). Idempotent; call inside the committing transaction.
 */
export async function applyRanking(
  tx: Executor,
  runId: string,
  ranking: RankingValue,
  geneFacts: GeneFactsLookup,
  options: { variantRanksStored?: boolean; variantRanks?: { ids: number[]; ranks: number[] } } = {},
): Promise<void> {
  await tx.delete(runPhenotypes).where(eq(runPhenotypes.runId, runId));
  await tx.delete(runGenes).where(eq(runGenes.runId, runId));
  const stats = await geneVariantStats(tx, runId);
  const geneRows = ranking.genes.map((g, i) => {
    const facts = geneFacts(g.symbol);
    const s = stats.get(g.symbol);
    return {
      runId,
      symbol: g.symbol,
      rank: i + 1,
      hgncId: g.hgncId ?? facts?.hgncId ?? null,
      name: facts?.name ?? null,
      chromosome: facts?.chromosome ?? null,
      locusType: facts?.locusType ?? null,
      description: facts?.description ?? null,
      synonyms: facts?.synonyms ?? [],
      score: g.score,
      phenotypeScore: g.phenotypeScore,
      variantScore: g.variantScore,
      significance: s?.best ?? null,
      inheritance: g.inheritance,
      onset: facts?.onset ?? [],
      explanation: g.explanation,
      diseases: g.diseases,
      variantCount: s?.count ?? 0,
    };
  });
  for (let i = 0; i < geneRows.length; i += 500)
    await tx.insert(runGenes).values(geneRows.slice(i, i + 500));
  const phenotypeRows = ranking.diseases.map((d, i) => ({
    runId,
    diseaseId: d.id,
    rank: i + 1,
    name: d.name,
    score: d.score,
    probability: d.probability,
    significance: bestClass(d.genes.map((g) => stats.get(g)?.best)),
    inheritance: d.inheritance,
    onset: d.onset,
    genes: d.genes,
    matchedTerms: d.matchedTerms,
    explanation: d.explanation,
    mergedIds: d.mergedIds,
  }));
  for (let i = 0; i < phenotypeRows.length; i += 500) {
    await tx.insert(runPhenotypes).values(phenotypeRows.slice(i, i + 500));
  }
  if (options.variantRanksStored) return;
  if (options.variantRanks) {
    const { ids, ranks } = options.variantRanks;
    for (let i = 0; i < ids.length; i += VARIANT_BATCH) {
      await tx.execute(sql`
        update run_variants v set rank = u.rank
        from unnest(${sql.param(ids.slice(i, i + VARIANT_BATCH))}::int4[], ${sql.param(ranks.slice(i, i + VARIANT_BATCH))}::int4[]) as u(id, rank)
        where v.run_id = ${runId} and v.id = u.id and v.rank is distinct from u.rank`);
    }
    return;
  }
  // Only candidates carry a rank; the other variants keep rank null and sort after them.
  await tx.execute(sql`
    update run_variants v set rank = o.rn
    from (select v2.id, row_number() over (order by g.rank asc nulls last, v2.score desc, v2.id) as rn
          from run_variants v2
          left join run_genes g on g.run_id = v2.run_id and g.symbol = v2.gene
          where v2.run_id = ${runId} and v2.is_candidate) o
    where v.run_id = ${runId} and v.id = o.id and v.rank is distinct from o.rn`);
}

export async function completeRun(
  tx: Executor,
  runId: string,
  counts: Record<string, number>,
): Promise<void> {
  await tx
    .update(analysisRuns)
    .set({ state: 'completed', counts, completedAt: sql`now()`, rankedAt: sql`now()` })
    .where(eq(analysisRuns.id, runId));
}

export async function markRanked(
  tx: Executor,
  runId: string,
  terms: { hpoTerms: string[]; excludedTerms: string[] },
): Promise<void> {
  await tx
    .update(analysisRuns)
    .set({ ...terms, rankedAt: sql`now()` })
    .where(eq(analysisRuns.id, runId));
}

export async function findRun(db: Executor, runId: string) {
  const [row] = await db.select().from(analysisRuns).where(eq(analysisRuns.id, runId));
  return row ?? null;
}

/** Lock the product row for the rest of the transaction (serialises status changes). */
export async function lockProduct(tx: Executor, productId: string) {
  const [row] = await tx.select().from(products).where(eq(products.id, productId)).for('update');
  return row ?? null;
}

/** List order of variants: candidates by rank, then the rest by score (matches the indexes). */
const VARIANT_ORDER = [
  sql`${runVariants.rank} asc nulls last`,
  sql`${runVariants.score} desc nulls last`,
  asc(runVariants.id),
] as const;

/** Counting stops here: deeper pages still work, the total shows as "10,000+". */
export const COUNT_CAP = 10_000;

export interface Page {
  page: number;
  pageSize: number;
}

export async function listPhenotypes(db: Executor, runId: string, p: Page) {
  const [items, total] = await Promise.all([
    db
      .select()
      .from(runPhenotypes)
      .where(eq(runPhenotypes.runId, runId))
      .orderBy(asc(runPhenotypes.rank))
      .limit(p.pageSize)
      .offset((p.page - 1) * p.pageSize),
    db.$count(runPhenotypes, eq(runPhenotypes.runId, runId)),
  ]);
  return { items, total: Number(total) };
}

export async function findPhenotype(db: Executor, runId: string, diseaseId: string) {
  const [row] = await db
    .select()
    .from(runPhenotypes)
    .where(and(eq(runPhenotypes.runId, runId), eq(runPhenotypes.diseaseId, diseaseId)));
  return row ?? null;
}

export async function listGenes(db: Executor, runId: string, p: Page) {
  const [items, total] = await Promise.all([
    db
      .select()
      .from(runGenes)
      .where(eq(runGenes.runId, runId))
      .orderBy(asc(runGenes.rank))
      .limit(p.pageSize)
      .offset((p.page - 1) * p.pageSize),
    db.$count(runGenes, eq(runGenes.runId, runId)),
  ]);
  return { items, total: Number(total) };
}

/** A gene of the run by symbol (case-insensitive) or HGNC id. */
export async function findGene(db: Executor, runId: string, geneId: string) {
  const [row] = await db
    .select()
    .from(runGenes)
    .where(
      and(
        eq(runGenes.runId, runId),
        /^HGNC:\d+$/i.test(geneId) ? eq(runGenes.hgncId, geneId.toUpperCase()) : sql`upper(${runGenes.symbol}) = upper(${geneId})`,
      ),
    );
  return row ?? null;
}

export interface VariantFilters {
  consequence?: string[] | undefined;
  maxAf?: number | undefined;
  clinvar?: string[] | undefined;
  acmg?: string[] | undefined;
  zygosity?: string[] | undefined;
  gene?: string[] | undefined;
  /** Only the ranking's candidates. */
  candidatesOnly?: boolean;
}

/** The WHERE clause of a filtered variant list (shared with the TSV export). */
export function variantWhere(runId: string, f: VariantFilters): SQL {
  const parts: SQL[] = [eq(runVariants.runId, runId)];
  if (f.consequence?.length) parts.push(inArray(runVariants.consequence, f.consequence));
  // Unknown frequency passes a maximum-frequency filter: absence from population data is
  // itself evidence of rarity, and dropping such variants would hide the rarest ones.
  if (f.maxAf != null) parts.push(sql`(${runVariants.af} is null or ${runVariants.af} <= ${f.maxAf})`);
  if (f.clinvar?.length) {
    const named = f.clinvar.filter((c) => c.toLowerCase() !== 'none');
    const wantsNone = named.length < f.clinvar.length;
    const conds: SQL[] = [];
    if (named.length) conds.push(inArray(runVariants.clinvarSignificance, named));
    if (wantsNone) conds.push(sql`${runVariants.clinvarSignificance} is null`);
    parts.push(conds.length === 1 ? conds[0]! : sql`(${sql.join(conds, sql` or `)})`);
  }
  if (f.acmg?.length) parts.push(inArray(runVariants.acmgClass, f.acmg));
  if (f.zygosity?.length) parts.push(inArray(runVariants.zygosity, f.zygosity));
  if (f.gene?.length) parts.push(inArray(runVariants.gene, f.gene));
  if (f.candidatesOnly) parts.push(sql`${runVariants.rank} is not null`);
  return and(...parts)!;
}

export function hasFilters(f: VariantFilters): boolean {
  return Boolean(
    f.consequence?.length || f.maxAf != null || f.clinvar?.length || f.acmg?.length || f.zygosity?.length || f.gene?.length,
  );
}

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
 * Refreshes planner statistics and the visibility map after a bulk load or re-rank, so list
 * queries get index-only scans and good plans at once (not after autovacuum gets to it).
 * Runs outside any transaction (VACUUM cannot run inside one).
 */
export async function refreshVariantStats(db: Executor): Promise<void> {
  await db.execute(sql`vacuum (analyze) run_variants`);
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

/** Variants overlapping a region (1-based inclusive), position order, at most `limit`. */
export async function variantsInRegion(
  db: Executor,
  runId: string,
  region: { chrom: string; start: number; end: number },
  limit: number,
) {
  return db
    .select()
    .from(runVariants)
    .where(
      and(
        eq(runVariants.runId, runId),
        eq(runVariants.chrom, region.chrom),
        sql`${runVariants.pos} between ${region.start - 1000} and ${region.end}`,
      ),
    )
    .orderBy(asc(runVariants.pos), asc(runVariants.id))
    .limit(limit);
}
