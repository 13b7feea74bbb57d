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
import type { VariantFilters } from '../../db/run-variants.ts';
import { clusterGenes, clusterVariants, cappedCount, decodeCursor, encodeCursor, listVariants } from './variants.repository.ts';

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

// Ranked candidates (ranks repeat: several variants of a gene may share one) and unranked variants.
const ROWS: Row[] = Array.from({ length: N }, (_, i) => ({
  id: i + 1,
  rank: i % 5 === 0 ? null : i < 150 ? 1 + Math.floor(i / 3) : null,
  score: SCORES[(i * 7) % SCORES.length]!,
  consequence: CONSEQUENCES[i % CONSEQUENCES.length]!,
  zygosity: i % 4 === 0 ? 'homozygous' : 'heterozygous',
  gene: GENES[i % GENES.length]!,
}));

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
  beforeAll(async () => {
    database = await open();
    const db = database.db;
    const user = await db.execute(sql`insert into users (name, surname, email, password_hash, birth_date) values ('T', 'T', ${`pages-${Date.now()}@example.org`}, 'x', '1990-01-01') returning id`);
    const ownerId = (rowsOf(user)[0] as { id: string }).id;
    const product = await db.execute(sql`insert into products (owner_id, case_id, gender, symptoms, hpo_terms, excluded_terms, genome_format, assembly_requested) values (${ownerId}, 'PAGES', 'female', 's', '[]', '[]', 'vcf', 'GRCh38') returning id`);
    const productId = (rowsOf(product)[0] as { id: string }).id;
    const run = await db.execute(sql`insert into analysis_runs (product_id, software_version, kb_versions, assembly, input_assembly, hpo_terms, excluded_terms) values (${productId}, 't', '{}', 'GRCh38', 'GRCh38', '[]', '[]') returning id`);
    runId = (rowsOf(run)[0] as { id: string }).id;
    for (const r of ROWS) {
      await db.execute(sql`
        insert into run_variants (run_id, id, rank, chrom, pos, ref, alt, gene, consequence, consequences, impact, acmg_class, acmg_points, acmg_criteria, zygosity, genotype, filter, score, is_candidate, input)
        values (${runId}, ${r.id}, ${r.rank}, 'chr1', ${1000 + r.id}, 'A', 'G', ${r.gene}, ${r.consequence}, '[]', 'MODERATE', 'Uncertain significance', 0, '[]', ${r.zygosity}, '{}', '[]', ${r.score}, ${r.rank !== null}, '{}')`);
    }
  });
  afterAll(async () => {
    await database.close();
  });

  const cases: { name: string; filters: VariantFilters; keep: (r: Row) => boolean }[] = [
    { name: 'all', filters: {}, keep: () => true },
    { name: 'candidates', filters: { candidatesOnly: true }, keep: (r) => r.rank !== null },
    { name: 'consequence', filters: { consequence: ['stop_gained', 'missense_variant'] }, keep: (r) => r.consequence !== 'intron_variant' },
    // intron_variant is outside the partial consequence index (migration 0021): read from the list index.
    { name: 'consequence (common and rare)', filters: { consequence: ['intron_variant', 'stop_gained'] }, keep: (r) => r.consequence !== 'missense_variant' },
    { name: 'zygosity + gene', filters: { zygosity: ['homozygous'], gene: ['AAA', 'CCC'] }, keep: (r) => r.zygosity === 'homozygous' && (r.gene === 'AAA' || r.gene === 'CCC') },
  ];

  it.each(cases)('walks $name by keyset exactly as by offset, in list order', async ({ filters, keep }) => {
    const want = expected(keep);
    const pageSize = 13;
    const byOffset: number[] = [];
    const byKeyset: number[] = [];
    let cursor: string | null = null;
    for (let page = 1; page <= Math.ceil(want.length / pageSize) + 1; page++) {
      const offsetRows = await listVariants(database.db, runId, filters, { page, pageSize });
      byOffset.push(...offsetRows.map((r) => r.id));
      const after = page === 1 ? undefined : decodeCursor(cursor ?? '');
      if (page > 1 && after === null) break;
      const keysetRows = await listVariants(database.db, runId, filters, { page, pageSize }, after ?? undefined);
      byKeyset.push(...keysetRows.map((r) => r.id));
      const last = keysetRows.at(-1);
      cursor = keysetRows.length === pageSize && last ? encodeCursor({ rank: last.rank, score: last.score, id: last.id }) : null;
    }
    expect(byOffset).toEqual(want);
    expect(byKeyset).toEqual(want);
    expect(await cappedCount(database.db, runId, filters)).toEqual({ total: want.length, capped: false });
  });

  it('lists every gene with matching variants once, and its first variants in list order', async () => {
    const filters: VariantFilters = { consequence: ['missense_variant', 'stop_gained'] };
    const keep = (r: Row) => r.consequence !== 'intron_variant' && r.gene !== null;
    const genes = await clusterGenes(database.db, runId, filters);
    expect(genes.map((g) => g.symbol).sort()).toEqual(['AAA', 'BBB', 'CCC']);
    for (const g of genes) expect(g.variantCount).toBe(ROWS.filter((r) => keep(r) && r.gene === g.symbol).length);
    const variants = await clusterVariants(database.db, runId, filters, ['AAA', 'CCC'], 4);
    expect([...variants.keys()].sort()).toEqual(['AAA', 'CCC']);
    for (const symbol of ['AAA', 'CCC']) {
      expect(variants.get(symbol)?.map((v) => v.id)).toEqual(expected((r) => keep(r) && r.gene === symbol).slice(0, 4));
    }
  });
});
