/**
 * Who may talk about a case: whoever may read it (the owner and the users it is shared with;
 * the cases access check, `CaseAccess.check(user, id, 'read')`); anyone else is told the case
 * does not exist. Conversations are private to their author: a conversation of someone else
 * is not found either.
 */
import { ErrorCode } from '@rarelens/contract';
import { AppError } from '../../errors.ts';

export function conversationNotFound(): AppError {
  return new AppError(404, ErrorCode.conversationNotFound, 'Conversation not found');
}
