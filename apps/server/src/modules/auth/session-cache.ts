/**
 * Per-process cache of live sessions (PostgreSQL only): the session check that every
 * authenticated request runs (auth.repository.ts `findUserWithLiveSession`) is answered from
 * memory once a session was found live, so a page costs one round trip less.
 *
 * Revocation stays immediate across API processes: triggers (migration 0024) send
 * `NOTIFY rarelens_auth, '<user id>'` in the transaction that changes or deletes a user's row or
 * any of their refresh tokens (logout, password change or reset, token reuse, rotation, account
 * deletion), and `'*'` when either table is truncated. Every process LISTENs on a connection of
 * its own and drops the user's entries when the notification arrives: PostgreSQL sends it to every
 * listener at the commit, and the process that ended the session answers only once its own
 * listener heard it (`sync`, app.ts), so the other processes have been sent it by then. Entries are used only while that
 * connection listens: when it is lost the cache is emptied and bypassed until LISTEN is back.
 * A lookup that raced with a notification is not stored (generation check). Each entry also
 * ends when its session's newest live refresh token expires, and after ENTRY_TTL_MS at most.
 * Only live sessions are cached: an unknown or ended session is asked again every time.
 */
import pg from 'pg';
import type { UserRow } from '../../db/schema/index.ts';

export const AUTH_CHANNEL = 'rarelens_auth';
/** Upper bound on how long an entry is trusted without asking the database again. */
export const ENTRY_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
const RECONNECT_MS = 1_000;

/** A live session as the database answered it: the user and when the session stops being live. */
export interface LiveSession {
  user: UserRow;
  liveUntil: Date;
}

interface Entry {
  user: UserRow;
  until: number;
}

export interface SessionCache {
  /** The user of a live session, from memory when the cache may answer, else from `load`. */
  lookup(userId: string, sessionId: string, load: () => Promise<LiveSession | undefined>): Promise<UserRow | undefined>;
  /** True while the LISTEN connection is up (entries are used only then). */
  readonly listening: boolean;
  /** Resolves once LISTEN is in place (tests; the cache works without waiting). */
  ready(): Promise<void>;
  /**
   * Resolves once this process has heard every notification committed before the call: a query on
   * the LISTEN connection, whose backend sends what is queued for it before the answer. The app
   * runs it before answering a state-changing request, so a request that ended a session is not
   * answered before this process's own entries are gone.
   */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export function createSessionCache(options: {
  connectionString: string;
  logger: { warn(obj: object, msg: string): void };
  now?: () => number;
}): SessionCache {
  const now = options.now ?? Date.now;
  /** user id -> session id -> entry. */
  const byUser = new Map<string, Map<string, Entry>>();
  let size = 0;
  /** Bumped by every notification and by every change of the listening state. */
  let generation = 0;
  let listening = false;
  let closed = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let readyWaiters: (() => void)[] = [];

  const clear = () => {
    byUser.clear();
    size = 0;
    generation++;
  };
  const forget = (userId: string) => {
    generation++;
    const sessions = byUser.get(userId);
    if (sessions === undefined) return;
    size -= sessions.size;
    byUser.delete(userId);
  };

  const lost = (error: Error | null) => {
    if (client === null) return;
    const was = client;
    client = null;
    listening = false;
    clear();
    was.removeAllListeners();
    was.on('error', () => {});
    void was.end().catch(() => {});
    if (closed) return;
    options.logger.warn({ err: error?.message }, 'session cache: LISTEN connection lost; sessions are checked in the database until it is back');
    timer = setTimeout(() => void connect(), RECONNECT_MS);
  };

  async function connect(): Promise<void> {
    timer = null;
    if (closed) return;
    const c = new pg.Client({ connectionString: options.connectionString });
    client = c;
    c.on('error', (e) => lost(e));
    c.on('end', () => lost(null));
    c.on('notification', (n) => {
      if (n.channel !== AUTH_CHANNEL) return;
      if (n.payload === undefined || n.payload === '*') clear();
      else forget(n.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${AUTH_CHANNEL}`);
      if (client !== c || closed) return;
      // Anything cached before (nothing, or from before a lost connection) is dropped.
      clear();
      listening = true;
      const waiters = readyWaiters;
      readyWaiters = [];
      for (const w of waiters) w();
    } catch (e) {
      if (client === c) lost(e as Error);
    }
  }
  void connect();

  return {
    get listening() {
      return listening;
    },
    ready: () => (listening ? Promise.resolve() : new Promise((r) => readyWaiters.push(r))),
    async sync() {
      const c = client;
      if (c === null || !listening) return;
      // A lost connection empties the cache (lost()), which is all that sync has to ensure.
      await c.query('select 1').catch(() => {});
    },
    async lookup(userId, sessionId, load) {
      if (listening) {
        const hit = byUser.get(userId)?.get(sessionId);
        if (hit !== undefined && hit.until > now()) return hit.user;
      }
      const startedAt = generation;
      const wasListening = listening;
      const found = await load();
      if (found === undefined || !wasListening || !listening || generation !== startedAt) return found?.user;
      const until = Math.min(found.liveUntil.getTime(), now() + ENTRY_TTL_MS);
      if (size >= MAX_ENTRIES) clear();
      let sessions = byUser.get(userId);
      if (sessions === undefined) byUser.set(userId, (sessions = new Map<string, Entry>()));
      if (!sessions.has(sessionId)) size++;
      sessions.set(sessionId, { user: found.user, until });
      return found.user;
    },
    async close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      const c = client;
      client = null;
      listening = false;
      clear();
      if (c !== null) {
        c.removeAllListeners();
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
    },
  };
}
