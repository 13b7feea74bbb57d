/**
 * A per-process cache of database answers kept exact by LISTEN/NOTIFY (PostgreSQL only), shared by
 * the session cache (modules/auth/session-cache.ts) and the case access cache
 * (modules/cases/case-access-cache.ts).
 *
 * Entries are grouped (a user's sessions, a case's access answers). Triggers send a notification
 * in the transaction that changes what an entry was read from, naming its group (or '*' for all),
 * and every process LISTENs on its one listener connection (db/notification-listener.ts, shared
 * with the job wake-up): PostgreSQL sends the notification to every listener at the commit, and
 * the process drops the group when it arrives. A channel may also be one whose every notification
 * empties the whole cache. Entries are used only while the cache's channels are LISTENed: when
 * the connection is lost the cache is emptied and bypassed until LISTEN is back (the listener
 * reconnects). A lookup that raced with a notification or a lost connection, or that began while
 * not listening, is not stored (generation check). Each entry ends at the time its loader
 * gives, and after `ttlMs` at most. Only found answers are cached: a miss is asked again every
 * time.
 */
import type { NotificationListener } from './notification-listener.ts';

export interface NotifiedCache<V> {
  /** The value of `key` in `group`, from memory when the cache may answer, else from `load`. */
  lookup(group: string, key: string, load: () => Promise<{ value: V; until: number } | undefined>): Promise<V | undefined>;
  /** True while the cache's channels are LISTENed (entries are used only then). */
  readonly listening: boolean;
  /** Resolves once LISTEN is in place (tests; the cache works without waiting). */
  ready(): Promise<void>;
  /**
   * Resolves once this process has heard every notification committed before the call: a query on
   * the LISTEN connection, whose backend sends what is queued for it before the answer. The app
   * runs it before answering a state-changing request, so a request that changed what an entry
   * holds is not answered before this process's own entries of it are gone.
   */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface NotifiedCacheOptions {
  /** The process's LISTEN connection (Database.listener). */
  listener: NotificationListener;
  /** Channels: 'group' = the payload names the group to drop ('*' = all); 'all' = every notification drops all. */
  channels: Record<string, 'group' | 'all'>;
  /** Upper bound on how long an entry is trusted without asking the database again. */
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

export function createNotifiedCache<V>(options: NotifiedCacheOptions): NotifiedCache<V> {
  const now = options.now ?? Date.now;
  /** group -> key -> entry. */
  const byGroup = new Map<string, Map<string, { value: V; until: number }>>();
  let size = 0;
  /** Bumped by every notification and every lost connection. */
  let generation = 0;

  const clear = () => {
    byGroup.clear();
    size = 0;
    generation++;
  };
  const forget = (group: string) => {
    generation++;
    const entries = byGroup.get(group);
    if (entries === undefined) return;
    size -= entries.size;
    byGroup.delete(group);
  };

  const subscription = options.listener.subscribe(Object.keys(options.channels), {
    notify(channel, payload) {
      const kind = options.channels[channel];
      if (kind === 'all' || payload === '' || payload === '*') clear();
      else forget(payload);
    },
    // Notifications may be missed until LISTEN is back (the listener reconnects and logs the
    // loss): the cache is emptied, and nothing is stored or answered from memory until then.
    lost: clear,
  });

  return {
    get listening() {
      return subscription.listening;
    },
    ready: () => subscription.ready(),
    sync: () => options.listener.sync(),
    async lookup(group, key, load) {
      if (subscription.listening) {
        const hit = byGroup.get(group)?.get(key);
        if (hit !== undefined && hit.until > now()) return hit.value;
      }
      const startedAt = generation;
      const wasListening = subscription.listening;
      const found = await load();
      if (found === undefined || !wasListening || !subscription.listening || generation !== startedAt) return found?.value;
      const until = Math.min(found.until, now() + options.ttlMs);
      if (size >= options.maxEntries) clear();
      let entries = byGroup.get(group);
      if (entries === undefined) byGroup.set(group, (entries = new Map<string, { value: V; until: number }>()));
      if (!entries.has(key)) size++;
      entries.set(key, { value: found.value, until });
      return found.value;
    },
    async close() {
      await subscription.unsubscribe();
      clear();
    },
  };
}
