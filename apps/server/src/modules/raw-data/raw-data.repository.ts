/** SQL of the raw-data module: the outputs of a run's raw data analysis. */
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { readAlignments, type ReadAlignmentRow } from '../../db/schema/read-alignments.ts';

export async function findByRun(db: Executor, runId: string): Promise<ReadAlignmentRow | null> {
  const [row] = await db.select().from(readAlignments).where(eq(readAlignments.runId, runId)).limit(1);
  return row ?? null;
}
