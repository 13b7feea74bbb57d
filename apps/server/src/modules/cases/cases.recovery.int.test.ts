/**
 * Crash recovery on real PostgreSQL: a separate worker process is killed (SIGKILL) in the
 * middle of an analysis; pg-boss retries the job once the dead worker's heartbeat is stale, another
 * worker runs it, and the case completes exactly once with no duplicate results. The killed
 * attempt's bulk load was one transaction, so nothing of it is left behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/database.ts';
import { JobQueue } from '../../jobs/job.boss.ts';
import { buildRegistry } from '../../jobs/jobs.module.ts';
import { createCaseAnalysisStore } from '../analysis/analysis.service.ts';
import { createFixtureEngine } from '../../jobs/testing/fixture-engine.ts';
import { buildFixtureVcf } from '../../jobs/testing/fixture-vcf.ts';
import { createStorage } from '../../storage/storage.factory.ts';
import { finishWithSecondWorker } from '../../jobs/testing/finishing-worker.ts';
import { signUpAndLogIn } from '../../testing/helpers.ts';
import type { SmtpInbox } from '../../testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { multipartBody, waitForStatus } from '../../testing/multipart.ts';
import { testOntology } from '../../testing/test-ontology.ts';

const GENES = { FGFR2: ['HP:0000244'], TTN: [] as string[] };
/** A third of them common (not candidates), so a batch of 5,000 is stored while streaming. */
const VARIANTS = 16_000;

let testApp: TestApp;
let inbox: SmtpInbox;
let app: FastifyInstance;
let dataDir: string;
let user: { token: string };
let child: ChildProcess | null = null;

beforeAll(async () => {
  // The API server runs no worker here: workers are separate processes, as in production.
  testApp = await createTestApp({ name: 'recovery', kb: 'none', cases: { ontology: testOntology, jobs: { inProcessWorker: false, heartbeatMs: 200, staleAfterMs: 1000 } } });
  ({ app, inbox, dataDir } = testApp);
  user = await signUpAndLogIn(app, inbox);
});

afterAll(async () => {
  child?.kill('SIGKILL');
  await testApp.close();
});

async function count(query: ReturnType<typeof sql>): Promise<number> {
  return Number(rowsOf(await app.database.db.execute(query))[0]?.n ?? 0);
}

/** Uploads a case of VARIANTS fixture variants (a third common) and answers its id once queued. */
async function uploadCase(caseId: string, fileName: string): Promise<string> {
  const { body, contentType } = multipartBody(
    { caseId, gender: 'male', symptoms: 'Brachyturricephaly', hpoTerms: ['HP:0000244'] },
    [{ field: 'genomeFile', name: fileName, content: buildFixtureVcf(VARIANTS, ['TTN', 'FGFR2'], {}, 3) }],
  );
  const res = await app.inject({ method: 'POST', url: '/api/products', headers: { authorization: `Bearer ${user.token}`, 'content-type': contentType }, payload: body });
  expect(res.statusCode).toBe(202);
  return res.json<{ id: string }>().id;
}

