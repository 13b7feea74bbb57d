/**
 * Fault injection (issue 16, item 6): the failures a lab's server meets, injected for real.
 *
 *  - the object store (an s3rver process) stops in the middle of an upload: the upload fails
 *    with a clear message and nothing is half-written (no case row, no object, no multipart part);
 *  - the data directory's disk is full (a 1 MiB tmpfs mounted over the upload directory): a clear
 *    error, no partial file, and the next upload that fits works;
 *  - the embedded server (PGlite) is SIGKILLed while it analyses a case: restarted on the same data
 *    directory, its data is intact and the case completes exactly once.
 * (A worker SIGKILLed mid-analysis on PostgreSQL: cases.recovery.int.test.ts.)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureEngine } from '../src/jobs/testing/fixture-engine.ts';
import { buildFixtureVcf } from '../src/jobs/testing/fixture-vcf.ts';
import { S3Storage } from '../src/storage/s3.storage.ts';
import { S3RVER_CREDENTIALS, startS3rver, type S3rverProcess } from '../src/storage/testing/s3rver.process.ts';
import { countOf, freePort, PASSWORD, readVerificationCode, registerBody, signUpAndLogIn, uniqueEmail } from '../src/testing/helpers.ts';
import { multipartBody, waitForStatus } from '../src/testing/multipart.ts';
import { startSmtpInbox, type SmtpInbox } from '../src/testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../src/testing/test-app.ts';

const FIELDS = { caseId: 'FAULT-1', gender: 'female', symptoms: 'Seizures', hpoTerms: JSON.stringify(['HP:0001250']), assembly: 'GRCh38' };
const repoRoot = path.resolve(import.meta.dirname, '../../..');

let inbox: SmtpInbox;
beforeAll(async () => {
  inbox = await startSmtpInbox();
});
afterAll(async () => {
  await inbox?.close();
});

/** POSTs a multipart body over a real socket, `chunkBytes` at a time, calling `midway` once half is sent. */
function streamUpload(port: number, token: string, body: Buffer, contentType: string, midway: () => Promise<void>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // Its own connection, closed after the answer (agent: false): a kept-alive socket the server
    // answered before the body ended would hold the app's close for the 72 s keep-alive timeout.
    const req = httpRequest(
      { host: '127.0.0.1', port, agent: false, method: 'POST', path: '/api/products', headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': body.length } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
      },
    );
    req.on('error', reject);
    const half = Math.floor(body.length / 2);
    req.write(body.subarray(0, half), () => {
      void midway().then(() => req.end(body.subarray(half)), reject);
    });
  });
}

async function rowCounts(test: TestApp): Promise<{ cases: number; files: number }> {
  return {
    cases: await countOf(test.app, sql`select count(*)::int as n from products`),
    files: await countOf(test.app, sql`select count(*)::int as n from product_files`),
  };
}

