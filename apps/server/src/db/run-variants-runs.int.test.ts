/**
 * The run of a stored variant (migration 0025: triggers instead of a per-row foreign key), on
 * both drivers: inserts and COPY naming a missing run fail with foreign_key_violation and leave
 * nothing; a variant cannot move to another run nor a run change its id while it has variants;
 * deleting a run, or the case it belongs to, deletes its variants and no one else's.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withBulkLoad } from './bulk-copy.ts';
import { rowsOf, type Database } from './database.ts';
import { bothDatabases } from '../testing/databases.ts';
import { copyVariantRanks, copyVariants } from '../modules/analysis/analysis.repository.ts';
import type { runVariants } from './schema/products.ts';

const { databases, removeDirs } = bothDatabases('rarelens-run-variants-runs-');

afterAll(removeDirs);

const MISSING_RUN = '00000000-0000-4000-8000-00000000dead';

/** A minimal stored variant of `runId` (COPY writes every column: the defaulted ones are given). */
function variant(runId: string, id: number): typeof runVariants.$inferInsert {
  return {
    runId,
    id,
    chrom: 'chr1',
    pos: 1000 + id,
    ref: 'A',
    alt: 'G',
    consequences: ['intron_variant'],
    impact: 'MODIFIER',
    acmgClass: 'Uncertain significance',
    acmgPoints: 0,
    acmgCriteria: [],
    zygosity: 'heterozygous',
    genotype: {},
    filter: ['PASS'],
    score: 0.1,
    isCandidate: false,
    input: {},
    isManeSelect: false,
    inheritance: [],
  };
}

/** The driver's error under drizzle's wrapper (its SQLSTATE and message). */
async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (error === null) throw new Error('expected the statement to fail');
  const e = (error as { cause?: unknown }).cause ?? error;
  return { code: String((e as { code?: unknown }).code), message: String((e as Error).message) };
}

