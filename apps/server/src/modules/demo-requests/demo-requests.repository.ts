import type { DemoRequestBody } from '@rarelens/contract';
import type { Executor } from '../../db/database.ts';
import { demoRequests, type DemoRequestRow } from '../../db/schema/index.ts';
import { insertOne } from '../../db/insert-one.ts';

export async function insertDemoRequest(
  db: Executor,
  request: DemoRequestBody,
): Promise<DemoRequestRow> {
  return insertOne(db, demoRequests, request);
}
