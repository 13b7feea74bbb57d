import type { DemoRequestBody } from '@rarelens/contract';
import type { Executor } from '../../db/database.ts';
import { demoRequests, type DemoRequestRow } from '../../db/schema/index.ts';

export async function insertDemoRequest(
  db: Executor,
  request: DemoRequestBody,
): Promise<DemoRequestRow> {
  const [row] = await db.insert(demoRequests).values(request).returning();
  if (row === undefined) throw new Error('insert into demo_requests returned no row');
  return row;
}
