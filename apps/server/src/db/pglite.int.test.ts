/** The same app on the embedded database: migrations apply, health says pglite, accounts work. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSession, refreshWith, signUpAndLogIn } from '../testing/helpers.ts';
import type { SmtpInbox } from '../testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';

let inbox: SmtpInbox;
let testApp: TestApp;

beforeAll(async () => {
  testApp = await createTestApp({ pglite: true });
  inbox = testApp.inbox;
});

afterAll(async () => {
  await testApp.close();
});

describe('embedded PGlite', () => {
  it('boots with migrations applied and reports pglite', async () => {
    const res = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: 'pglite' });
    expect(testApp.app.database.kind).toBe('pglite');
  });

  it('signs up, verifies, logs in and refreshes on the embedded database', async () => {
    const { token, refreshToken } = await signUpAndLogIn(testApp.app, inbox);
    const session = await getSession(testApp.app, token);
    expect(session.statusCode).toBe(200);
    const refresh = await refreshWith(testApp.app, refreshToken);
    expect(refresh.statusCode).toBe(200);
    const reuse = await refreshWith(testApp.app, refreshToken);
    expect(reuse.statusCode).toBe(401);
  });

  it('runs raw SQL for pg-boss: multi-statement scripts and parameterised queries', async () => {
    const { executeSql } = testApp.app.database;
    const script = await executeSql(
      'create temporary table boss_probe (a int); insert into boss_probe values (7); select a from boss_probe',
    );
    expect(script.rows).toEqual([{ a: 7 }]);
    const param = await executeSql('select $1::int + 1 as n', [41]);
    expect(param.rows).toEqual([{ n: 42 }]);
  });
});
