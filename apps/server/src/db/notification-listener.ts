/**
 * One LISTEN connection per process (PostgreSQL): every part of the process that waits for
 * notifications (the job queue's wake-up, the session and case access caches) subscribes to its
 * channels here, and the process holds one pg.Client LISTENing on all of them, outside the pool.
 *
 * The connection is opened with the first subscription and ended with the last one. When it is
 * lost (server restart, pg_terminate_backend, network), every subscriber is told (`lost`),
 * and it is opened again after a backoff (RETRY_FIRST_MS, doubling up to RETRY_MAX_MS, halved
 * at random so that many processes do not reconnect in step). Once every channel is LISTENed
 * again each subscriber is told (`listening`): notifications sent meanwhile were missed, so a
 * subscriber re-reads or polls once then. A subscription added while connected gets its own
 * `listening` once its channels are LISTENed.
 *
 * Opening the connection (connect and its first query) has a time limit of its own
 * (CONNECT_TIMEOUT_MS): a server or network that accepts the TCP connection and never answers
 * (a half-open peer, a stopped server behind a proxy) counts as a failed attempt and is retried
 * with the backoff, instead of holding the listener, and every wait for it, for good.
 *
 * The connection's application_name ends in ` rarelens-listen` (pg_stat_activity shows which
 * connection of a process is its listener).
 */
import pg from 'pg';

export interface NotificationSubscriber {
  /** A notification on one of the subscription's channels. */
  notify(channel: string, payload: string): void;
  /**
   * LISTEN is in place on every channel of the subscription, for the first time or again after
   * a lost connection: anything sent while it was not was missed.
   */
  listening?(): void;
  /** The connection was lost: nothing is heard until `listening` comes again. */
  lost?(): void;
}

export interface NotificationSubscription {
  /** True while LISTEN is in place on every channel of this subscription. */
  readonly listening: boolean;
  /** Resolves once LISTEN is in place on every channel of this subscription. */
  ready(): Promise<void>;
  /** Stops the notifications; the last subscription ends the connection. */
  unsubscribe(): Promise<void>;
}

export interface NotificationListener {
  subscribe(channels: readonly string[], subscriber: NotificationSubscriber): NotificationSubscription;
  /** True while connected with every subscribed channel LISTENed. */
  readonly listening: boolean;
  /** The listening backend's process id (pg_stat_activity.pid) while connected. */
  readonly backendPid: number | undefined;
  /**
   * Resolves once every notification committed before the call has been handed to the
   * subscribers: a query on the LISTEN connection, whose backend sends what is queued for it
   * before the answer. Resolves at once when not listening.
   */
  sync(): Promise<void>;
  /** Ends the connection and every subscription. */
  close(): Promise<void>;
}

export interface NotificationListenerOptions {
  /** A new (not yet connected) client for the database. */
  newClient: () => pg.Client;
  logger: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
  /** Backoff after a lost connection or a failed attempt (ms): first delay and cap. */
  retryFirstMs?: number;
  retryMaxMs?: number;
  /** Time limit for opening the connection (connect and its first query), ms. */
  connectTimeoutMs?: number;
}

export const RETRY_FIRST_MS = 250;
export const RETRY_MAX_MS = 10_000;
export const CONNECT_TIMEOUT_MS = 10_000;
export const LISTENER_APPLICATION_NAME = 'rarelens-listen';

interface Subscription {
  channels: ReadonlySet<string>;
  subscriber: NotificationSubscriber;
  up: boolean;
  waiters: (() => void)[];
}

function messageOf(e: unknown): string | undefined {
  return e instanceof Error ? e.message : typeof e === 'string' ? e : undefined;
}

