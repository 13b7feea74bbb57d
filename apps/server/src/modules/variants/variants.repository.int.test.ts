/**
 * Variant list paging on both drivers: a keyset walk (nextCursor -> after) returns exactly the
 * rows of the offset pages, in list order (rank asc nulls last, score desc, id), across equal
 * ranks, equal scores (float4 values that are not exact in binary), the ranked/unranked
 * boundary and filters; the clustered view's gene list and per-gene variants match a recount.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type Database } from '../../db/database.ts';
import { bothDatabases } from '../../testing/databases.ts';
import type { ListedVariantRow, VariantFilters } from '../../db/run-variants.ts';
import { withBulkLoad } from '../../db/bulk-copy.ts';
import { copyVariantGenes, geneVariantStats } from '../analysis/analysis.repository.ts';
import { presentVariant } from './variants.presenter.ts';
import { clusterGenes, clusterVariants, cappedCount, decodeCursor, encodeCursor, findVariant, listVariants } from './variants.repository.ts';

const N = 420;
const SCORES = [0.1, 0.3, 0.7, 0.9];
const CONSEQUENCES = ['missense_variant', 'intron_variant', 'stop_gained'];
const GENES = ['AAA', 'BBB', 'CCC', null];

interface Row {
  id: number;
  rank: number | null;
  score: number;
  consequence: string;
  zygosity: string;
  gene: string | null;
}

// Ranked candidates (each its own rank, as a ranking writes them, in another order than their
// ids and scores) and unranked variants.
const ROWS: Row[] = Array.from({ length: N }, (_, i) => ({
  id: i + 1,
  rank: i % 5 === 0 ? null : i < 150 ? 1 + ((i * 37) % 150) : null,
  score: SCORES[(i * 7) % SCORES.length]!,
  consequence: CONSEQUENCES[i % CONSEQUENCES.length]!,
  zygosity: i % 4 === 0 ? 'homozygous' : 'heterozygous',
  gene: GENES[i % GENES.length]!,
}));

/** Variants (ids) with a reviewer classification in the case; OTHER_CASE_REVIEWED's allele has one in another case only. */
const REVIEWED = [2, 7, 147, 333];
const OTHER_CASE_REVIEWED = 11;

const f4 = (x: number) => Math.fround(x);
function expected(f: (r: Row) => boolean): number[] {
  return ROWS.filter(f)
    .sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity) || f4(b.score) - f4(a.score) || a.id - b.id)
    .map((r) => r.id);
}

const { databases, removeDirs } = bothDatabases('rarelens-variant-pages-');

afterAll(removeDirs);

describe('encodeCursor / decodeCursor', () => {
  it('round-trips a cursor and refuses anything else', () => {
    for (const c of [{ rank: 3, score: f4(0.3), id: 17 }, { rank: null, score: 0, id: 0 }]) expect(decodeCursor(encodeCursor(c))).toEqual(c);
    for (const bad of ['', 'xyz', Buffer.from('[1,2]').toString('base64url'), Buffer.from('[0,0.5,1]').toString('base64url'), Buffer.from('[null,"a",1]').toString('base64url'), Buffer.from('[null,0.5,-1]').toString('base64url')]) {
      expect(decodeCursor(bad)).toBeNull();
    }
  });
});

