/**
 * The process's one LISTEN connection (notification-listener.ts) on PostgreSQL: subscriptions
 * share one backend, a killed connection (pg_terminate_backend) is reopened with every channel
 * LISTENed again and the subscribers told, failed attempts are retried with backoff, and nothing
 * is left connected once the last subscription or the listener ends. The app-level test: the API
 * with its in-process worker holds one listener for the job wake-up and both caches, and after
 * its connection is killed a job enqueued elsewhere starts without waiting for the poll and the
 * caches are invalidated again; no connection is left after the app closes.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureEngine } from '../jobs/testing/fixture-engine.ts';
import { buildFixtureVcf } from '../jobs/testing/fixture-vcf.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { multipartBody, waitForStatus } from '../testing/multipart.ts';
import { createNotificationListener, LISTENER_APPLICATION_NAME, type NotificationListener } from './notification-listener.ts';

const silent = { warn: () => {}, info: () => {} };

async function waitFor(check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The database URL with its own application_name, so the test counts only its own connections. */
function urlNamed(name: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.searchParams.set('application_name', name);
  return url.toString();
}

describe('notification listener', () => {
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
  });

  const connections = async (name: string) =>
    (await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1 order by pid', [name])).rows.map((r) => r.pid);
  const notify = (channel: string, payload: string) => admin.query('select pg_notify($1, $2)', [channel, payload]);

  it('serves every subscription on one connection, reconnects after it is killed, and ends it with the last subscription', async () => {
    const name = `rl-listen-${randomBytes(4).toString('hex')}`;
    const listenerName = `${name} ${LISTENER_APPLICATION_NAME}`;
    const listener = createNotificationListener({ newClient: () => new pg.Client({ connectionString: urlNamed(name) }), logger: silent, retryFirstMs: 50 });
    const heard: string[] = [];
    const events: string[] = [];
    const a = listener.subscribe(['rl_test_a'], {
      notify: (ch, p) => heard.push(`a:${ch}:${p}`),
      listening: () => events.push('a:listening'),
      lost: () => events.push('a:lost'),
    });
    const b = listener.subscribe(['rl_test_a', 'rl_test_b'], {
      notify: (ch, p) => heard.push(`b:${ch}:${p}`),
      listening: () => events.push('b:listening'),
      lost: () => events.push('b:lost'),
    });
    try {
      await Promise.all([a.ready(), b.ready()]);
      expect(listener.listening).toBe(true);
      const pid = listener.backendPid;
      expect(await connections(listenerName)).toEqual([pid]);
      await notify('rl_test_a', '1');
      await notify('rl_test_b', '2');
      await listener.sync();
      expect(heard).toEqual(['a:rl_test_a:1', 'b:rl_test_a:1', 'b:rl_test_b:2']);

      // The connection killed: both are told, and told again once LISTEN is back on every channel.
      events.length = 0;
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await waitFor(() => events.includes('a:lost') && events.includes('b:lost'));
      await waitFor(() => listener.listening);
      expect(events.sort()).toEqual(['a:listening', 'a:lost', 'b:listening', 'b:lost']);
      expect(listener.backendPid).not.toBe(pid);
      expect(await connections(listenerName)).toEqual([listener.backendPid]);
      heard.length = 0;
      await notify('rl_test_b', '3');
      await notify('rl_test_a', '4');
      await listener.sync();
      expect(heard).toEqual(['b:rl_test_b:3', 'a:rl_test_a:4', 'b:rl_test_a:4']);

      // A channel no one needs any more is UNLISTENed; the last subscription ends the connection.
      await b.unsubscribe();
      heard.length = 0;
      await notify('rl_test_b', '5');
      await notify('rl_test_a', '6');
      await listener.sync();
      expect(heard).toEqual(['a:rl_test_a:6']);
      await a.unsubscribe();
      expect(listener.listening).toBe(false);
      await waitFor(async () => (await connections(listenerName)).length === 0, 5_000);
    } finally {
      await listener.close();
    }
    expect(await connections(listenerName)).toEqual([]);
    expect(await connections(name)).toEqual([]);
  });

  it('retries a connection that cannot be opened, with growing delays, until it can', async () => {
    const attempts: number[] = [];
    const dead = new URL(process.env.DATABASE_URL!);
    dead.port = '1'; // nothing listens there: connection refused
    const listener: NotificationListener = createNotificationListener({
      newClient: () => {
        attempts.push(Date.now());
        return new pg.Client({ connectionString: attempts.length <= 4 ? dead.toString() : process.env.DATABASE_URL });
      },
      logger: silent,
      retryFirstMs: 40,
      retryMaxMs: 400,
    });
    try {
      const heard: string[] = [];
      let listening = 0;
      const s = listener.subscribe(['rl_test_retry'], { notify: (_ch, p) => heard.push(p), listening: () => listening++ });
      await s.ready();
      expect(attempts).toHaveLength(5);
      expect(listening).toBe(1);
      // Each wait is at least half the current delay (40, 80, 160, 320 ms): over 300 ms in all.
      expect(attempts.at(-1)! - attempts[0]!).toBeGreaterThanOrEqual((40 + 80 + 160 + 320) / 2);
      await notify('rl_test_retry', 'up');
      await listener.sync();
      expect(heard).toEqual(['up']);
    } finally {
      await listener.close();
    }
  });

  it('gives up a connection attempt that is never answered after its time limit, and retries', async () => {
    // A peer that accepts the TCP connection and never answers (no startup reply ever comes).
    const sockets: Socket[] = [];
    const silentPeer = createServer((socket) => sockets.push(socket));
    await new Promise<void>((r) => silentPeer.listen(0, '127.0.0.1', r));
    const hung = new URL(process.env.DATABASE_URL!);
    hung.hostname = '127.0.0.1';
    hung.port = String((silentPeer.address() as { port: number }).port);
    let attempts = 0;
    const warnings: string[] = [];
    const listener = createNotificationListener({
      newClient: () => (attempts++, new pg.Client({ connectionString: attempts === 1 ? hung.toString() : process.env.DATABASE_URL })),
      logger: { warn: (obj) => warnings.push(String((obj as { err?: string }).err)), info: () => {} },
      retryFirstMs: 20,
      connectTimeoutMs: 300,
    });
    try {
      const started = Date.now();
      const s = listener.subscribe(['rl_test_hung'], { notify: () => {} });
      await Promise.race([s.ready(), new Promise((_, reject) => setTimeout(() => reject(new Error('still waiting on the silent peer')), 5_000))]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(attempts).toBe(2);
      expect(sockets).toHaveLength(1);
      expect(warnings).toEqual(['connecting timed out after 300 ms']);
      expect(listener.listening).toBe(true);
    } finally {
      await listener.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => silentPeer.close(r));
    }
  });

  it('stops retrying once closed', async () => {
    let attempts = 0;
    const dead = new URL(process.env.DATABASE_URL!);
    dead.port = '1';
    const listener = createNotificationListener({
      newClient: () => (attempts++, new pg.Client({ connectionString: dead.toString() })),
      logger: silent,
      retryFirstMs: 20,
      retryMaxMs: 20,
    });
    listener.subscribe(['rl_test_closed'], { notify: () => {} });
    await waitFor(() => attempts >= 2);
    await listener.close();
    const after = attempts;
    await new Promise((r) => setTimeout(r, 200));
    expect(attempts).toBe(after);
  });
});

