/** SQL of the raw-data module: the outputs of a run's raw data analysis. */
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { findOne } from '../../db/find-one.ts';
import { readAlignments, type ReadAlignmentRow } from '../../db/schema/read-alignments.ts';

export function findByRun(db: Executor, runId: string): Promise<ReadAlignmentRow | null> {
  return findOne(db, readAlignments, eq(readAlignments.runId, runId));
}