describe.each(databases)('variant list pages on $name', ({ open }) => {
  let database: Database;
  let runId: string;
  let caseId: string;
  beforeAll(async () => {
    database = await open();
    const db = database.db;
    const user = await db.execute(sql`insert into users (name, surname, email, password_hash, birth_date) values ('T', 'T', ${`pages-${Date.now()}@example.org`}, 'x', '1990-01-01') returning id`);
    const ownerId = (rowsOf(user)[0] as { id: string }).id;
    const product = await db.execute(sql`insert into products (owner_id, case_id, gender, symptoms, hpo_terms, excluded_terms, genome_format, assembly_requested) values (${ownerId}, 'PAGES', 'female', 's', '[]', '[]', 'vcf', 'GRCh38') returning id`);
    const productId = (rowsOf(product)[0] as { id: string }).id;
    caseId = productId;
    // Reviewer classifications: of alleles of this case (REVIEWED), and of one of them in another case.
    const other = await db.execute(sql`insert into products (owner_id, case_id, gender, symptoms, hpo_terms, excluded_terms, genome_format, assembly_requested) values (${ownerId}, 'OTHER', 'female', 's', '[]', '[]', 'vcf', 'GRCh38') returning id`);
    const otherId = (rowsOf(other)[0] as { id: string }).id;
    for (const [product, id, reason] of [...REVIEWED.map((id) => [productId, id, `reviewed ${id}`] as const), [otherId, OTHER_CASE_REVIEWED, 'other case'] as const]) {
      await db.execute(sql`
        insert into variant_classifications (product_id, chrom, pos, ref, alt, classification, reason, automatic_class, reviewer_email)
        values (${product}, 'chr1', ${1000 + id}, 'A', 'G', 'Likely pathogenic', ${reason}, 'Uncertain significance', 'r@example.org')`);
    }
    const run = await db.execute(sql`insert into analysis_runs (product_id, software_version, kb_versions, assembly, input_assembly, hpo_terms, excluded_terms) values (${productId}, 't', '{}', 'GRCh38', 'GRCh38', '[]', '[]') returning id`);
    runId = (rowsOf(run)[0] as { id: string }).id;
    for (const r of ROWS) {
      await db.execute(sql`
        insert into run_variants (run_id, id, chrom, pos, ref, alt, gene, consequence, consequences, impact, acmg_class, acmg_points, acmg_criteria, zygosity, genotype, filter, score, is_candidate, input,
          transcript, hgvs_c, af, clinvar_significance, clinvar, genotypes, inheritance, inheritance_detail, details)
        values (${runId}, ${r.id}, 'chr1', ${1000 + r.id}, 'A', 'G', ${r.gene}, ${r.consequence}, ${JSON.stringify([r.consequence])}, 'MODERATE', 'Uncertain significance', 0, '[]', ${r.zygosity}, '{}', '[]', ${r.score}, ${r.rank !== null}, '{}',
          ${r.gene ? 'ENST0001' : null}, ${r.gene ? `c.${r.id}A>G` : null}, ${r.id % 3 === 0 ? null : r.id / 10_000}, ${r.id % 6 === 0 ? 'Pathogenic' : null},
          ${r.id % 6 === 0 ? JSON.stringify({ significance: 'Pathogenic', stars: 2, id: `VCV${r.id}`, match: 'exact', source: 'grch38' }) : null},
          ${r.id % 5 === 0 ? JSON.stringify({ S1: { gt: '0/1', zygosity: r.zygosity, depth: 30, genotypeQuality: 99, alleleDepths: [15, 15] } }) : null},
          ${sql.param(r.id % 7 === 0 ? ['de_novo'] : [])}::text[], ${r.id % 7 === 0 ? JSON.stringify({ partners: [r.id + 1], rules: ['S1 0/1: de novo'] }) : null}, '{"otherGenes":[]}')`);
    }
    // The candidates' ranks, with their filter columns (as a ranking writes them).
    await db.execute(sql`
      insert into run_variant_ranks (run_id, rank, id, gene, consequence, af, clinvar_significance, acmg_class, zygosity, inheritance)
      select run_id, (array[${sql.raw(ROWS.map((r) => r.rank ?? 0).join(','))}])[id], id, gene, consequence, af, clinvar_significance, acmg_class, zygosity, inheritance
      from run_variants where run_id = ${runId} and is_candidate`);
  });
  afterAll(async () => {
    await database.close();
  });

  /** A list reads only the columns a list row shows: each listed row presents exactly as the whole stored row. */
  async function expectPresentedAsStored(rows: ListedVariantRow[]): Promise<void> {
    for (const row of rows) expect(JSON.stringify(presentVariant(row))).toBe(JSON.stringify(presentVariant((await findVariant(database.db, runId, row.id))!)));
  }

  const cases: { name: string; filters: VariantFilters; keep: (r: Row) => boolean }[] = [
    { name: 'all', filters: {}, keep: () => true },
    { name: 'candidates', filters: { candidatesOnly: true }, keep: (r) => r.rank !== null },
    { name: 'consequence', filters: { consequence: ['stop_gained', 'missense_variant'] }, keep: (r) => r.consequence !== 'intron_variant' },
    // intron_variant is outside the partial consequence index (migration 0021): read from the list index.
    { name: 'consequence (common and rare)', filters: { consequence: ['intron_variant', 'stop_gained'] }, keep: (r) => r.consequence !== 'missense_variant' },
    { name: 'zygosity + gene', filters: { zygosity: ['homozygous'], gene: ['AAA', 'CCC'] }, keep: (r) => r.zygosity === 'homozygous' && (r.gene === 'AAA' || r.gene === 'CCC') },
    // Candidates only: read from their ranks alone (run_variant_ranks' copy of the filter columns).
    { name: 'candidates + gene', filters: { candidatesOnly: true, gene: ['BBB'] }, keep: (r) => r.rank !== null && r.gene === 'BBB' },
    { name: 'inheritance', filters: { inheritance: ['de_novo'] }, keep: (r) => r.rank !== null && r.id % 7 === 0 },
    // af (null for every third id) and ClinVar (Pathogenic for every sixth, else none), in both parts.
    { name: 'maxAf + clinvar', filters: { maxAf: 0.01, clinvar: ['Pathogenic'] }, keep: (r) => (r.id % 3 === 0 || r.id / 10_000 <= 0.01) && r.id % 6 === 0 },
    { name: 'maxAf + clinvar none', filters: { maxAf: 0.01, clinvar: ['none'] }, keep: (r) => (r.id % 3 === 0 || r.id / 10_000 <= 0.01) && r.id % 6 !== 0 },
  ];

  it.each(cases)('walks $name by keyset exactly as by offset, in list order', async ({ filters, keep }) => {
    const want = expected(keep);
    const pageSize = 13;
    const byOffset: number[] = [];
    const byKeyset: number[] = [];
    const reviewedOffset: string[] = [];
    const reviewedKeyset: string[] = [];
    let cursor: string | null = null;
    for (let page = 1; page <= Math.ceil(want.length / pageSize) + 1; page++) {
      const offset = await listVariants(database.db, caseId, runId, filters, { page, pageSize });
      const offsetRows = offset.rows;
      byOffset.push(...offsetRows.map((r) => r.id));
      reviewedOffset.push(...offset.reviews.map((c) => c.reason));
      if (page <= 2) await expectPresentedAsStored(offsetRows);
      const after = page === 1 ? undefined : decodeCursor(cursor ?? '');
      if (page > 1 && after === null) break;
      const keyset = await listVariants(database.db, caseId, runId, filters, { page, pageSize }, after ?? undefined);
      const keysetRows = keyset.rows;
      byKeyset.push(...keysetRows.map((r) => r.id));
      reviewedKeyset.push(...keyset.reviews.map((c) => c.reason));
      if (page <= 2) await expectPresentedAsStored(keysetRows);
      // Offset pages decode classifications through drizzle's select, keyset pages from raw rows: the same rows.
      expect(keyset.reviews.map((c) => JSON.stringify(c)).sort()).toEqual(offset.reviews.map((c) => JSON.stringify(c)).sort());
      const last = keysetRows.at(-1);
      cursor = keysetRows.length === pageSize && last ? encodeCursor({ rank: last.rank, score: last.score, id: last.id }) : null;
    }
    expect(byOffset).toEqual(want);
    expect(byKeyset).toEqual(want);
    // Each listed variant's classification in this case, read with its page: never another case's.
    const wantReviewed = want.filter((id) => REVIEWED.includes(id)).map((id) => `reviewed ${id}`).sort();
    expect(reviewedOffset.sort()).toEqual(wantReviewed);
    expect(reviewedKeyset.sort()).toEqual(wantReviewed);
    expect(await cappedCount(database.db, runId, filters)).toEqual({ total: want.length, capped: false });
  });

  // The pages whose filters one plan fits (planFitsAnyValues) read on genericPlanDb, which plans
  // each statement once for every value (PostgreSQL: plan_cache_mode force_generic_plan): the
  // same rows as the plans made per request, for every filter, offset and keyset page, clustered.
  it('reads the same pages with plans made once (genericPlanDb) as with plans made per request', async () => {
    const mode = rowsOf(await database.genericPlanDb.execute(sql`select current_setting('plan_cache_mode') as mode`))[0]?.mode;
    expect(mode).toBe(database.kind === 'postgres' ? 'force_generic_plan' : 'auto');
    expect(rowsOf(await database.db.execute(sql`select current_setting('plan_cache_mode') as mode`))[0]?.mode).toBe('auto');
    const ids = (l: { rows: ListedVariantRow[] }) => l.rows.map((r) => [r.id, r.rank]);
    for (const { filters, keep } of cases) {
      const pages = Math.ceil(expected(keep).length / 13);
      for (let page = 1; page <= pages; page++) {
        const custom = await listVariants(database.db, caseId, runId, filters, { page, pageSize: 13 });
        expect(ids(await listVariants(database.genericPlanDb, caseId, runId, filters, { page, pageSize: 13 }))).toEqual(ids(custom));
        const last = custom.rows.at(-1);
        if (!last) continue;
        const after = { rank: last.rank, score: last.score, id: last.id };
        const next = await listVariants(database.db, caseId, runId, filters, { page: page + 1, pageSize: 13 }, after);
        expect(ids(await listVariants(database.genericPlanDb, caseId, runId, filters, { page: page + 1, pageSize: 13 }, after))).toEqual(ids(next));
      }
      const genes = ['AAA', 'BBB', 'CCC'];
      const clusters = (await clusterVariants(database.db, caseId, runId, filters, genes, 4)).byGene;
      const generic = (await clusterVariants(database.genericPlanDb, caseId, runId, filters, genes, 4)).byGene;
      for (const g of genes) expect(generic.get(g)?.map((v) => v.id)).toEqual(clusters.get(g)?.map((v) => v.id));
    }
  });

  it('reads the unfiltered gene list from the stored aggregate as the aggregate over the variants would, ranked genes first', async () => {
    const db = database.db;
    // BBB is the run's ranked gene: first; the others by their best variant's score (desc), then symbol.
    await db.execute(sql`
      insert into run_genes (run_id, symbol, rank, synonyms, score, phenotype_score, variant_score, inheritance, onset, explanation, diseases, variant_count)
      values (${runId}, 'BBB', 1, '[]', 0.5, 0.5, 0.5, '[]', '[]', '[]', '[]', 0)`);
    const inGenes = ROWS.filter((r) => r.gene !== null);
    const best = (g: string) => Math.max(...inGenes.filter((r) => r.gene === g).map((r) => f4(r.score)));
    const want = ['AAA', 'BBB', 'CCC']
      .sort((a, b) => (a === 'BBB' ? -1 : b === 'BBB' ? 1 : best(b) - best(a) || (a < b ? -1 : 1)))
      .map((g) => ({ symbol: g, variantCount: inGenes.filter((r) => r.gene === g).length, geneRank: g === 'BBB' ? 1 : null, geneScore: g === 'BBB' ? 0.5 : null }));
    // No stored aggregate yet (a run published before it was written): the aggregate over the variants.
    expect(await clusterGenes(db, runId, {})).toEqual(want);
    // Stored as the ranking stores it (in its transaction): the same list, read from run_variant_genes.
    await withBulkLoad(database, async (load) => copyVariantGenes(load, database.kind, runId, await geneVariantStats(await load.query(), runId)));
    const stored = rowsOf(await db.execute(sql`select gene, variant_count from run_variant_genes where run_id = ${runId} order by gene`));
    expect(stored).toEqual(want.map((g) => ({ gene: g.symbol, variant_count: g.variantCount })).sort((a, b) => (a.gene < b.gene ? -1 : 1)));
    // The clustered view reads it: a stored count that differs from the variants shows (then restored).
    await db.execute(sql`update run_variant_genes set variant_count = variant_count + 1000 where run_id = ${runId} and gene = 'AAA'`);
    expect((await clusterGenes(db, runId, {})).find((g) => g.symbol === 'AAA')?.variantCount).toBe(want.find((g) => g.symbol === 'AAA')!.variantCount + 1000);
    await db.execute(sql`update run_variant_genes set variant_count = variant_count - 1000 where run_id = ${runId} and gene = 'AAA'`);
    expect(await clusterGenes(db, runId, {})).toEqual(want);
    // A filtered view still aggregates only its matching variants (next test), never the stored counts.
    const homozygous = await clusterGenes(db, runId, { zygosity: ['homozygous'] });
    for (const g of homozygous) expect(g.variantCount).toBe(inGenes.filter((r) => r.gene === g.symbol && r.zygosity === 'homozygous').length);
  });

  it('lists every gene with matching variants once, and its first variants in list order', async () => {
    const filters: VariantFilters = { consequence: ['missense_variant', 'stop_gained'] };
    const keep = (r: Row) => r.consequence !== 'intron_variant' && r.gene !== null;
    const genes = await clusterGenes(database.db, runId, filters);
    expect(genes.map((g) => g.symbol).sort()).toEqual(['AAA', 'BBB', 'CCC']);
    for (const g of genes) expect(g.variantCount).toBe(ROWS.filter((r) => keep(r) && r.gene === g.symbol).length);
    const { byGene: variants, reviews } = await clusterVariants(database.db, caseId, runId, filters, ['AAA', 'CCC'], 4);
    expect([...variants.keys()].sort()).toEqual(['AAA', 'CCC']);
    for (const symbol of ['AAA', 'CCC']) {
      expect(variants.get(symbol)?.map((v) => v.id)).toEqual(expected((r) => keep(r) && r.gene === symbol).slice(0, 4));
    }
    await expectPresentedAsStored([...variants.values()].flat());
    const listedIds = [...variants.values()].flat().map((v) => v.id);
    expect(reviews.length).toBeGreaterThan(0);
    expect(reviews.map((c) => c.reason).sort()).toEqual(listedIds.filter((id) => REVIEWED.includes(id)).map((id) => `reviewed ${id}`).sort());
  });
});
