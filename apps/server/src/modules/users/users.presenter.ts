/** The only way a user leaves the server: a whitelist of public fields (no hashes). */
import type { PublicUser } from '@rarelens/contract';
import type { UserRow } from '../../db/schema/index.ts';

export type PresentableUser = Omit<UserRow, 'passwordHash'>;

export function presentUser(user: PresentableUser): PublicUser {
  return {
    id: user.id,
    name: user.name,
    surname: user.surname,
    email: user.email,
    birthDate: user.birthDate,
    address: user.address,
    country: user.country,
    state: user.state,
    phoneNumber: user.phoneNumber,
    language: user.language,
    emailVerified: user.emailVerifiedAt !== null,
    createdAt: user.createdAt.toISOString(),
  };
}
