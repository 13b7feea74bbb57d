/**
 * The notified cache's use of its LISTEN subscription (notified-cache.ts), on a listener driven by
 * hand: entries are used only while the channels are LISTENed, and a lost connection (after
 * which notifications may have been missed) empties the cache: every lookup asks the database
 * until LISTEN is back, and what was stored before is never answered again.
 */
import { describe, expect, it } from 'vitest';
import type { NotificationListener, NotificationSubscriber } from './notification-listener.ts';
import { createNotifiedCache } from './notified-cache.ts';

function handListener() {
  let subscriber: NotificationSubscriber | undefined;
  let up = false;
  let channels: readonly string[] = [];
  const listener: NotificationListener = {
    subscribe(chs, s) {
      channels = chs;
      subscriber = s;
      return {
        get listening() {
          return up;
        },
        ready: () => Promise.resolve(),
        unsubscribe: () => ((subscriber = undefined), (up = false), Promise.resolve()),
      };
    },
    get listening() {
      return up;
    },
    backendPid: undefined,
    sync: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  return {
    listener,
    channels: () => channels,
    up: () => ((up = true), subscriber?.listening?.()),
    lost: () => ((up = false), subscriber?.lost?.()),
    notify: (channel: string, payload: string) => subscriber?.notify(channel, payload),
  };
}

describe('notified cache on its LISTEN subscription', () => {
  it('answers from memory only while listening, and forgets everything when the connection is lost', async () => {
    const hand = handListener();
    const cache = createNotifiedCache<string>({ listener: hand.listener, channels: { ch_group: 'group', ch_all: 'all' }, ttlMs: 60_000, maxEntries: 100 });
    expect(hand.channels()).toEqual(['ch_group', 'ch_all']);
    let loads = 0;
    const load = (value: string) => () => (loads++, Promise.resolve({ value, until: Number.POSITIVE_INFINITY }));

    // Not yet listening: every lookup asks.
    await cache.lookup('g', 'k', load('v0'));
    await cache.lookup('g', 'k', load('v0'));
    expect(loads).toBe(2);

    hand.up();
    expect(cache.listening).toBe(true);
    expect(await cache.lookup('g', 'k', load('v1'))).toBe('v1');
    expect(await cache.lookup('g', 'k', load('v2'))).toBe('v1');
    expect(loads).toBe(3);

    // Lost: asked every time, nothing stored.
    hand.lost();
    expect(cache.listening).toBe(false);
    expect(await cache.lookup('g', 'k', load('v3'))).toBe('v3');
    expect(await cache.lookup('g', 'k', load('v4'))).toBe('v4');
    expect(loads).toBe(5);

    // A lookup that began while not listening (its answer may predate a missed notification) is
    // not stored, even if LISTEN is back when it ends; the next one is.
    let finish!: () => void;
    const pending = cache.lookup('g', 'k', () => new Promise((r) => (finish = () => r({ value: 'v5', until: Number.POSITIVE_INFINITY }))));
    hand.up();
    finish();
    expect(await pending).toBe('v5');
    expect(await cache.lookup('g', 'k', load('v6'))).toBe('v6');
    expect(await cache.lookup('g', 'k', load('v7'))).toBe('v6');
    expect(loads).toBe(6);

    // Back again after a second loss: what was stored before is not answered.
    hand.lost();
    hand.up();
    expect(await cache.lookup('g', 'k', load('v8'))).toBe('v8');
    expect(loads).toBe(7);

    // Notifications: its group or '*' on a group channel, anything on an 'all' channel.
    hand.notify('ch_group', 'other');
    expect(await cache.lookup('g', 'k', load('v9'))).toBe('v8');
    hand.notify('ch_group', 'g');
    expect(await cache.lookup('g', 'k', load('v10'))).toBe('v10');
    hand.notify('ch_group', '*');
    expect(await cache.lookup('g', 'k', load('v11'))).toBe('v11');
    hand.notify('ch_all', 'other');
    expect(await cache.lookup('g', 'k', load('v12'))).toBe('v12');

    await cache.close();
    expect(cache.listening).toBe(false);
  });
});
