import {
  Constants,
  LoginResponse,
  REFRESHED_AT_COOKIE_SUFFIX,
  SessionResponse,
  type LoginBody,
  type PublicUser,
} from '@rarelens/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { ApiError, api, refreshTokens } from './api-client.ts';
import { broadcastAuthChange, notifySessionExpired, subscribeToOtherTabs } from './auth-events.ts';
import { logger } from './logger.ts';

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

export type Session = {
  status: SessionStatus;
  user: PublicUser | null;
  /** Signs in; resolves with the user, rejects with an ApiError (401 invalid_credentials, 403 email_not_verified). */
  signIn: (credentials: LoginBody) => Promise<PublicUser>;
  /** Signs out on the server (revoking the refresh token) and clears everything cached. */
  signOut: () => Promise<void>;
  /** Re-reads the session from the server. */
  reload: () => Promise<void>;
};

export const sessionQueryKey = ['session'] as const;

/**
 * True when the browser holds the readable last-refreshed cookie the server sets beside the
 * (httpOnly) session cookies: without it there is no session to ask for.
 */
export function mayHaveSession(): boolean {
  return document.cookie
    .split(';')
    .some((part) => part.trim().split('=')[0]?.endsWith(`.${REFRESHED_AT_COOKIE_SUFFIX}`));
}

/**
 * The signed-in user, or null for a visitor. Cookies are httpOnly: the server is the only
 * source. Without a token nothing is asked (§4), so a visitor's page logs no 401.
 */
async function fetchSessionUser(): Promise<PublicUser | null> {
  if (!mayHaveSession()) return null;
  try {
    const { user } = await api.get('/api/auth/session', { schema: SessionResponse, auth: 'session' });
    return user;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null;
    throw error;
  }
}

const SessionContext = createContext<Session | null>(null);

/** Holds the session state, the periodic refresh and the cross-tab reload. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: sessionQueryKey,
    queryFn: fetchSessionUser,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: 1,
  });

  // A failed fetch counts as signed out (§4: it clears the user data).
  const user = query.data ?? null;
  const status: SessionStatus = query.isPending ? 'loading' : user ? 'authenticated' : 'unauthenticated';

  useEffect(() => {
    if (status !== 'authenticated') return;
    const timer = window.setInterval(() => {
      void (async () => {
        const refreshed = await refreshTokens();
        if (!refreshed) {
          notifySessionExpired();
          return;
        }
        await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      })();
    }, Constants.sessionRefreshIntervalMs);
    return () => window.clearInterval(timer);
  }, [status, queryClient]);

  useEffect(() => subscribeToOtherTabs(() => window.location.reload()), []);

  const signIn = useCallback(
    async (credentials: LoginBody) => {
      const raw = await api.post<unknown>('/api/auth/login', credentials, { auth: 'none' });
      const parsed = LoginResponse.safeParse(raw);
      if (!parsed.success) {
        // §5: the token of a sign-in response must be a string; log it and stop the flow.
        logger.error('The sign-in response holds no string token.', parsed.error.issues);
        throw new ApiError(500, { code: 'invalid_response', message: 'Something went wrong' });
      }
      queryClient.setQueryData(sessionQueryKey, parsed.data.user);
      broadcastAuthChange('login');
      return parsed.data.user;
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    try {
      await api.post('/api/auth/logout', {}, { auth: 'none' });
    } catch (error) {
      // The cookies may already be gone; the local state is cleared either way.
      logger.warn('Logout request failed', error);
    }
    // Set the session first: the provider's observer stays on this query, so clearing the
    // whole cache would leave it holding the signed-out user. Everything else is dropped.
    queryClient.setQueryData(sessionQueryKey, null);
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
    broadcastAuthChange('logout');
  }, [queryClient]);

  const reload = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
  }, [queryClient]);

  const value = useMemo<Session>(
    () => ({ status, user, signIn, signOut, reload }),
    [status, user, signIn, signOut, reload],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The current session; must be used under SessionProvider. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}

/** Display name "Name Surname" of a user. */
export function formatUserName(user: Pick<PublicUser, 'name' | 'surname'>): string {
  return `${user.name} ${user.surname}`.trim();
}
