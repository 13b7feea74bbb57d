import type { ContactBody } from '@rarelens/contract';
import type { Executor } from '../../db/database.ts';
import { contactMessages, type ContactMessageRow } from '../../db/schema/index.ts';
import { insertOne } from '../../db/insert-one.ts';

export async function insertContactMessage(
  db: Executor,
  message: ContactBody,
): Promise<ContactMessageRow> {
  return insertOne(db, contactMessages, message);
}
