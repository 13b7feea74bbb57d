/**
 * Fault injection (issue 16, item 6): PostgreSQL restarted in the middle of an analysis. The test
 * runs its own throw-away cluster (initdb + pg_ctl, as the postgres user) so that restarting it
 * disturbs nothing else; the server and its in-process worker keep running, the job fails its
 * attempt on the lost connection, pg-boss retries it once the database is back, and the case
 * completes exactly once.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureEngine } from '../src/jobs/testing/fixture-engine.ts';
import { buildFixtureVcf } from '../src/jobs/testing/fixture-vcf.ts';
import { countOf, freePort, signUpAndLogIn } from '../src/testing/helpers.ts';
import { multipartBody, waitForStatus } from '../src/testing/multipart.ts';
import type { SmtpInbox } from '../src/testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../src/testing/test-app.ts';

const pgBin = path.join('/usr/lib/postgresql', readdirSync('/usr/lib/postgresql').sort().at(-1) ?? '15', 'bin');
const asPostgres = (cmd: string, args: string[]) => execFileSync('runuser', ['-u', 'postgres', '--', path.join(pgBin, cmd), ...args], { stdio: 'pipe' });

let dir: string;
let port: number;
let inbox: SmtpInbox;
let test: TestApp | undefined;
let started = false;

function pgCtl(action: 'start' | 'restart' | 'stop') {
  asPostgres('pg_ctl', ['-D', path.join(dir, 'data'), '-l', path.join(dir, 'log'), '-w', '-t', '60', '-m', 'fast', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, action]);
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'rl-pg-restart-'));
  execFileSync('chown', ['postgres:postgres', dir]);
  port = await freePort();
  asPostgres('initdb', ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
  pgCtl('start');
  started = true;
  // 20 ms per variant: a 600-variant case is analysed for about 12 s.
  const fixture = createFixtureEngine({ genePhenotypes: { TTN: ['HP:0001250'] }, delayMs: 20 });
  test = await createTestApp({
    env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`, JOB_HEARTBEAT_MS: '500', JOB_STALE_AFTER_MS: '4000' },
    cases: { engine: () => Promise.resolve(fixture), jobs: { inProcessWorker: true, pollMs: 200 } },
  });
  inbox = test.inbox;
}, 120_000);

afterAll(async () => {
  await test?.close().catch(() => undefined);
  if (started) pgCtl('stop');
  rmSync(dir, { recursive: true, force: true });
});

describe('PostgreSQL restarted during an analysis', () => {
  it('resumes the job when the database is back and completes the case exactly once', async () => {
    const app = test!.app;
    const user = await signUpAndLogIn(app, inbox);
    const auth = { authorization: `Bearer ${user.token}` };
    const { body, contentType } = multipartBody(
      { caseId: 'RESTART-1', gender: 'male', symptoms: 'Seizures', hpoTerms: JSON.stringify(['HP:0001250']), assembly: 'GRCh38' },
      [{ field: 'genomeFile', name: 'restart.vcf', content: buildFixtureVcf(600, ['TTN']) }],
    );
    const created = await app.inject({ method: 'POST', url: '/api/products', headers: { ...auth, 'content-type': contentType }, payload: body });
    expect(created.statusCode).toBe(202);
    const id = created.json<{ id: string }>().id;
    await waitForStatus(app, auth, id, ['Processing'], 30_000);
    await new Promise((r) => setTimeout(r, 2000));

    pgCtl('restart');

    // While the pool replaces its lost connections a read may be answered 503 (retry), never 500.
    const unavailable = { count: 0 };
    const done = await waitForStatus(app, auth, id, ['Completed', 'Error'], 180_000, { whileUnavailable: unavailable });
    expect(done.status, JSON.stringify(done.error)).toBe('Completed');
    expect(await countOf(app, sql`select count(*)::int as n from analysis_runs where product_id = ${id} and completed_at is not null`)).toBe(1);
    expect(await countOf(app, sql`select count(*)::int as n from analysis_runs where product_id = ${id}`)).toBe(1);
    // The API answers as before; the 503s, if any, were only the restart's moment.
    expect((await app.inject({ method: 'GET', url: '/api/products', headers: auth })).statusCode).toBe(200);
    expect(unavailable.count).toBeLessThan(50);
    // The process's LISTEN connection (job wake-up and caches) is back too.
    const database = app.database;
    if (database.kind !== 'postgres') throw new Error('PostgreSQL expected');
    for (const deadline = Date.now() + 30_000; !(database.listener.listening && app.sessionCache!.listening && app.caseAccessCache!.listening); ) {
      if (Date.now() > deadline) throw new Error('the LISTEN connection did not come back');
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 300_000);
});
