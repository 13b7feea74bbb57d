/**
 * Cluster benchmark (issue 14 item 6): the product as it runs on several machines, here as
 * separate processes on one: API x2 and `worker` x3 (the real entry points, apps/server/src/main.ts
 * and worker.ts) on one PostgreSQL database, uploads in an S3 bucket served by an s3rver process,
 * the real engine and KB. It
 *  1. measures one worker alone on a batch of exome cases (cases/min, the baseline);
 *  2. starts 3 workers, submits 30 exome cases concurrently through both APIs, SIGKILLs one worker
 *     while it runs a job, and meanwhile loads the variant list (50 concurrent clients over both
 *     APIs, every mode/filter) to report its p50/p95 under load;
 *  3. checks in the database that every case is Completed exactly once (one run, one completed
 *     pg-boss job, stored variants = the run's count) and reports throughput against one worker.
 *
 * Usage: npm run bench:cluster -- [--cases 30] [--baseline-cases 6] [--workers 3] [--concurrency 50]
 * Writes bench/results/cluster.md. Needs PostgreSQL (TEST_DATABASE_ADMIN_URL, default
 * postgres@127.0.0.1) and a built KB (data/kb).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import setupTestDatabase from '../scripts/test-database.setup.ts';
import { createDatabase, type ExecuteSql } from '../apps/server/src/db/database.ts';
import { startS3rver } from '../apps/server/src/storage/testing/s3rver.process.ts';
import { freePort, PASSWORD, readVerificationCode, registerBody, uniqueEmail } from '../apps/server/src/testing/helpers.ts';
import { startSmtpInbox } from '../apps/server/src/testing/smtp-inbox.ts';
import { benchInputs, numberArg, PFEIFFER_EXOME, PFEIFFER_TERMS as TERMS, ROOT as root } from './lib/inputs.ts';
import { formatMachine } from './lib/machine.ts';
import { benchServerEnv, serverLogFile } from './lib/server-env.ts';
import { percentile } from './lib/stats.ts';

const { sources, kbDir } = benchInputs();
const CASES = numberArg('--cases', 30);
const BASELINE_CASES = numberArg('--baseline-cases', 6);
const WORKERS = numberArg('--workers', 3);
const CONCURRENCY = numberArg('--concurrency', 50);
const EXOME = join(sources, PFEIFFER_EXOME);

const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


const children: ChildProcess[] = [];
function startProcess(label: string, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', join(root, script)], {
    cwd: root,
    env: { ...process.env, ...env },
    // The product's log (default level: one line per request) goes to a file in the process's data directory; stderr is shown, prefixed.
    stdio: ['ignore', serverLogFile(`${env.RARELENS_DATA_DIR ?? tmpdir()}.log`), 'pipe'],
  });
  child.stderr?.on('data', (d: Buffer) => {
    const text = String(d);
    if (!text.includes('NodeVersionSupportWarning') && !/^(versions published|will require|To continue|and security|More information|\(Use `node)/m.test(text)) process.stderr.write(`[${label}] ${text}`);
  });
  children.push(child);
  return child;
}

async function http(
  base: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  agent?: Agent,
): Promise<{ status: number; json: unknown; ms: number }> {
  const t0 = performance.now();
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((ok, fail) => {
    const req = httpRequest(
      new URL(path, base),
      {
        method,
        agent,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            json = text;
          }
          ok({ status: res.statusCode ?? 0, json, ms: performance.now() - t0 });
        });
      },
    );
    req.on('error', fail);
    req.end(payload);
  });
}

async function upload(base: string, token: string, caseId: string): Promise<string> {
  const boundary = `----rlcluster${randomBytes(8).toString('hex')}`;
  const fields: Record<string, string> = { caseId, gender: 'male', symptoms: 'Pfeiffer syndrome features', hpoTerms: JSON.stringify(TERMS) };
  let head = '';
  for (const [k, v] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="genomeFile"; filename="Pfeiffer.hg19.vcf.gz"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(head) + statSync(EXOME).size + Buffer.byteLength(tail);
  return new Promise((ok, fail) => {
    const req = httpRequest(
      new URL('/api/products', base),
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => (res.statusCode === 202 ? ok((JSON.parse(text) as { id: string }).id) : fail(new Error(`upload ${caseId}: ${res.statusCode} ${text}`))));
      },
    );
    req.on('error', fail);
    req.write(head);
    const file = createReadStream(EXOME);
    file.on('end', () => req.end(tail));
    file.pipe(req, { end: false });
  });
}

async function waitHealthy(base: string): Promise<void> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(300)) {
    const ok = await http(base, 'GET', '/api/health').then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
  }
  throw new Error(`${base} did not become healthy`);
}

/** Waits until every case has left the queue; returns when each finished (ms since `t0`). */
async function waitAll(query: ExecuteSql, ids: string[], t0: number, timeoutMs: number, onProgress?: (done: number) => void): Promise<number[]> {
  const finished = new Map<string, number>();
  for (const deadline = Date.now() + timeoutMs; finished.size < ids.length; await sleep(250)) {
    if (Date.now() > deadline) throw new Error(`only ${finished.size}/${ids.length} cases finished in time`);
    const rows = (await query(`select id, status, error_reason as reason from products where id = any($1::uuid[])`, [ids])).rows as {
      id: string;
      status: string;
      reason: string | null;
    }[];
    for (const r of rows) {
      if (r.status === 'Error') throw new Error(`case ${r.id} ended in Error: ${r.reason}`);
      if (r.status === 'Completed' && !finished.has(r.id)) finished.set(r.id, performance.now() - t0);
    }
    onProgress?.(finished.size);
  }
  const times: number[] = Array.from(finished.values());
  return times.sort((a, b) => a - b);
}

