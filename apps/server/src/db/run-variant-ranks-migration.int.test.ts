/**
 * Migration 0031 (the candidates' ranks out of run_variants into run_variant_ranks) keeps the
 * rankings of existing runs: a database migrated to 0030 with stored runs is migrated to 0031,
 * and every candidate's rank, its filter columns and the variant list's order (read by the
 * list's own code) are what they were. On PostgreSQL (a database of its own, dropped with the
 * test run's) and PGlite (in memory).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { rowsOf, migrationsFolder, type Executor } from './database.ts';
import * as schema from './schema/index.ts';
import { cappedCount, listVariants } from '../modules/variants/variants.repository.ts';
import type { VariantFilters } from './run-variants.ts';

/** The statements of each migration, in journal order, by tag. */
function migrations(): { tag: string; statements: string[] }[] {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  return journal.entries.map(({ tag }) => ({
    tag,
    statements: readFileSync(path.join(migrationsFolder, `${tag}.sql`), 'utf8')
      .split('--> statement-breakpoint')
      .filter((s) => s.trim() !== ''),
  }));
}

interface Target {
  db: Executor;
  run(statement: string): Promise<void>;
  close(): Promise<void>;
}

async function postgres(): Promise<Target> {
  const url = new URL(process.env.DATABASE_URL!);
  // Named after this worker's database, so the run's teardown drops it with the others.
  const name = `${url.pathname.slice(1)}_m0031_${process.pid}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_ADMIN_URL ?? process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return {
    db: drizzleNodePg(client, { schema }) as unknown as Executor,
    run: async (s) => void (await client.query(s)),
    close: async () => {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

async function pglite(): Promise<Target> {
  const client = await PGlite.create();
  return {
    db: drizzlePglite(client, { schema }) as unknown as Executor,
    run: async (s) => void (await client.exec(s)),
    close: () => client.close(),
  };
}

/** A stored variant row of migration 0030's run_variants (with its rank column). */
function variantSql(
  runId: string,
  v: { id: number; rank: number | null; candidate: boolean; score: number; gene: string; consequence: string; af: number | null; acmg: string; zygosity: string; inheritance: string[]; chrom?: string },
  // run_variants lost its rank column in 0031: from then on the rank rows are written apart.
  { rankColumn = true }: { rankColumn?: boolean } = {},
): string {
  const text = (s: string | null) => (s === null ? 'null' : `'${s}'`);
  return `insert into run_variants (run_id, id, ${rankColumn ? 'rank, ' : ''}chrom, pos, ref, alt, gene, consequence, consequences, impact, af, clinvar_significance, acmg_class, acmg_points, acmg_criteria,
      zygosity, genotype, filter, score, is_candidate, input, inheritance)
    values ('${runId}', ${v.id}, ${rankColumn ? `${v.rank ?? 'null'}, ` : ''}'${v.chrom ?? '1'}', ${1000 + v.id}, 'A', 'G', ${text(v.gene)}, ${text(v.consequence)}, '["${v.consequence}"]', 'MODERATE', ${v.af ?? 'null'},
      ${v.id === 2 ? "'Pathogenic'" : 'null'}, ${text(v.acmg)}, 0, '[]', ${text(v.zygosity)}, '{}', '[]', ${v.score}, ${v.candidate}, '{}', '{${v.inheritance.join(',')}}')`;
}

/** Applies the migrations before `tag` (journal order); the list and `tag`'s index in it. */
async function migrateBefore(target: Target, tag: string): Promise<{ all: ReturnType<typeof migrations>; at: number }> {
  const all = migrations();
  const at = all.findIndex((m) => m.tag === tag);
  expect(at).toBeGreaterThan(0);
  for (const m of all.slice(0, at)) for (const s of m.statements) await target.run(s);
  return { all, at };
}

const CASE_ID = '00000000-0000-4000-8000-0000000000c1';

/** A user, a case and its completed runs, as the tables stood before 0030. */
async function storeCase(target: Target, runs: string[]): Promise<void> {
  await target.run(`insert into users (id, name, surname, email, password_hash, birth_date) values ('00000000-0000-4000-8000-000000000001', 'T', 'T', 't@example.org', 'x', '1990-01-01')`);
  await target.run(`insert into products (id, owner_id, case_id, gender, symptoms, hpo_terms, excluded_terms, genome_format, assembly_requested)
    values ('${CASE_ID}', '00000000-0000-4000-8000-000000000001', 'M30', 'female', 's', '[]', '[]', 'vcf', 'GRCh38')`);
  for (const r of runs) {
    await target.run(`insert into analysis_runs (id, product_id, software_version, kb_versions, assembly, input_assembly, hpo_terms, excluded_terms, state)
      values ('${r}', '${CASE_ID}', 't', '{}', 'GRCh38', 'GRCh38', '[]', '[]', 'completed')`);
  }
}

describe.each([
  { name: 'PostgreSQL', open: postgres },
  { name: 'PGlite', open: pglite },
])('migrations 0030–0031 on $name', ({ open }) => {
  it("keeps existing runs' rankings: ranks, filter columns and the list order", async () => {
    const target = await open();
    try {
      const { all, at } = await migrateBefore(target, '0031_run_variant_ranks');

      // Two runs stored before 0031: ranked candidates (rank on the wide row), one candidate
      // without a rank, and variants that are no candidates.
      const runs = ['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000a2'];
      await storeCase(target, runs);
      const base = { gene: 'FGFR2', consequence: 'missense_variant', af: null, acmg: 'Uncertain significance', zygosity: 'heterozygous', inheritance: [] as string[] };
      const first = [
        { ...base, id: 1, rank: null, candidate: false, score: 0.9 },
        { ...base, id: 2, rank: 2, candidate: true, score: 0.2, gene: 'TTN', af: 0.0125, acmg: 'Likely pathogenic' },
        { ...base, id: 3, rank: null, candidate: false, score: 0.5, gene: 'TTN' },
        { ...base, id: 5, rank: 1, candidate: true, score: 0.1, zygosity: 'homozygous', inheritance: ['de_novo', 'x_linked'] },
        { ...base, id: 7, rank: null, candidate: true, score: 0.3, consequence: 'stop_gained' },
        { ...base, id: 9, rank: 3, candidate: true, score: 0.8, gene: 'SCN1A' },
      ];
      const second = [
        { ...base, id: 1, rank: 2, candidate: true, score: 0.4 },
        { ...base, id: 2, rank: 1, candidate: true, score: 0.3 },
        { ...base, id: 4, rank: null, candidate: false, score: 0.6 },
      ];
      for (const v of first) await target.run(variantSql(runs[0]!, v));
      for (const v of second) await target.run(variantSql(runs[1]!, v));

      for (const m of all.slice(at)) for (const s of m.statements) await target.run(s);

      const ranks = rowsOf(await target.db.execute(sql`
        select run_id::text as run_id, rank, id, gene, consequence, af, clinvar_significance, acmg_class, zygosity, inheritance
        from run_variant_ranks order by run_id, rank`));
      expect(ranks.map((r) => [r.run_id, Number(r.rank), Number(r.id)])).toEqual([
        [runs[0], 1, 5],
        [runs[0], 2, 2],
        [runs[0], 3, 9],
        // The candidate without a rank follows the ranked ones: it stays in the list.
        [runs[0], 4, 7],
        [runs[1], 1, 2],
        [runs[1], 2, 1],
      ]);
      // The filter columns are the stored variants'.
      expect(ranks[0]).toMatchObject({ gene: 'FGFR2', zygosity: 'homozygous', inheritance: ['de_novo', 'x_linked'], af: null });
      expect(ranks[1]).toMatchObject({ gene: 'TTN', acmg_class: 'Likely pathogenic', clinvar_significance: 'Pathogenic' });
      expect(Number(ranks[1]!.af)).toBeCloseTo(0.0125, 6);
      expect(ranks[3]).toMatchObject({ consequence: 'stop_gained' });
      // The rank is off the wide row.
      const columns = rowsOf(await target.db.execute(sql`select column_name from information_schema.columns where table_name = 'run_variants' and column_name = 'rank'`));
      expect(columns).toEqual([]);

      // The list reads them in the order they had: candidates by rank, then the others by score.
      const page = await listVariants(target.db, CASE_ID, runs[0]!, {}, { page: 1, pageSize: 10 });
      expect(page.rows.map((v) => [v.id, v.rank])).toEqual([
        [5, 1],
        [2, 2],
        [9, 3],
        [7, 4],
        [1, null],
        [3, null],
      ]);
      const candidates = await listVariants(target.db, CASE_ID, runs[0]!, { candidatesOnly: true, gene: ['FGFR2'] }, { page: 1, pageSize: 10 });
      expect(candidates.rows.map((v) => v.id)).toEqual([5, 7]);
      expect(await cappedCount(target.db, runs[1]!, {})).toEqual({ total: 3, capped: false });
      expect(await cappedCount(target.db, runs[0]!, { inheritance: ['de_novo'] })).toEqual({ total: 1, capped: false });

      // Deleting a run deletes its ranks (migration 0031's trigger), not the other run's.
      await target.run(`delete from analysis_runs where id = '${runs[0]}'`);
      const left = rowsOf(await target.db.execute(sql`select run_id::text as run_id, count(*)::int as n from run_variant_ranks group by run_id`));
      expect(left).toEqual([{ run_id: runs[1], n: 2 }]);
    } finally {
      await target.close();
    }
  }, 120_000);

  // Migration 0032 rebuilds the rank key (run_id, rank) with the variant id in it (INCLUDE), so
  // that an offset page reads the keys it skips from the index alone: the rank rows stay, the key
  // stays unique, and the list reads the same order.
  it('0032: the rank key covers the variant id; rank rows, uniqueness and the list order kept', async () => {
    const target = await open();
    try {
      const { all, at } = await migrateBefore(target, '0032_run_variant_ranks_covering_pk');
      const run = '00000000-0000-4000-8000-0000000000a4';
      await storeCase(target, [run]);
      const base = { gene: 'FGFR2', consequence: 'missense_variant', af: null, acmg: 'Uncertain significance', zygosity: 'heterozygous', inheritance: [] as string[] };
      for (const v of [
        { ...base, id: 1, rank: null, candidate: false, score: 0.9 },
        { ...base, id: 2, rank: null, candidate: true, score: 0.2 },
        { ...base, id: 3, rank: null, candidate: true, score: 0.5 },
      ]) {
        await target.run(variantSql(run, v, { rankColumn: false }));
      }
      await target.run(`insert into run_variant_ranks (run_id, rank, id, gene, consequence, acmg_class, zygosity) values ('${run}', 1, 3, 'FGFR2', 'missense_variant', 'Uncertain significance', 'heterozygous'), ('${run}', 2, 2, 'FGFR2', 'missense_variant', 'Uncertain significance', 'heterozygous')`);
      const keyColumns = async () =>
        rowsOf(await target.db.execute(sql`select i.indnatts::int as all_columns, i.indnkeyatts::int as key_columns from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = 'run_variant_ranks_run_id_rank_pk'`));
      expect(await keyColumns()).toEqual([{ all_columns: 2, key_columns: 2 }]);

      for (const m of all.slice(at)) for (const s of m.statements) await target.run(s);

      expect(await keyColumns()).toEqual([{ all_columns: 3, key_columns: 2 }]);
      const pk = rowsOf(await target.db.execute(sql`select pg_get_indexdef(c.oid) as def, i.indisprimary as is_primary from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = 'run_variant_ranks_run_id_rank_pk'`));
      expect(pk[0]?.is_primary).toBe(true);
      expect(String(pk[0]?.def)).toMatch(/\(run_id, rank\) INCLUDE \(id\)/);
      const page = await listVariants(target.db, CASE_ID, run, {}, { page: 1, pageSize: 10 });
      expect(page.rows.map((v) => [v.id, v.rank])).toEqual([
        [3, 1],
        [2, 2],
        [1, null],
      ]);
      const second = await listVariants(target.db, CASE_ID, run, {}, { page: 2, pageSize: 1 });
      expect(second.rows.map((v) => [v.id, v.rank])).toEqual([[2, 2]]);
      // Still the primary key: a second row of a run's rank is refused.
      await expect(target.run(`insert into run_variant_ranks (run_id, rank, id, acmg_class, zygosity) values ('${run}', 2, 1, 'Benign', 'heterozygous')`)).rejects.toThrow(/duplicate key|unique/i);
    } finally {
      await target.close();
    }
  }, 120_000);

  // Migration 0030 runs before 0031 on every database, so the rank rows 0031 makes copy the
  // zygosity 0030 corrected: an MT row stored before 0705e00 with a nuclear zygosity is found
  // by the list's 'mitochondrial' filter afterwards, candidate or not; nuclear rows keep theirs.
  it("files mitochondrial calls stored before 0705e00 under the 'mitochondrial' filter through 0030 and 0031", async () => {
    const target = await open();
    try {
      const { all, at } = await migrateBefore(target, '0030_mitochondrial_zygosity');
      const run = '00000000-0000-4000-8000-0000000000a3';
      await storeCase(target, [run]);
      const base = { gene: 'MT-TL1', consequence: 'non_coding_transcript_exon_variant', af: null, acmg: 'Uncertain significance', inheritance: [] as string[], chrom: 'MT' };
      const stored = [
        { ...base, id: 1, rank: 1, candidate: true, score: 0.9, zygosity: 'hemizygous' },
        { ...base, id: 2, rank: 2, candidate: true, score: 0.8, zygosity: 'homozygous' },
        { ...base, id: 3, rank: null, candidate: false, score: 0.7, zygosity: 'heterozygous' },
        { ...base, id: 4, rank: 3, candidate: true, score: 0.6, zygosity: 'homozygous', gene: 'FGFR2', consequence: 'missense_variant', chrom: '10' },
        { ...base, id: 5, rank: null, candidate: false, score: 0.5, zygosity: 'hemizygous', gene: 'DMD', consequence: 'missense_variant', chrom: 'X' },
      ];
      for (const v of stored) await target.run(variantSql(run, v));
      for (const m of all.slice(at)) for (const s of m.statements) await target.run(s);

      const zygosity = async (f: VariantFilters) =>
        (await listVariants(target.db, CASE_ID, run, f, { page: 1, pageSize: 10 })).rows.map((v) => [v.id, v.zygosity]);
      expect(await zygosity({ zygosity: ['mitochondrial'] })).toEqual([
        [1, 'mitochondrial'],
        [2, 'mitochondrial'],
        [3, 'mitochondrial'],
      ]);
      expect(await zygosity({ zygosity: ['mitochondrial'], candidatesOnly: true })).toEqual([
        [1, 'mitochondrial'],
        [2, 'mitochondrial'],
      ]);
      expect(await zygosity({ zygosity: ['homozygous', 'hemizygous'] })).toEqual([
        [4, 'homozygous'],
        [5, 'hemizygous'],
      ]);
      const ranks = rowsOf(await target.db.execute(sql`select id, zygosity from run_variant_ranks order by rank`));
      expect(ranks.map((r) => [Number(r.id), r.zygosity])).toEqual([
        [1, 'mitochondrial'],
        [2, 'mitochondrial'],
        [4, 'homozygous'],
      ]);
    } finally {
      await target.close();
    }
  }, 120_000);
});
