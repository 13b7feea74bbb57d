/**
 * Who may talk about a case: whoever may read it (the owner and the users it is shared with);
 * anyone else is told the case does not exist. Conversations are private to their author: a
 * conversation of someone else is not found either.
 */
import { ErrorCode } from '@rarelens/contract';
import { AppError } from '../../errors.ts';
import { assertCan, productNotFound, type ProductAccess } from '../products/products.policy.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed case id names no case: 404 like any other unknown case. */
export function assertCaseId(id: string): void {
  if (!UUID.test(id)) throw productNotFound();
}

/** Throws 404 unless the caller may read the case (`found` = the access lookup's answer). */
export function assertCanTalk(found: { isOwner: boolean } | null): asserts found is { isOwner: boolean } {
  const level: ProductAccess | null = found ? (found.isOwner ? 'owner' : 'shared') : null;
  assertCan(level, 'read');
}

export function conversationNotFound(): AppError {
  return new AppError(404, ErrorCode.conversationNotFound, 'Conversation not found');
}
