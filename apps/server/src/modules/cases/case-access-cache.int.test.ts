/**
 * The case access cache (case-access-cache.ts) on PostgreSQL: a read's access answer is kept in
 * memory, and a revoked share, a changed case or a deleted case on one API process ends it on the
 * others at once (two apps on one database stand for two processes).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureVcf } from '../../jobs/testing/fixture-vcf.ts';
import { createNotificationListener } from '../../db/notification-listener.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { multipartBody } from '../../testing/multipart.ts';
import { AUTH_CHANNEL } from '../auth/index.ts';
import { CASE_CHANNEL, createCaseAccessCache } from './case-access-cache.ts';
import type { AccessibleCase } from './cases.service.ts';

const silent = { warn: () => {} };

describe('case access cache', () => {
  it('answers from memory until a notification for its case (or any user change) arrives', async () => {
    const listener = createNotificationListener({ newClient: () => new pg.Client({ connectionString: process.env.DATABASE_URL }), logger: silent });
    const cache = createCaseAccessCache({ listener });
    const notifier = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await notifier.connect();
    try {
      await cache.ready();
      let loads = 0;
      const answer = { isOwner: true } as AccessibleCase;
      const load = () => (loads++, Promise.resolve({ value: answer, until: Number.POSITIVE_INFINITY }));
      const heard = async (expected: number) => {
        for (let t = Date.now(); loads < expected && Date.now() - t < 5_000; await new Promise((r) => setTimeout(r, 5))) await cache.lookup('c1', 'u1', load);
        expect(loads).toBe(expected);
      };
      expect(await cache.lookup('c1', 'u1', load)).toBe(answer);
      expect(await cache.lookup('c1', 'u1', load)).toBe(answer);
      expect(loads).toBe(1);
      // Another case's notification leaves it; its own ends it.
      await notifier.query('select pg_notify($1, $2)', [CASE_CHANNEL, 'c2']);
      await notifier.query('select pg_notify($1, $2)', [CASE_CHANNEL, 'c1']);
      await heard(2);
      // Any user's change ends every entry (an owner's e-mail, a caller's account).
      await notifier.query('select pg_notify($1, $2)', [AUTH_CHANNEL, 'someone']);
      await heard(3);
      // No access (load answers nothing) is not cached.
      expect(await cache.lookup('c1', 'u2', () => (loads++, Promise.resolve(undefined)))).toBeUndefined();
      expect(await cache.lookup('c1', 'u2', () => (loads++, Promise.resolve(undefined)))).toBeUndefined();
      expect(loads).toBe(5);
    } finally {
      await notifier.end();
      await cache.close();
      await listener.close();
    }
  });

  describe('across two API processes on one database', () => {
    let a: TestApp;
    let b: TestApp;
    let owner: Awaited<ReturnType<TestApp['signUp']>>;
    let colleague: Awaited<ReturnType<TestApp['signUp']>>;
    beforeAll(async () => {
      a = await createTestApp({ name: 'case-access-a', kb: 'none' });
      b = await createTestApp({ inbox: a.inbox, dataDir: a.dataDir, kb: 'none' });
      await a.app.caseAccessCache!.ready();
      await b.app.caseAccessCache!.ready();
      [owner, colleague] = await Promise.all([a.signUp(), a.signUp()]);
    }, 120_000);
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    const upload = async (): Promise<string> => {
      const { body, contentType } = multipartBody(
        { caseId: `ACC-${Date.now()}`, gender: 'female', symptoms: 'Craniosynostosis', hpoTerms: JSON.stringify(['HP:0000244']), assembly: 'GRCh38' },
        [{ field: 'genomeFile', name: 'acc.vcf', content: buildFixtureVcf(20, ['FGFR2']) }],
      );
      const created = await a.app.inject({ method: 'POST', url: '/api/products', headers: { ...owner.auth, 'content-type': contentType }, payload: body });
      expect(created.statusCode, created.body).toBe(202);
      return created.json<{ id: string }>().id;
    };
    const read = (app: TestApp, user: { auth: Record<string, string> }, id: string) => app.app.inject({ method: 'GET', url: `/api/products/${id}/variants`, headers: user.auth });

    it('ends a shared user\'s access on the other process when the owner unshares', async () => {
      const id = await upload();
      expect((await a.app.inject({ method: 'POST', url: `/api/products/${id}/shares`, headers: owner.auth, payload: { email: colleague.email } })).statusCode).toBe(200);
      await b.app.caseAccessCache!.sync();
      // Read twice on b: the second answer comes from b's cache.
      expect((await read(b, colleague, id)).statusCode).toBe(200);
      expect((await read(b, colleague, id)).statusCode).toBe(200);
      const unshare = await a.app.inject({ method: 'DELETE', url: `/api/products/${id}/shares/${encodeURIComponent(colleague.email)}`, headers: owner.auth });
      expect(unshare.statusCode).toBe(200);
      // The process that unshared answered after its own cache heard it.
      expect((await read(a, colleague, id)).statusCode).toBe(404);
      // The other one has been sent the notification at the commit (see session-cache.int.test.ts).
      await b.app.caseAccessCache!.sync();
      expect((await read(b, colleague, id)).statusCode).toBe(404);
      expect((await read(b, owner, id)).statusCode).toBe(200);
    });

    it('ends the owner\'s access on the other process when the case row changes or goes', async () => {
      const id = await upload();
      expect((await read(b, owner, id)).statusCode).toBe(200);
      expect((await read(b, owner, id)).statusCode).toBe(200);
      // Written by another database client (a worker, an operator): the trigger notifies all the same.
      await a.app.database.executeSql('update products set owner_id = $1 where id = $2', [colleague.userId, id]);
      await b.app.caseAccessCache!.sync();
      expect((await read(b, owner, id)).statusCode).toBe(404);
      expect((await read(b, colleague, id)).statusCode).toBe(200);
      expect((await read(b, colleague, id)).statusCode).toBe(200);
      await a.app.database.executeSql('delete from products where id = $1', [id]);
      await b.app.caseAccessCache!.sync();
      expect((await read(b, colleague, id)).statusCode).toBe(404);
    });
  });
});
