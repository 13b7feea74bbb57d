/** Response shapes of the auth routes. */
import type { LoginResponse, TokenPair } from '@rarelens/contract';
import { presentUser } from '../users/index.ts';
import type { Session } from './auth.service.ts';

export function presentLogin(session: Session): LoginResponse {
  return {
    token: session.token,
    refreshToken: session.refreshToken,
    user: presentUser(session.user),
  };
}

export function presentTokenPair(session: Session): TokenPair {
  return { token: session.token, refreshToken: session.refreshToken };
}
