/**
 * Per-process cache of live sessions (PostgreSQL only): the session check that every
 * authenticated request runs (auth.repository.ts `findUserWithLiveSession`) is answered from
 * memory once a session was found live, so a page costs one round trip less.
 *
 * Revocation stays immediate across API processes: triggers (migration 0024) send
 * `NOTIFY rarelens_auth, '<user id>'` in the transaction that changes or deletes a user's row or
 * any of their refresh tokens (logout, password change or reset, token reuse, rotation, account
 * deletion), and `'*'` when either table is truncated. Every process LISTENs on its one listener
 * connection (db/notification-listener.ts) and drops the user's entries when the notification
 * arrives (db/notified-cache.ts: its loss and the races): PostgreSQL sends it to every listener at the
 * commit, and the process that ended the session answers only once its own listener heard it
 * (`sync`, app.ts), so the other processes have been sent it by then. Each entry also ends when
 * its session's newest live refresh token expires, and after ENTRY_TTL_MS at most. Only live
 * sessions are cached: an unknown or ended session is asked again every time.
 */
import type { UserRow } from '../../db/schema/index.ts';
import { createNotifiedCache, type NotifiedCache } from '../../db/notified-cache.ts';
import type { NotificationListener } from '../../db/notification-listener.ts';

export const AUTH_CHANNEL = 'rarelens_auth';
/** Upper bound on how long an entry is trusted without asking the database again. */
export const ENTRY_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/** A live session as the database answered it: the user and when the session stops being live. */
export interface LiveSession {
  user: UserRow;
  liveUntil: Date;
}

/** The live sessions of a process; listening, ready, sync and close as db/notified-cache.ts says. */
export interface SessionCache extends Omit<NotifiedCache<UserRow>, 'lookup'> {
  /** The user of a live session, from memory when the cache may answer, else from `load`. */
  lookup(userId: string, sessionId: string, load: () => Promise<LiveSession | undefined>): Promise<UserRow | undefined>;
}

export function createSessionCache(options: { listener: NotificationListener; now?: () => number }): SessionCache {
  const cache = createNotifiedCache<UserRow>({
    listener: options.listener,
    channels: { [AUTH_CHANNEL]: 'group' },
    ttlMs: ENTRY_TTL_MS,
    maxEntries: MAX_ENTRIES,
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    get listening() {
      return cache.listening;
    },
    ready: () => cache.ready(),
    sync: () => cache.sync(),
    lookup: (userId, sessionId, load) =>
      cache.lookup(userId, sessionId, async () => {
        const found = await load();
        return found && { value: found.user, until: found.liveUntil.getTime() };
      }),
    close: () => cache.close(),
  };
}