describe('one LISTEN connection per API process with its in-process worker', () => {
  const name = `rl-app-${randomBytes(4).toString('hex')}`;
  const listenerName = `${name} ${LISTENER_APPLICATION_NAME}`;
  let test: TestApp | undefined;
  let sender: TestApp | undefined;
  let admin: pg.Client;
  const connections = async (appName: string) =>
    (await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1 order by pid', [appName])).rows.map((r) => r.pid);

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const engine = createFixtureEngine({ genePhenotypes: { FGFR2: ['HP:0000244'] } });
    // The worker polls once a minute: a job that starts sooner was woken by its notification.
    test = await createTestApp({
      name: 'listen-app',
      kb: 'none',
      env: { DATABASE_URL: urlNamed(name) },
      cases: { engine: () => Promise.resolve(engine), jobs: { inProcessWorker: true, pollMs: 60_000 } },
    });
    // Another API process (no worker) that takes the uploads.
    sender = await createTestApp({ inbox: test.inbox, dataDir: test.dataDir, kb: 'none', cases: { engine: () => Promise.resolve(engine), jobs: { inProcessWorker: false } } });
    await test.app.sessionCache!.ready();
    await test.app.caseAccessCache!.ready();
  }, 120_000);
  afterAll(async () => {
    await sender?.close();
    await test?.close();
    await admin?.end();
  });

  it('wakes the worker and invalidates the caches after its connection was killed, and leaves no connection at close', async () => {
    const app = test!.app;
    const database = app.database;
    if (database.kind !== 'postgres') throw new Error('PostgreSQL expected');
    // One listener for the job wake-up and both caches.
    expect(await connections(listenerName)).toEqual([database.listener.backendPid]);

    const user = await sender!.signUp();
    const upload = async (caseId: string) => {
      const { body, contentType } = multipartBody(
        { caseId, gender: 'female', symptoms: 'Craniosynostosis', hpoTerms: JSON.stringify(['HP:0000244']), assembly: 'GRCh38' },
        [{ field: 'genomeFile', name: `${caseId}.vcf`, content: buildFixtureVcf(20, ['FGFR2']) }],
      );
      const created = await sender!.app.inject({ method: 'POST', url: '/api/products', headers: { ...user.auth, 'content-type': contentType }, payload: body });
      expect(created.statusCode, created.body).toBe(202);
      return created.json<{ id: string }>().id;
    };
    // Warm: the worker's loop has made its first fetch and sleeps for its minute.
    const first = await upload('LISTEN-1');
    await waitForStatus(app, user.auth, first, ['Completed'], 30_000);

    const pid = database.listener.backendPid;
    await admin.query('select pg_terminate_backend($1)', [pid]);
    await waitFor(() => !database.listener.listening);
    await waitFor(() => database.listener.listening && app.sessionCache!.listening && app.caseAccessCache!.listening);
    expect(database.listener.backendPid).not.toBe(pid);
    expect(await connections(listenerName)).toEqual([database.listener.backendPid]);

    // The job wake-up: enqueued by the other process, started long before the minute's poll.
    const t0 = Date.now();
    const second = await upload('LISTEN-2');
    await waitForStatus(app, user.auth, second, ['Completed'], 30_000);
    expect(Date.now() - t0).toBeLessThan(30_000);

    // The session cache: a session answered from memory ends when the user's row changes elsewhere.
    const session = () => app.inject({ method: 'GET', url: '/api/auth/session', headers: user.auth });
    expect((await session()).json<{ user: { name: string } }>().user.name).toBe('Ada');
    await admin.query('update users set name = $1 where id = $2', ['Grace', user.userId]);
    await database.listener.sync();
    expect((await session()).json<{ user: { name: string } }>().user.name).toBe('Grace');

    // The case access cache: a case read from memory is gone once deleted elsewhere.
    const read = () => app.inject({ method: 'GET', url: `/api/products/${second}/variants`, headers: user.auth });
    expect((await read()).statusCode).toBe(200);
    expect((await read()).statusCode).toBe(200);
    await admin.query('delete from products where id = $1', [second]);
    await database.listener.sync();
    expect((await read()).statusCode).toBe(404);

    await test!.close();
    test = undefined;
    expect(await connections(listenerName)).toEqual([]);
    expect(await connections(name)).toEqual([]);
  });
});