describe('a worker killed mid-job', () => {
  it('leaves a job that another worker completes once, without duplicate results', async () => {
    const id = await uploadCase('CRASH-1', 'crash.vcf');

    // Worker 1: a real separate process, slowed down so it is mid-job when killed.
    const script = fileURLToPath(new URL('../../jobs/testing/fixture-worker.ts', import.meta.url));
    child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: {
        ...process.env,
        RARELENS_DATA_DIR: dataDir,
        FIXTURE_DELAY_MS: '1',
        FIXTURE_GENES: JSON.stringify(GENES),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // Mid-job: progress is reported (on its own connection) once the first batch of variants
    // went to the database; the batch itself is inside the case's one transaction.
    const deadline = Date.now() + 60_000;
    let progress = 0;
    while (Date.now() < deadline) {
      progress = await count(sql`select progress as n from products where id = ${id}`);
      if (progress > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(progress).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    child = null;
    // The killed worker's transaction rolled back: no run and no variant of it is left.
    const leftDeadline = Date.now() + 10_000;
    let left = -1;
    while (Date.now() < leftDeadline) {
      left = await count(sql`select count(*)::int as n from analysis_runs where product_id = ${id}`);
      if (left === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(left).toBe(0);
    const mid = await waitForStatus(app, { authorization: `Bearer ${user.token}` }, id, ['Processing'], 1000);
    expect(mid.progress).toBeLessThan(100);

    // Worker 2: in this process, with the real job definitions.
    const done = await finishWithSecondWorker(app, { dataDir, token: user.token, caseId: id, timeoutMs: 60_000, engine: { genePhenotypes: GENES } });
    expect(done.error).toBeNull();
    expect(done.status).toBe('Completed');

    expect(await count(sql`select count(*)::int as n from analysis_runs where product_id = ${id}`)).toBe(1);
    expect(
      await count(sql`select count(*)::int as n from run_variants v join analysis_runs r on r.id = v.run_id where r.product_id = ${id}`),
    ).toBe(VARIANTS);
    expect(
      await count(sql`select count(distinct (v.chrom, v.pos, v.ref, v.alt))::int as n from run_variants v join analysis_runs r on r.id = v.run_id where r.product_id = ${id}`),
    ).toBe(VARIANTS);
    // pg-boss marks the job completed just after the publishing transaction commits.
    const jobDeadline = Date.now() + 10_000;
    while (Date.now() < jobDeadline) {
      if ((await count(sql`select count(*)::int as n from pgboss.job where data->>'productId' = ${id} and state = 'completed'`)) === 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // One pg-boss job for the case, retried after the kill (retry_count 1) and completed. On a
    // saturated machine worker 2's own heartbeat can miss the 1 s expiry this test sets to catch
    // the killed worker quickly; it then takes over its own job (retry_count 2). Either way the
    // results above were published exactly once, which is what this test is about.
    expect(await count(sql`select count(*)::int as n from pgboss.job where data->>'productId' = ${id}`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from pgboss.job where data->>'productId' = ${id} and state = 'completed'`)).toBe(1);
    const retries = await count(sql`select retry_count as n from pgboss.job where data->>'productId' = ${id}`);
    expect(retries).toBeGreaterThanOrEqual(1);
    expect(retries).toBeLessThanOrEqual(2);
    const genes = await app.inject({ method: 'GET', url: `/api/products/${id}/genes`, headers: { authorization: `Bearer ${user.token}` } });
    expect(genes.json<{ items: { symbol: string }[] }>().items.map((g) => g.symbol)).toEqual(['FGFR2', 'TTN']);
  });

  // bench:cluster (a41337d) saw one case fail its exactly-once check while attempts were
  // abandoned after late heartbeats. Likely cause (not reproduced here): an attempt whose job
  // was taken over, stalled past the rerun's publish, went on writing variants under its own
  // unpublished run, which nothing removed afterwards. The case's load is now one transaction
  // on PostgreSQL, so an abandoned attempt leaves nothing; this test holds that invariant.
  it('an attempt whose job was taken over leaves nothing; the rerun publishes once', async () => {
    const id = await uploadCase('TAKEN-OVER-1', 'taken.vcf');
    const queue = (delayMs: number) =>
      new JobQueue(
        app.database,
        buildRegistry({
          database: app.database,
          store: createCaseAnalysisStore(app.database),
          storage: createStorage({ dataDir }),
          engine: () => Promise.resolve(createFixtureEngine({ genePhenotypes: GENES, delayMs })),
        }).registry,
        { pollMs: 100, heartbeatMs: 200, staleAfterMs: 60_000, logger: pino({ level: 'silent' }) },
      );
    // Attempt 1: slowed down; mid-load when its job is expired.
    const first = queue(1);
    await first.work();
    const second = queue(0);
    try {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && (await count(sql`select progress as n from products where id = ${id}`)) === 0) {
        await new Promise((r) => setTimeout(r, 50));
      }
      // What pg-boss does to an attempt whose heartbeat is late: the job goes back to retry.
      await app.database.db.execute(
        sql`update pgboss.job set state = 'retry', start_after = now() where data->>'productId' = ${id} and state = 'active'`,
      );
      await second.work();
      const done = await waitForStatus(app, { authorization: `Bearer ${user.token}` }, id, ['Completed', 'Error'], 60_000);
      expect(done.status).toBe('Completed');
    } finally {
      await first.stop();
      await second.stop();
    }
    expect(await count(sql`select count(*)::int as n from analysis_runs where product_id = ${id}`)).toBe(1);
    expect(
      await count(sql`select count(*)::int as n from run_variants v join analysis_runs r on r.id = v.run_id where r.product_id = ${id}`),
    ).toBe(VARIANTS);
    expect(await count(sql`select retry_count as n from pgboss.job where data->>'productId' = ${id}`)).toBe(1);
  }, 240_000);
});
