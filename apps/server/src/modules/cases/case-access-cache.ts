/**
 * Per-process cache of case access answers (PostgreSQL only): the access check that every read
 * under a case runs (cases.repository.ts `findAccessibleCase`: the case row, its owner's e-mail,
 * the current run's stored-variant count and ranking time) is answered from memory once the
 * caller was found to have access, so a page of a case's results costs one round trip: its own
 * statement. Only reads use it (cases.service.ts `createCaseAccess`): edits and shares always ask
 * the database.
 *
 * Kept exact by LISTEN/NOTIFY (db/notified-cache.ts): triggers (migration 0026) send
 * `NOTIFY rarelens_case, '<case id>'` in the transaction that changes a case's row, its shares or
 * its analysis runs (a revoked share, a deleted case, a new run or ranking), and `'*'` when one of
 * those tables is truncated; any notification on rarelens_auth (a user's row or sessions changed,
 * 0024) empties the whole cache, since an owner's e-mail or a caller's account may have changed.
 * A state-changing request is answered once this process heard what it committed (`sync`,
 * app.ts). Entries end after ENTRY_TTL_MS at most.
 */
import { createNotifiedCache, type NotifiedCache } from '../../db/notified-cache.ts';
import type { NotificationListener } from '../../db/notification-listener.ts';
import { AUTH_CHANNEL } from '../auth/index.ts';
import type { AccessibleCase } from './cases.service.ts';

export const CASE_CHANNEL = 'rarelens_case';
/** Upper bound on how long an entry is trusted without asking the database again. */
export const ENTRY_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/** Access answers by case id (group) and caller (key). */
export type CaseAccessCache = NotifiedCache<AccessibleCase>;

export function createCaseAccessCache(options: { listener: NotificationListener; now?: () => number }): CaseAccessCache {
  return createNotifiedCache<AccessibleCase>({
    listener: options.listener,
    channels: { [CASE_CHANNEL]: 'group', [AUTH_CHANNEL]: 'all' },
    ttlMs: ENTRY_TTL_MS,
    maxEntries: MAX_ENTRIES,
    ...(options.now ? { now: options.now } : {}),
  });
}

/** The key of a caller's answer within a case's entries: access depends on their id and e-mail (shares). */
export function callerKey(user: { id: string; email: string }): string {
  return `${user.id}\n${user.email}`;
}
