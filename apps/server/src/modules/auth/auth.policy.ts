/** Who may do what with an account. */
import { ErrorCode, Messages } from '@rarelens/contract';
import type { UserRow } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';

/** Login is refused (403) until the e-mail address is verified. */
export function assertMayLogIn(user: Pick<UserRow, 'emailVerifiedAt'>): void {
  if (user.emailVerifiedAt === null) {
    throw new AppError(403, ErrorCode.emailNotVerified, Messages.emailNotVerified);
  }
}