describe.each(databases)('run of a stored variant on $name', ({ open }) => {
  let database: Database;
  let ownerId: string;
  beforeAll(async () => {
    database = await open();
    const user = await database.db.execute(sql`insert into users (name, surname, email, password_hash, birth_date) values ('T', 'T', ${`runs-${Date.now()}@example.org`}, 'x', '1990-01-01') returning id`);
    ownerId = (rowsOf(user)[0] as { id: string }).id;
  });
  afterAll(async () => {
    await database.close();
  });

  async function newCase(): Promise<string> {
    const product = await database.db.execute(sql`insert into products (owner_id, case_id, gender, symptoms, hpo_terms, excluded_terms, genome_format, assembly_requested) values (${ownerId}, 'RUNS', 'female', 's', '[]', '[]', 'vcf', 'GRCh38') returning id`);
    return (rowsOf(product)[0] as { id: string }).id;
  }
  async function newRun(caseId: string): Promise<string> {
    const run = await database.db.execute(sql`insert into analysis_runs (product_id, software_version, kb_versions, assembly, input_assembly, hpo_terms, excluded_terms) values (${caseId}, 't', '{}', 'GRCh38', 'GRCh38', '[]', '[]') returning id`);
    return (rowsOf(run)[0] as { id: string }).id;
  }
  const load = (rows: (typeof runVariants.$inferInsert)[]) => withBulkLoad(database, (l) => copyVariants(l, database.kind, rows));
  const count = async (runId: string) =>
    Number((rowsOf(await database.db.execute(sql`select count(*)::int as n from run_variants where run_id = ${runId}`))[0] as { n: number }).n);
  /** Rank rows of `runId` for the given variant ids (ranks 1, 2, ... in that order). */
  const loadRanks = (runId: string, ids: number[]) =>
    withBulkLoad(database, (l) =>
      copyVariantRanks(l, database.kind, ids.map((id, i) => ({ runId, rank: i + 1, id, gene: null, consequence: null, af: null, clinvarSignificance: null, acmgClass: 'Benign', zygosity: 'heterozygous', inheritance: [] }))),
    );
  const countRanks = async (runId: string) =>
    Number((rowsOf(await database.db.execute(sql`select count(*)::int as n from run_variant_ranks where run_id = ${runId}`))[0] as { n: number }).n);
  const countAll = async () => Number((rowsOf(await database.db.execute(sql`select count(*)::int as n from run_variants`))[0] as { n: number }).n);

  it('stores variants of an existing run and refuses those of a missing run, by COPY and by INSERT', async () => {
    const runId = await newRun(await newCase());
    await load([variant(runId, 1), variant(runId, 2)]);
    expect(await count(runId)).toBe(2);
    const before = await countAll();

    const copied = await failure(load([variant(runId, 3), variant(MISSING_RUN, 1)]));
    expect(copied.code).toBe('23503');
    expect(copied.message).toContain(`run ${MISSING_RUN} is not present in table analysis_runs`);
    const inserted = await failure(database.db.execute(sql`insert into run_variants (run_id, id, chrom, pos, ref, alt, consequences, impact, acmg_class, acmg_points, acmg_criteria, zygosity, genotype, filter, score, is_candidate, input)
      values (${MISSING_RUN}, 1, 'chr1', 1, 'A', 'G', '[]', 'MODIFIER', 'Benign', 0, '[]', 'heterozygous', '{}', '[]', 0, false, '{}')`));
    expect(inserted.code).toBe('23503');
    // The failed statements left nothing (the COPY's valid row of the existing run included).
    expect(await countAll()).toBe(before);
    expect(await count(runId)).toBe(2);
  });

  it('refuses to move a variant to another run or to change the id of a run with variants', async () => {
    const caseId = await newCase();
    const runId = await newRun(caseId);
    const otherRun = await newRun(caseId);
    const emptyRun = await newRun(caseId);
    await load([variant(runId, 1)]);
    const moved = await failure(database.db.execute(sql`update run_variants set run_id = ${otherRun} where run_id = ${runId}`));
    expect(moved.code).toBe('23503');
    expect(moved.message).toContain(`variant 1 cannot move from run ${runId}`);
    const renamed = await failure(database.db.execute(sql`update analysis_runs set id = gen_random_uuid() where id = ${runId}`));
    expect(renamed.code).toBe('23503');
    expect(renamed.message).toContain(`run ${runId} has stored variants`);
    // Other updates are untouched: scores of variants, the id of a run without variants.
    await database.db.execute(sql`update run_variants set score = 1 where run_id = ${runId}`);
    await database.db.execute(sql`update analysis_runs set id = gen_random_uuid() where id = ${emptyRun}`);
    expect(await count(runId)).toBe(1);
  });

  it('deletes the variants of deleted runs, also when the case is deleted, and keeps the others', async () => {
    const caseA = await newCase();
    const [a1, a2] = [await newRun(caseA), await newRun(caseA)];
    const caseB = await newCase();
    const b1 = await newRun(caseB);
    await load([variant(a1, 1), variant(a1, 2), variant(a2, 1), variant(b1, 1), variant(b1, 2), variant(b1, 3)]);
    await loadRanks(a1, [2, 1]);
    await loadRanks(a2, [1]);
    await loadRanks(b1, [3]);

    await database.db.execute(sql`delete from analysis_runs where id = ${a1}`);
    expect([await count(a1), await count(a2), await count(b1)]).toEqual([0, 1, 3]);
    // The candidates' ranks (run_variant_ranks, migration 0031) go with their run's variants.
    expect([await countRanks(a1), await countRanks(a2), await countRanks(b1)]).toEqual([0, 1, 1]);
    await database.db.execute(sql`delete from products where id = ${caseA}`);
    expect([await count(a2), await count(b1)]).toEqual([0, 3]);
    expect([await countRanks(a2), await countRanks(b1)]).toEqual([0, 1]);
    // Ranks of a missing run are refused.
    const ranked = await failure(loadRanks(MISSING_RUN, [1]));
    expect(ranked.code).toBe('23503');
    expect(ranked.message).toContain(`run ${MISSING_RUN} is not present in table analysis_runs`);
    // Variants of a run deleted before they arrive are refused.
    const late = await newRun(caseB);
    await database.db.execute(sql`delete from analysis_runs where id = ${late}`);
    expect((await failure(load([variant(late, 1)]))).code).toBe('23503');
    expect(await count(b1)).toBe(3);
  });
});