describe('the object store stops in the middle of an upload', () => {
  let s3: S3rverProcess;
  let test: TestApp;
  let port: number;

  beforeAll(async () => {
    s3 = await startS3rver('rl-fault');
    const storage = new S3Storage(
      { endpoint: s3.endpoint, bucket: 'rl-fault', region: 'us-east-1', ...S3RVER_CREDENTIALS, prefix: 'rarelens', partSize: 5 * 1024 * 1024, queueSize: 2 },
      mkdtempSync(path.join(os.tmpdir(), 'rl-fault-s3-tmp-')),
    );
    const fixture = createFixtureEngine({ genePhenotypes: {} });
    test = await createTestApp({ inbox, cases: { storage, engine: () => Promise.resolve(fixture), jobs: { inProcessWorker: true, pollMs: 100 } } });
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    port = (test.app.server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(async () => {
    await test?.close();
    await s3?.stop();
  });

  it('answers a clear error and leaves no row, object or multipart part', async () => {
    const user = await signUpAndLogIn(test.app, inbox);
    const baseline = await s3.files();
    const before = await rowCounts(test);
    // 24 MiB: several multipart parts; the store is stopped after half of it was sent.
    const vcf = buildFixtureVcf(200_000, ['TTN']);
    const { body, contentType } = multipartBody(FIELDS, [{ field: 'genomeFile', name: 'big.vcf', content: vcf }]);
    const res = await streamUpload(port, user.token, body, contentType, () => s3.stop());
    expect(res.status, res.body).toBe(503);
    const answer = JSON.parse(res.body) as { code: string; message: string };
    expect(answer.code).toBe('storage_unavailable');
    expect(answer.message).toMatch(/^big\.vcf: the file store did not answer; nothing was kept/);
    expect(await rowCounts(test)).toEqual(before);
    // The store comes back with what it held before: no object and no part of the failed upload.
    s3 = await startS3rver('rl-fault', s3.directory);
    expect((await s3.files()).filter((f) => !baseline.includes(f))).toEqual([]);
  }, 120_000);
});

describe('the disk of the data directory is full', () => {
  let test: TestApp;
  let uploads: string;
  let mounted = false;

  beforeAll(async () => {
    const fixture = createFixtureEngine({ genePhenotypes: {} });
    test = await createTestApp({ inbox, cases: { engine: () => Promise.resolve(fixture), jobs: { inProcessWorker: true, pollMs: 100 } } });
    uploads = path.join(test.dataDir, 'uploads');
    mkdirSync(uploads, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', uploads]);
    mounted = true;
  }, 60_000);
  afterAll(async () => {
    if (mounted) execFileSync('umount', [uploads]);
    await test?.close();
  });

  it('refuses the upload with a clear error, keeps nothing, and takes the next one that fits', async () => {
    const user = await signUpAndLogIn(test.app, inbox);
    const auth = { authorization: `Bearer ${user.token}` };
    const before = await rowCounts(test);
    const big = multipartBody(FIELDS, [{ field: 'genomeFile', name: 'big.vcf', content: buildFixtureVcf(30_000, ['TTN']) }]);
    const res = await test.app.inject({ method: 'POST', url: '/api/products', headers: { ...auth, 'content-type': big.contentType }, payload: big.body });
    expect(res.statusCode).toBe(507);
    const answer = res.json<{ code: string; message: string }>();
    expect(answer.code).toBe('storage_full');
    expect(answer.message).toMatch(/^big\.vcf: the server has no space left to store this file; nothing was kept/);
    expect(await rowCounts(test)).toEqual(before);
    expect(readdirSync(uploads, { recursive: true }).filter((f) => !String(f).endsWith('/') && /\./.test(String(f)))).toEqual([]);

    const small = multipartBody({ ...FIELDS, caseId: 'FAULT-2' }, [{ field: 'genomeFile', name: 'small.vcf', content: buildFixtureVcf(50, ['TTN']) }]);
    const ok = await test.app.inject({ method: 'POST', url: '/api/products', headers: { ...auth, 'content-type': small.contentType }, payload: small.body });
    expect(ok.statusCode).toBe(202);
    expect((await waitForStatus(test.app, auth, ok.json<{ id: string }>().id, ['Completed', 'Error'], 60_000)).status).toBe('Completed');
  }, 120_000);
});

describe('the embedded server is killed while it analyses a case', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rl-fault-pglite-'));
  let server: ChildProcess | null = null;
  let port = 0;
  afterAll(async () => {
    if (server?.exitCode === null) {
      server.kill('SIGKILL');
      await new Promise((r) => server!.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<void> {
    server = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/main.ts')], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        RARELENS_DATA_DIR: dataDir,
        RARELENS_WEB_DIST: path.join(dataDir, 'no-web'),
        SMTP_URL: inbox.url,
        // Short enough for a quick rerun after the kill, long enough for a loaded machine's heartbeats.
        JOB_STALE_AFTER_MS: '10000',
        JOB_HEARTBEAT_MS: '1000',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (let i = 0; i < 240; i++) {
      if ((await call('GET', '/api/health').catch(() => null))?.status === 200) return;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error('server did not start');
  }
  function call(method: string, url: string, opts: { token?: string; json?: unknown; raw?: Buffer; contentType?: string } = {}): Promise<{ status: number; json: () => unknown }> {
    const payload = opts.raw ?? (opts.json === undefined ? undefined : Buffer.from(JSON.stringify(opts.json)));
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, method, path: url, headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...(payload ? { 'content-type': opts.contentType ?? 'application/json', 'content-length': payload.length } : {}) } },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => {
            const text = Buffer.concat(parts).toString('utf8');
            resolve({ status: res.statusCode ?? 0, json: () => JSON.parse(text) as unknown });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  it('restarts with its data intact and completes the case exactly once', async () => {
    port = await freePort();
    await start();
    const email = uniqueEmail('crash');
    expect((await call('POST', '/api/auth/register', { json: registerBody(email) })).status).toBe(201);
    const code = await readVerificationCode(inbox, email);
    expect((await call('POST', '/api/auth/verify', { json: { email, code } })).status).toBe(200);
    const login = async () => (await call('POST', '/api/auth/login', { json: { email, password: PASSWORD } })).json() as { token: string };
    let token = (await login()).token;
    // A genome big enough to be mid-analysis when the process is killed (GRCh38 fixture records).
    const vcf = buildFixtureVcf(150_000, ['TTN', 'FGFR2']);
    const records = vcf.split('\n').filter((l) => l !== '' && !l.startsWith('#')).length;
    const { body, contentType } = multipartBody(FIELDS, [{ field: 'genomeFile', name: 'crash.vcf', content: vcf }]);
    const created = await call('POST', '/api/products', { token, raw: body, contentType });
    expect(created.status).toBe(202);
    const id = (created.json() as { id: string }).id;
    for (let i = 0; i < 600; i++) {
      const c = (await call('GET', `/api/products/${id}`, { token })).json() as { status: string; progress?: number };
      if (c.status === 'Processing' && (c.progress ?? 0) > 5) break;
      if (c.status === 'Completed' || c.status === 'Error') throw new Error(`case ended ${c.status} before the kill`);
      await new Promise((r) => setTimeout(r, 100));
    }
    server!.kill('SIGKILL');
    await new Promise((r) => server!.once('exit', r));

    await start();
    token = (await login()).token;
    const cases = (await call('GET', '/api/products', { token })).json() as { items: { id: string }[] };
    expect(cases.items.map((c) => c.id)).toEqual([id]);
    let last: { status: string; errorReason?: string | null } = { status: '' };
    for (let i = 0; i < 1200 && !['Completed', 'Error'].includes(last.status); i++) {
      await new Promise((r) => setTimeout(r, 250));
      last = (await call('GET', `/api/products/${id}`, { token })).json() as typeof last;
    }
    expect(last.status).toBe('Completed');
    // Exactly once: the killed attempt's rows are gone, the stored variants are the file's records once.
    const list = (await call('GET', `/api/products/${id}/variants?mode=non-clustered&pageSize=1`, { token })).json() as { total: number };
    expect(list.total).toBe(records);
  }, 400_000);
});

