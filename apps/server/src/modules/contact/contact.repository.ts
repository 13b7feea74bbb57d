import type { ContactBody } from '@rarelens/contract';
import type { Executor } from '../../db/database.ts';
import { contactMessages, type ContactMessageRow } from '../../db/schema/index.ts';

export async function insertContactMessage(
  db: Executor,
  message: ContactBody,
): Promise<ContactMessageRow> {
  const [row] = await db.insert(contactMessages).values(message).returning();
  if (row === undefined) throw new Error('insert into contact_messages returned no row');
  return row;
}