const LIST_QUERIES: { name: string; query: (page: number) => string }[] = [
  { name: 'non-clustered, page 1', query: () => 'mode=non-clustered&page=1' },
  { name: 'non-clustered, random page', query: (p) => `mode=non-clustered&page=${p}` },
  { name: 'filtered (default candidates)', query: (p) => `mode=filtered&page=${Math.min(p, 3)}` },
  { name: 'filtered (maxAf + ACMG)', query: () => 'mode=filtered&maxAf=0.01&acmg=Uncertain%20significance,Likely%20pathogenic,Pathogenic&page=1' },
  { name: 'filtered (consequence)', query: () => 'mode=filtered&consequence=missense_variant,stop_gained,frameshift_variant&page=1' },
  { name: 'filtered (zygosity)', query: () => 'mode=filtered&zygosity=homozygous&page=1' },
];

async function main(): Promise<void> {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
  const dropDb = await setupTestDatabase();
  const databaseUrl = process.env.DATABASE_URL;
  const s3 = await startS3rver('rarelens-bench');
  const inbox = await startSmtpInbox();
  const scratch = mkdtempSync(join(tmpdir(), 'rl-cluster-'));
  // Migrations are applied here first, so the processes start on an up-to-date schema.
  const database = await createDatabase({ databaseUrl, pgliteDir: '' });
  const db = database.executeSql;
  // Each process has its own data directory (startProcess callers).
  const common: NodeJS.ProcessEnv = {
    ...benchServerEnv({ dataDir: scratch, kbDir, databaseUrl: databaseUrl ?? '', smtpUrl: inbox.url }),
    // One lab account submits the whole batch at once.
    RARELENS_MAX_ACTIVE_ANALYSES: '1000',
    JWT_SECRET: randomBytes(32).toString('hex'),
    TOKEN_HASH_SECRET: randomBytes(32).toString('hex'),
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: 'rarelens-bench',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    RARELENS_INPROCESS_WORKER: 'false',
    WORKER_CONCURRENCY: '1',
    // JOB_HEARTBEAT_MS / JOB_STALE_AFTER_MS: the defaults (5 s / 30 s). Shorter staleness is not
    // safe yet: the engine blocks a worker's event loop for seconds at a time, delaying heartbeats.
  };
  const out: string[] = [];
  const say = (s: string) => {
    log(s);
    out.push(s);
  };
  try {
    const ports = await Promise.all([freePort(), freePort()]);
    const apis = ports.map((port, i) =>
      startProcess(`api${i + 1}`, 'apps/server/src/main.ts', { ...common, PORT: String(port), RARELENS_DATA_DIR: join(scratch, `api${i + 1}`), PUBLIC_URL: `http://127.0.0.1:${port}` }),
    );
    const bases = ports.map((p) => `http://127.0.0.1:${p}`);
    await Promise.all(bases.map(waitHealthy));
    log(`API x${apis.length} up on ${bases.join(', ')}`);

    // A user, through the real e-mail verification.
    const email = uniqueEmail('cluster');
    const reg = await http(bases[0]!, 'POST', '/api/auth/register', undefined, registerBody(email));
    if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.json)}`);
    const code = await readVerificationCode(inbox, email);
    if ((await http(bases[1]!, 'POST', '/api/auth/verify', undefined, { email, code })).status !== 200) throw new Error('verify failed');
    const login = await http(bases[0]!, 'POST', '/api/auth/login', undefined, { email, password: PASSWORD });
    const token = (login.json as { token: string }).token;

    const startWorker = (i: number) => startProcess(`worker${i}`, 'apps/server/src/worker.ts', { ...common, RARELENS_DATA_DIR: join(scratch, `worker${i}`) });

    // 1. Baseline: one worker.
    const solo = startWorker(0);
    let t0 = performance.now();
    const baselineIds = await Promise.all(Array.from({ length: BASELINE_CASES }, (_, i) => upload(bases[i % 2], token, `BASE-${i + 1}`)));
    const baseTimes = await waitAll(db, baselineIds, t0, 1_800_000);
    const baseSecs = baseTimes.at(-1) / 1000;
    const basePerMin = (BASELINE_CASES / baseSecs) * 60;
    log(`baseline: ${BASELINE_CASES} cases on 1 worker in ${baseSecs.toFixed(1)} s (${basePerMin.toFixed(2)} cases/min)`);
    solo.kill('SIGTERM');
    await new Promise((r) => solo.once('exit', r));

    // 2. Cluster: N workers, 30 cases at once, one worker killed mid-run, list load meanwhile.
    const workers = Array.from({ length: WORKERS }, (_, i) => startWorker(i + 1));
    const listCases = baselineIds;
    const samples = new Map<string, number[]>(LIST_QUERIES.map((q): [string, number[]] => [q.name, []]));
    let listErrors = 0;
    let loading = true;
    const agents = bases.map(() => new Agent({ keepAlive: true, maxSockets: CONCURRENCY }));
    const load = Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, c) => {
        let i = c;
        while (loading) {
          const q = LIST_QUERIES[i % LIST_QUERIES.length];
          const api = i % bases.length;
          const id = listCases[i % listCases.length];
          i++;
          let r: { status: number; ms: number } | null = null;
          try {
            r = await http(bases[api], 'GET', `/api/products/${id}/variants?${q.query(1 + Math.floor(Math.random() * 50))}`, token, undefined, agents[api]);
          } catch {
            r = null;
          }
          if (!r || r.status !== 200) listErrors++;
          else samples.get(q.name).push(r.ms);
        }
      }),
    );
    t0 = performance.now();
    const ids = await Promise.all(Array.from({ length: CASES }, (_, i) => upload(bases[i % 2], token, `CLUSTER-${i + 1}`)));
    const uploadSecs = (performance.now() - t0) / 1000;
    log(`${CASES} cases uploaded through ${bases.length} APIs in ${uploadSecs.toFixed(1)} s`);
    let killedAt = -1;
    const times = await waitAll(db, ids, t0, 3_600_000, (done) => {
      if (killedAt < 0 && done >= Math.min(5, Math.floor(CASES / 4))) {
        killedAt = done;
        workers[0].kill('SIGKILL');
        log(`SIGKILL worker1 after ${done} completed cases (it was running a job)`);
      }
    });
    loading = false;
    await load;
    agents.forEach((a) => a.destroy());
    const secs = times.at(-1) / 1000;
    const perMin = (CASES / secs) * 60;

    // 3. Exactly once, from the database. A case is Completed when its run is published; the
    // worker marks the pg-boss job completed after that, and a job whose worker died between the
    // two is expired and retried (the retry must find the case done and add no run). So wait
    // until no job of these cases is pending, active or due for retry (up to 3 minutes), then count.
    const settleStart = performance.now();
    let unsettled = -1;
    while (performance.now() - settleStart < 180_000) {
      const open = await db(
        `select count(*)::int as n from pgboss.job j where j.name = 'analyse-case' and j.data->>'productId' = any($1::text[]) and j.state in ('created', 'retry', 'active')`,
        [ids],
      );
      unsettled = (open.rows[0] as { n: number }).n;
      if (unsettled === 0) break;
      await new Promise((r) => setTimeout(r, 2000));
    }
    const settled = `jobs settled (none created, active or due for retry) after the last Completed: ${unsettled === 0 ? 'yes' : `NO (${unsettled} still open)`}, waited ${((performance.now() - settleStart) / 1000).toFixed(1)} s`;
    log(settled);
    const check = await db(
      `select p.id, p.status,
              (select count(*)::int from analysis_runs r where r.product_id = p.id) as runs,
              (select count(*)::int from pgboss.job j where j.name = 'analyse-case' and j.data->>'productId' = p.id::text) as jobs,
              (select count(*)::int from pgboss.job j where j.name = 'analyse-case' and j.data->>'productId' = p.id::text and j.state = 'completed') as completed_jobs,
              (select coalesce(max(j.retry_count), 0)::int from pgboss.job j where j.name = 'analyse-case' and j.data->>'productId' = p.id::text) as retried,
              (select string_agg(j.state::text, ',') from pgboss.job j where j.name = 'analyse-case' and j.data->>'productId' = p.id::text) as states,
              (select count(*)::int from run_variants v where v.run_id = p.current_run_id) as stored,
              (select (r.counts->>'variantsStored')::int from analysis_runs r where r.id = p.current_run_id) as counted
         from products p where p.id = any($1::uuid[])`,
      [ids],
    );
    const checked = check.rows as { id: string; status: string; runs: number; jobs: number; completed_jobs: number; retried: number; states: string | null; stored: number; counted: number }[];
    const allCompleted = checked.filter((r) => r.status === 'Completed').length;
    const onceEach = checked.filter((r) => r.runs === 1 && r.jobs === 1 && r.completed_jobs === 1 && r.stored === r.counted).length;
    const rerun = checked.filter((r) => r.retried > 0).length;
    // s3rver keeps each object as <key>._S3rver_object (+ metadata and md5 files beside it).
    const objects = (await s3.files()).filter((f) => f.endsWith('._S3rver_object')).length;

    const lat = LIST_QUERIES.map((q) => {
      const s = samples.get(q.name).sort((a, b) => a - b);
      return { name: q.name, n: s.length, p50: percentile(s, 50), p95: percentile(s, 95) };
    });
    const allLat = Array.from(samples.values()).flat().sort((a, b) => a - b);

    say(`# bench:cluster ${new Date().toISOString()}`);
    say('');
    say(`commit ${commit}; machine: ${formatMachine()}`);
    say(
      `configuration: API x2 (apps/server/src/main.ts, RARELENS_INPROCESS_WORKER=false) + worker x${WORKERS} (apps/server/src/worker.ts, WORKER_CONCURRENCY=1, analysis on its own thread: RARELENS_ANALYSIS_THREAD=${process.env.RARELENS_ANALYSIS_THREAD ?? 'on (default)'}), ` +
        `separate processes on one PostgreSQL (fresh database), uploads in S3 (s3rver process, path-style), JOB_HEARTBEAT_MS=5000, JOB_STALE_AFTER_MS=30000 (defaults); KB ${kbDir}`,
    );
    say(`data: ${CASES} uploads of the Pfeiffer exome (${EXOME.replace(sources, 'shared/data')}, 37,709 records, GRCh37) submitted concurrently through both APIs`);
    say('');
    say('| run | workers | cases | seconds (first upload -> last Completed) | cases/min |');
    say('|---|---:|---:|---:|---:|');
    say(`| baseline | 1 | ${BASELINE_CASES} | ${baseSecs.toFixed(1)} | ${basePerMin.toFixed(2)} |`);
    say(`| cluster, worker1 SIGKILLed after ${killedAt} completed | ${WORKERS} (-1) | ${CASES} | ${secs.toFixed(1)} | ${perMin.toFixed(2)} |`);
    say('');
    say(`- throughput vs one worker: ${(perMin / basePerMin).toFixed(2)}x (2 CPU cores shared with other work: the workers compete for the same cores)`);
    say(`- Completed: ${allCompleted}/${CASES}; exactly once (1 run, 1 pg-boss job completed, stored variants = run count): ${onceEach}/${CASES}`);
    for (const r of checked.filter((x) => !(x.runs === 1 && x.jobs === 1 && x.completed_jobs === 1 && x.stored === x.counted)))
      say(`  - not exactly once: case ${r.id}: ${r.runs} run(s), ${r.jobs} job(s) (states ${r.states ?? '-'}), ${r.completed_jobs} completed, ${r.stored} stored / ${r.counted} counted`);
    say(`- ${settled}`);
    say(`- jobs rerun after the kill (retry_count > 0): ${rerun}; objects in the bucket: ${objects} (one genome per case, ${BASELINE_CASES + CASES} cases)`);
    say('');
    say(`Variant list under that load (${CONCURRENCY} concurrent closed-loop clients over both APIs, on the ${listCases.length} baseline cases, ${allLat.length} requests, ${listErrors} errors):`);
    say('');
    say('| query | requests | p50 ms | p95 ms |');
    say('|---|---:|---:|---:|');
    for (const l of lat) say(`| ${l.name} | ${l.n} | ${l.p50.toFixed(1)} | ${l.p95.toFixed(1)} |`);
    say(`| all | ${allLat.length} | ${percentile(allLat, 50).toFixed(1)} | ${percentile(allLat, 95).toFixed(1)} |`);
    say('');
    say(
      `Target "all ${CASES} Completed exactly once after a killed worker": ${allCompleted === CASES && onceEach === CASES ? 'MET' : 'NOT MET'}. ` +
        `Variant list p95 <= 100 ms during the load: ${percentile(allLat, 95) <= 100 ? 'MET' : 'NOT MET'} (exome cases of ~38k variants while ${WORKERS - 1} workers analyse; the 1 M-variant figure is bench:cases).`,
    );
    writeFileSync(join(root, 'bench/results/cluster.md'), out.join('\n') + '\n');
    log('wrote bench/results/cluster.md');
    if (allCompleted !== CASES || onceEach !== CASES) process.exitCode = 1;
  } finally {
    for (const c of children) if (c.exitCode == null && c.signalCode == null) c.kill('SIGKILL');
    await database.close();
    await inbox.close();
    await s3.stop();
    await dropDb().catch((e: unknown) => log(`could not drop the database: ${e instanceof Error ? e.message : 'unknown error'}`));
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