export function createNotificationListener(options: NotificationListenerOptions): NotificationListener {
  const firstMs = options.retryFirstMs ?? RETRY_FIRST_MS;
  const maxMs = options.retryMaxMs ?? RETRY_MAX_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const subs = new Set<Subscription>();
  /** The current connection (connecting or connected); null while waiting to retry or idle. */
  let client: pg.Client | null = null;
  let connected = false;
  /** Channels LISTENed on `client`. */
  const listened = new Set<string>();
  let retryMs = firstMs;
  let retryTimer: NodeJS.Timeout | null = null;
  /** Failures since the connection was last up (logged as one outage). */
  let failures = 0;
  let closed = false;
  /** LISTEN/UNLISTEN passes run one at a time. */
  let queue: Promise<void> = Promise.resolve();

  const upAll = () => subs.size > 0 && [...subs].every((s) => s.up);

  const markUp = (s: Subscription) => {
    s.up = true;
    const waiters = s.waiters;
    s.waiters = [];
    for (const w of waiters) w();
    s.subscriber.listening?.();
  };

  const drop = (c: pg.Client) => {
    c.removeAllListeners();
    c.on('error', () => {});
    return c.end().catch(() => {});
  };

  const lost = (c: pg.Client, error: unknown) => {
    if (client !== c) return;
    client = null;
    connected = false;
    listened.clear();
    void drop(c);
    for (const s of subs) {
      const was = s.up;
      s.up = false;
      if (was) s.subscriber.lost?.();
    }
    if (closed || subs.size === 0) return;
    const delay = Math.round(retryMs / 2 + (Math.random() * retryMs) / 2);
    retryMs = Math.min(retryMs * 2, maxMs);
    failures++;
    options.logger.warn(
      { err: messageOf(error), retryInMs: delay, attempt: failures },
      'LISTEN connection lost: notifications are missed until it is back; reconnecting',
    );
    retryTimer = setTimeout(open, delay);
  };

  /** Brings LISTEN on `c` in line with the subscriptions, then tells the subscriptions now covered. */
  const reconcile = (c: pg.Client): Promise<void> => {
    queue = queue.then(async () => {
      if (client !== c) return;
      try {
        if (!connected) {
          // Past the limit the socket is destroyed (as pg's own connectionTimeoutMillis does), which
          // fails the pending connect or query: a lost attempt like any other.
          const timer = setTimeout(() => c.connection.stream.destroy(new Error(`connecting timed out after ${connectTimeoutMs} ms`)), connectTimeoutMs);
          try {
            await c.connect();
            await c.query(
              `select set_config('application_name', concat_ws(' ', nullif(current_setting('application_name'), ''), '${LISTENER_APPLICATION_NAME}'), false)`,
            );
          } finally {
            clearTimeout(timer);
          }
          if (client !== c) return;
          connected = true;
        }
        for (;;) {
          const wanted = new Set([...subs].flatMap((s) => [...s.channels]));
          const add = [...wanted].filter((ch) => !listened.has(ch));
          const remove = [...listened].filter((ch) => !wanted.has(ch));
          if (add.length === 0 && remove.length === 0) break;
          for (const ch of add) {
            await c.query(`LISTEN ${c.escapeIdentifier(ch)}`);
            listened.add(ch);
          }
          for (const ch of remove) {
            await c.query(`UNLISTEN ${c.escapeIdentifier(ch)}`);
            listened.delete(ch);
          }
        }
      } catch (e) {
        lost(c, e);
        return;
      }
      if (client !== c) return;
      if (failures > 0) options.logger.info?.({ after: failures }, 'LISTEN connection back');
      failures = 0;
      retryMs = firstMs;
      for (const s of subs) if (!s.up && [...s.channels].every((ch) => listened.has(ch))) markUp(s);
    });
    return queue;
  };

  function open(): void {
    retryTimer = null;
    if (closed || client !== null || subs.size === 0) return;
    const c = options.newClient();
    client = c;
    connected = false;
    listened.clear();
    c.on('error', (e) => lost(c, e));
    c.on('end', () => lost(c, new Error('connection ended')));
    c.on('notification', (n) => {
      if (client !== c) return;
      const payload = n.payload ?? '';
      for (const s of subs) if (s.channels.has(n.channel)) s.subscriber.notify(n.channel, payload);
    });
    void reconcile(c);
  }

  /** No subscription left: the connection ends (and no retry is pending). */
  const idle = async () => {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
    retryMs = firstMs;
    failures = 0;
    const c = client;
    client = null;
    connected = false;
    listened.clear();
    if (c !== null) await drop(c);
  };

  return {
    subscribe(channels, subscriber) {
      if (closed) throw new Error('the notification listener is closed');
      const s: Subscription = { channels: new Set(channels), subscriber, up: false, waiters: [] };
      subs.add(s);
      if (client !== null) void reconcile(client);
      else if (retryTimer === null) open();
      return {
        get listening() {
          return s.up;
        },
        ready: () => (s.up ? Promise.resolve() : new Promise<void>((r) => s.waiters.push(r))),
        async unsubscribe() {
          if (!subs.delete(s)) return;
          s.up = false;
          if (subs.size === 0) await idle();
          else if (client !== null) await reconcile(client);
        },
      };
    },
    get listening() {
      return connected && upAll();
    },
    get backendPid() {
      return connected ? (client as unknown as { processID?: number } | null)?.processID : undefined;
    },
    async sync() {
      const c = client;
      if (c === null || !connected) return;
      // A lost connection tells the subscribers (lost), which is all that sync has to ensure.
      await c.query('select 1').catch(() => {});
    },
    async close() {
      closed = true;
      for (const s of subs) s.up = false;
      subs.clear();
      await idle();
    },
  };
}
