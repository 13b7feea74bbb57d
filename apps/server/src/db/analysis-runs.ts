import { eq } from 'drizzle-orm';
import type { Executor } from './database.ts';
import { findOne } from './find-one.ts';
import { analysisRuns, type AnalysisRunRow } from './schema/products.ts';

/** An analysis run by id, or null: the one lookup the cases and analysis repositories share. */
export function findRun(db: Executor, runId: string): Promise<AnalysisRunRow | null> {
  return findOne(db, analysisRuns, eq(analysisRuns.id, runId));
}
