/**
 * The users module's public surface: the user rows (read and written by the auth, account and
 * orders modules) and their public shape. Other modules import users only from here.
 */
export {
  findUserByEmail,
  findUserById,
  insertUser,
  isUniqueViolation,
  markEmailVerified,
  updateUserPassword,
  updateUserProfile,
  type UserProfileChanges,
} from './users.repository.ts';
export { presentUser, type PresentableUser } from './users.presenter.ts';
