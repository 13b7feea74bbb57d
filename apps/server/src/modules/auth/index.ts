/** The auth module's public surface for other modules (the account module changes passwords). */
export { revokeUserRefreshTokens } from './auth.repository.ts';
export { hashPassword, verifyPassword } from './password-hasher.ts';
export type { SessionCookies } from './auth.cookies.ts';
/** The channel of users' and sessions' changes (the case access cache empties itself on it). */
export { AUTH_CHANNEL } from './session-cache.ts';
