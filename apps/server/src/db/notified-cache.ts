/**
 * A per-process cache of database answers kept exact by LISTEN/NOTIFY (PostgreSQL only), shared by
 * the session cache (modules/auth/session-cache.ts) and the case access cache
 * (modules/cases/case-access-cache.ts).
 *
 * Entries are grouped (a user's sessions, a case's access answers). Triggers send a notification
 * in the transaction that changes what an entry was read from, naming its group (or '*' for all),
 * and every process LISTENs on a connection of its own: PostgreSQL sends the notification to every
 * listener at the commit, and the process drops the group when it arrives. A channel may also be
 * one whose every notification empties the whole cache. Entries are used only while that
 * connection listens: when it is lost the cache is emptied and bypassed until LISTEN is back. A
 * lookup that raced with a notification is not stored (generation check). Each entry ends at the
 * time its loader gives, and after `ttlMs` at most. Only found answers are cached: a miss is asked
 * again every time.
 */
import pg from 'pg';

export interface NotifiedCache<V> {
  /** The value of `key` in `group`, from memory when the cache may answer, else from `load`. */
  lookup(group: string, key: string, load: () => Promise<{ value: V; until: number } | undefined>): Promise<V | undefined>;
  /** True while the LISTEN connection is up (entries are used only then). */
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
  connectionString: string;
  /** What the cache is (log messages). */
  name: string;
  /** Channels: 'group' = the payload names the group to drop ('*' = all); 'all' = every notification drops all. */
  channels: Record<string, 'group' | 'all'>;
  logger: { warn(obj: object, msg: string): void };
  /** Upper bound on how long an entry is trusted without asking the database again. */
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

const RECONNECT_MS = 1_000;

export function createNotifiedCache<V>(options: NotifiedCacheOptions): NotifiedCache<V> {
  const now = options.now ?? Date.now;
  /** group -> key -> entry. */
  const byGroup = new Map<string, Map<string, { value: V; until: number }>>();
  let size = 0;
  /** Bumped by every notification and by every change of the listening state. */
  let generation = 0;
  let listening = false;
  let closed = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let readyWaiters: (() => void)[] = [];

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
    options.logger.warn({ err: error?.message }, `${options.name}: LISTEN connection lost; asking the database until it is back`);
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
      const kind = options.channels[n.channel];
      if (kind === undefined) return;
      if (kind === 'all' || n.payload === undefined || n.payload === '*') clear();
      else forget(n.payload);
    });
    try {
      await c.connect();
      for (const channel of Object.keys(options.channels)) await c.query(`LISTEN ${channel}`);
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
    async lookup(group, key, load) {
      if (listening) {
        const hit = byGroup.get(group)?.get(key);
        if (hit !== undefined && hit.until > now()) return hit.value;
      }
      const startedAt = generation;
      const wasListening = listening;
      const found = await load();
      if (found === undefined || !wasListening || !listening || generation !== startedAt) return found?.value;
      const until = Math.min(found.until, now() + options.ttlMs);
      if (size >= options.maxEntries) clear();
      let entries = byGroup.get(group);
      if (entries === undefined) byGroup.set(group, (entries = new Map<string, { value: V; until: number }>()));
      if (!entries.has(key)) size++;
      entries.set(key, { value: found.value, until });
      return found.value;
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
