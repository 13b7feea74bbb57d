/**
 * The session cache (session-cache.ts) on PostgreSQL: a live session is answered from memory,
 * and a logout, a password change or a change of the user on one API process ends it on the
 * others at once (two apps on one database stand for two processes).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotificationListener } from '../../db/notification-listener.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { bearer, getSession, PASSWORD, signUpAndLogIn } from '../../testing/helpers.ts';
import { AUTH_CHANNEL, createSessionCache, type LiveSession } from './session-cache.ts';

const silent = { warn: () => {} };

describe('session cache', () => {
  it('answers a live session from memory until a notification for its user arrives', async () => {
    const listener = createNotificationListener({ newClient: () => new pg.Client({ connectionString: process.env.DATABASE_URL }), logger: silent });
    const cache = createSessionCache({ listener });
    const notifier = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await notifier.connect();
    try {
      await cache.ready();
      expect(cache.listening).toBe(true);
      let loads = 0;
      const user = { id: 'u1', name: 'Ada' } as LiveSession['user'];
      const load = () => (loads++, Promise.resolve({ user, liveUntil: new Date(Date.now() + 3_600_000) }));
      expect(await cache.lookup('u1', 's1', load)).toBe(user);
      expect(await cache.lookup('u1', 's1', load)).toBe(user);
      expect(loads).toBe(1);
      // Another user's notification leaves it; its own ends it.
      await notifier.query('select pg_notify($1, $2)', [AUTH_CHANNEL, 'u2']);
      await notifier.query('select pg_notify($1, $2)', [AUTH_CHANNEL, 'u1']);
      for (let t = Date.now(); loads === 1 && Date.now() - t < 5_000; await new Promise((r) => setTimeout(r, 5))) await cache.lookup('u1', 's1', load);
      expect(loads).toBe(2);
      // An ended session (load answers nothing) is not cached.
      expect(await cache.lookup('u1', 's2', () => (loads++, Promise.resolve(undefined)))).toBeUndefined();
      expect(await cache.lookup('u1', 's2', () => (loads++, Promise.resolve(undefined)))).toBeUndefined();
      expect(loads).toBe(4);
      // A session whose refresh token expires is not answered from memory past that time.
      const soon = { user, liveUntil: new Date(Date.now() - 1) };
      await cache.lookup('u3', 's3', () => (loads++, Promise.resolve(soon)));
      await cache.lookup('u3', 's3', () => (loads++, Promise.resolve(soon)));
      expect(loads).toBe(6);
      // A lookup that raced with a notification for its user is not stored.
      await cache.lookup('u4', 's4', async () => {
        loads++;
        await notifier.query('select pg_notify($1, $2)', [AUTH_CHANNEL, 'u4']);
        await new Promise((r) => setTimeout(r, 200));
        return { user, liveUntil: new Date(Date.now() + 3_600_000) };
      });
      await cache.lookup('u4', 's4', load);
      expect(loads).toBe(8);
    } finally {
      await notifier.end();
      await cache.close();
      await listener.close();
    }
    expect(cache.listening).toBe(false);
  });

  describe('across two API processes on one database', () => {
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      a = await createTestApp({ name: 'sessions-a' });
      b = await createTestApp({ inbox: a.inbox, dataDir: a.dataDir });
      await a.app.sessionCache!.ready();
      await b.app.sessionCache!.ready();
    }, 120_000);
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it('ends a session on the other process at logout', async () => {
      const user = await signUpAndLogIn(a.app, a.inbox);
      for (const app of [a.app, b.app, a.app, b.app]) expect((await getSession(app, user.token)).statusCode).toBe(200);
      const out = await a.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(user), payload: { refreshToken: user.refreshToken } });
      expect(out.statusCode).toBe(200);
      // The process that logged out answered after its own cache heard it.
      expect((await getSession(a.app, user.token)).statusCode).toBe(401);
      // The other one has been sent the notification at the commit; here both run in one process,
      // so its listener's socket is read first (in separate processes it is read as it arrives).
      await b.app.sessionCache!.sync();
      expect((await getSession(b.app, user.token)).statusCode).toBe(401);
    });

    it('ends the other sessions on the other process at a password change, and shows a changed profile there', async () => {
      const user = await a.signUp();
      const second = await a.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: PASSWORD } });
      const other = second.json<{ token: string }>().token;
      expect((await getSession(b.app, other)).statusCode).toBe(200);
      expect((await getSession(b.app, user.token)).json<{ user: { name: string } }>().user.name).toBe('Ada');

      const profile = { name: 'Grace', surname: 'Hopper', birthDate: '1906-12-09' };
      expect((await a.app.inject({ method: 'PUT', url: '/api/account', headers: user.auth, payload: profile })).statusCode).toBe(200);
      await b.app.sessionCache!.sync();
      expect((await getSession(b.app, user.token)).json<{ user: { name: string } }>().user.name).toBe('Grace');

      const change = await a.app.inject({ method: 'PUT', url: '/api/account/password', headers: user.auth, payload: { currentPassword: PASSWORD, password: 'N3wHorseBattery' } });
      expect(change.statusCode).toBe(200);
      expect((await getSession(a.app, other)).statusCode).toBe(401);
      await b.app.sessionCache!.sync();
      expect((await getSession(b.app, other)).statusCode).toBe(401);
      // The session that changed the password stays.
      expect((await getSession(b.app, user.token)).statusCode).toBe(200);
    });
  });
});
