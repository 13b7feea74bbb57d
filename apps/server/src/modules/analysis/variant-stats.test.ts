import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../db/database.ts';
import { refreshVariantStats } from './analysis.repository.ts';

const dialect = new PgDialect();

/** A database that records its statements; pg_class says the table holds `rows.n` rows. */
function recordingDb(rows: { n: number }) {
  const statements: string[] = [];
  const db = {
    execute: (q: SQL) => {
      const text = dialect.sqlToQuery(q).sql;
      statements.push(text.split(' (')[0]!.split(' from ')[0]!.trim());
      return Promise.resolve({ rows: text.includes('reltuples') ? [{ n: rows.n }] : [] });
    },
  } as unknown as Executor;
  return { db, statements };
}

describe('refreshVariantStats (visibility map and planner statistics after a load)', () => {
  it('vacuums the variants, ranks, ranked genes and phenotypes after every load, and after a re-rank, analyzes after the first load and never after a re-rank', async () => {
    const table = { n: 30_000 };
    const { db, statements } = recordingDb(table);
    // The first run is the whole table.
    await refreshVariantStats(db, 30_000);
    expect(statements).toEqual(['vacuum run_variants, run_variant_ranks, run_genes, run_phenotypes', 'select reltuples::float8 as n', 'analyze run_variants']);
    // A re-rank: VACUUM only, of the ranks, ranked genes and phenotypes it replaced, and of the
    // variants (pages a load's VACUUM could not set all-visible).
    statements.length = 0;
    await refreshVariantStats(db, 0);
    expect(statements).toEqual(['vacuum run_variants, run_variant_ranks, run_genes, run_phenotypes']);
  });

  it('analyzes once the rows loaded since the last ANALYZE reach a tenth of the table, not before', async () => {
    const table = { n: 1_000_000 };
    const { db, statements } = recordingDb(table);
    await refreshVariantStats(db, 60_000);
    expect(statements.filter((s) => s.startsWith('analyze'))).toHaveLength(0);
    await refreshVariantStats(db, 39_999);
    expect(statements.filter((s) => s.startsWith('analyze'))).toHaveLength(0);
    await refreshVariantStats(db, 1);
    expect(statements.filter((s) => s.startsWith('analyze'))).toHaveLength(1);
    // The count starts again after an ANALYZE.
    await refreshVariantStats(db, 50_000);
    expect(statements.filter((s) => s.startsWith('analyze'))).toHaveLength(1);
  });

  it('analyzes a table that was never vacuumed or analyzed (reltuples -1)', async () => {
    const { db, statements } = recordingDb({ n: -1 });
    await refreshVariantStats(db, 10);
    expect(statements.at(-1)).toBe('analyze run_variants');
  });
});
