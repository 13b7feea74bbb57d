/**
 * A worker killed mid-alignment (SIGKILL of a separate worker process while bwa runs): pg-boss
 * retries the job once the dead worker's heartbeat is stale, another worker reruns the raw data
 * analysis from the start (it removes what the killed attempt left in the work directory and
 * in storage), and the case completes once: one run, one read alignment record, no duplicate
 * variants, no work directory left. Needs bwa, samtools and bcftools on PATH.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { rowsOf } from '../../db/database.ts';
import { loadConfig } from '../../env.ts';
import { rawDataDepsOf } from '../../jobs/reads/raw-data.stage.ts';
import { finishWithSecondWorker } from '../../jobs/testing/finishing-worker.ts';
import { signUpAndLogIn } from '../../testing/helpers.ts';
import { multipartBody } from '../../testing/multipart.ts';
import { na12878Reads, readsToolsInstalled, repeatedReads, sourcesDir } from '../../testing/reads-fixtures.ts';
import { startSmtpInbox, type SmtpInbox } from '../../testing/smtp-inbox.ts';
import { testOntology } from '../../testing/test-ontology.ts';

const sources = sourcesDir;
const na12878 = na12878Reads;

let inbox: SmtpInbox;
let app: FastifyInstance;
let dataDir: string;
let user: { token: string };
let child: ChildProcess | null = null;

async function count(query: ReturnType<typeof sql>): Promise<number> {
  return Number(rowsOf(await app.database.db.execute(query))[0]?.n ?? 0);
}

describe.skipIf(!readsToolsInstalled || !existsSync(na12878))('a worker killed mid-alignment', () => {
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'rarelens-fastq-recovery-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      RARELENS_DATA_DIR: dataDir,
      RARELENS_KB: path.join(dataDir, 'no-kb'),
      RARELENS_SOURCES: sources,
      RARELENS_WEB_DIST: path.join(dataDir, 'no-web-build'),
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      SMTP_URL: inbox.url,
    });
    app = await buildApp({ config, cases: { ontology: testOntology, jobs: { inProcessWorker: false, heartbeatMs: 200, staleAfterMs: 1000 } } });
    await app.ready();
    user = await signUpAndLogIn(app, inbox);
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    await app?.close();
    await inbox?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('reruns the raw data analysis from the start and publishes it once', async () => {
    const { body, contentType } = multipartBody(
      { caseId: 'KILLED-ALIGN-1', gender: 'female', symptoms: 'Brachyturricephaly', hpoTerms: ['HP:0000244'] },
      [{ field: 'genomeFile', name: 'na12878.x12.fastq.gz', content: repeatedReads(12) }],
    );
    const res = await app.inject({ method: 'POST', url: '/api/products', headers: { authorization: `Bearer ${user.token}`, 'content-type': contentType }, payload: body });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json<{ id: string }>().id;

    // Worker 1: a separate process, killed while the reads align.
    const script = fileURLToPath(new URL('../../jobs/testing/fixture-worker.ts', import.meta.url));
    child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, RARELENS_DATA_DIR: dataDir, RARELENS_SOURCES: sources, WORKER_THREADS: '1', FIXTURE_GENES: '{}' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const workDir = path.join(dataDir, 'work');
    const deadline = Date.now() + 90_000;
    let stage = '';
    while (Date.now() < deadline) {
      const [row] = rowsOf(await app.database.db.execute(sql`select progress_stage as s from products where id = ${id}`)) as { s: string | null }[];
      stage = row?.s ?? '';
      if (stage === 'alignment' && existsSync(workDir) && readdirSync(workDir).some((d) => d.startsWith(`case-${id}-`))) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(stage).toBe('alignment');
    await new Promise((r) => setTimeout(r, 500));
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    child = null;
    // The killed attempt published nothing.
    expect(await count(sql`select count(*)::int as n from analysis_runs where product_id = ${id}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from read_alignments where product_id = ${id}`)).toBe(0);

    // Worker 2: in this process, the real job definitions with the raw data stage.
    const reads = rawDataDepsOf({ dataDir, sourcesDir: sources, reference: undefined, referenceAssembly: undefined, workerThreads: 1 });
    const done = await finishWithSecondWorker(app, { dataDir, token: user.token, caseId: id, timeoutMs: 180_000, engine: { genePhenotypes: {} }, reads });
    expect(done.error).toBeNull();
    expect(done.status).toBe('Completed');

    expect(await count(sql`select count(*)::int as n from analysis_runs where product_id = ${id}`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from read_alignments where product_id = ${id}`)).toBe(1);
    const variants = await count(sql`select count(*)::int as n from run_variants v join analysis_runs r on r.id = v.run_id where r.product_id = ${id}`);
    const distinct = await count(sql`select count(distinct (v.chrom, v.pos, v.ref, v.alt))::int as n from run_variants v join analysis_runs r on r.id = v.run_id where r.product_id = ${id}`);
    expect(variants).toBeGreaterThanOrEqual(3);
    expect(distinct).toBe(variants);
    // All reads of the rerun were counted once (12 copies of 17,486).
    const info = await app.inject({ method: 'GET', url: `/api/products/${id}/raw-data`, headers: { authorization: `Bearer ${user.token}` } });
    expect(info.json<{ qc: { reads: number } }>().qc.reads).toBe(12 * 17486);
    // Storage holds the rerun's outputs only; no work directory is left.
    expect(readdirSync(path.join(dataDir, 'uploads', 'products', id, 'reads')).sort()).toEqual(['alignments.bam', 'alignments.bam.bai', 'calls.vcf.gz', 'calls.vcf.gz.tbi']);
    const left = Date.now() + 15_000;
    while (Date.now() < left && readdirSync(workDir).some((d) => d.startsWith(`case-${id}-`))) await new Promise((r) => setTimeout(r, 100));
    expect(readdirSync(workDir).filter((d) => d.startsWith(`case-${id}-`))).toEqual([]);
    expect(await count(sql`select retry_count as n from pgboss.job where data->>'productId' = ${id}`)).toBeGreaterThanOrEqual(1);
  }, 300_000);
});
