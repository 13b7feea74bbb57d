/**
 * Cases benchmark (issue 5): through the real server (HTTP on loopback, PostgreSQL, the
 * in-process worker, the real engine and KB):
 *  1. time from upload (POST /api/products) to status Completed for the Pfeiffer exome;
 *  2. the same for a genome-size VCF (bench/lib/genome-vcf.ts, ~4.1 M records, cached in the
 *     temp dir; --genome-records N takes its first N records instead);
 *  3. latency (p50/p95) of GET /api/products/:id/variants on the genome case (>= 1 M stored
 *     variants) at 50 concurrent requests: a closed-loop load generator on loopback (each of
 *     the 50 clients sends its next request when the previous answer arrived), bounded by
 *     --requests and --seconds, spread over --api-processes separate API processes
 *     (apps/server/src/main.ts, no in-process worker, default 2) on the same database. Queries:
 *     bench/lib/list-queries.ts (every mode, filters, offset and keyset pages). Then the
 *     database-side time of each query shape (EXPLAIN ANALYZE, bench/lib/list-explain.ts), so
 *     the figure can be read on a loaded machine; the load average is reported around the load;
 *  4. re-ranking the Completed genome case (issue 14): PUT new phenotype terms, then the time until
 *     the new ranking is visible through the API (the run's rankedAt changes), --rerank-rounds
 *     times with two term sets in turn after one untimed round (the worker's engine load), beside
 *     the worker's own split of each job (read stored rows, rank, write ranks; the run's counts).
 *
 * Targets: exome upload -> Completed <= 15 s; variant list p95 <= 100 ms; genome re-rank < 1 s.
 * A throw-away database is created on TEST_DATABASE_ADMIN_URL (default postgres@127.0.0.1)
 * and dropped at the end (--keep-db keeps it and prints its URL).
 *
 * Usage: npm run bench:cases -- [--skip-genome] [--skip-list] [--genome-records N] [--requests N] [--seconds S] [--concurrency C]
 *        [--keep-db] [--reuse-db URL] [--api-processes N] [--api-root DIR] [--api-root-b DIR] [--cpu-prof DIR] [--rerank-rounds N]
 *        (--reuse-db: re-rank and latency only, on the BENCH-GENOME case of a kept database; with --skip-list re-rank only)
 */
import {
  createReadStream,
  createWriteStream,
  existsSync,
  readFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, type Agent } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import setupTestDatabase from '../scripts/test-database.setup.ts';
import { adminUrl, databaseUrl, TEMPLATE_ENV } from '../scripts/test-database.names.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/env.ts';
import { signUpAndLogIn } from '../apps/server/src/testing/helpers.ts';
import { startSmtpInbox } from '../apps/server/src/testing/smtp-inbox.ts';
import { buildGenomeVcf, headVcf } from './lib/genome-vcf.ts';
import { currentCommit, formatMachine } from './lib/machine.ts';
import { EXPLAIN_HEAD, explainLine, explainListQueries } from './lib/list-explain.ts';
import { PFEIFFER_EXOME, PFEIFFER_TERMS } from './lib/inputs.ts';
import { benchServerEnv, requestLogLines, serverLogFile } from './lib/server-env.ts';
import { percentile } from './lib/stats.ts';

const root = resolve(import.meta.dirname, '..');

/** A copy of the setup's migrated template (scripts/test-database.setup.ts), its URL. */
async function benchDatabase(): Promise<string> {
  const template = process.env[TEMPLATE_ENV];
  if (!template) throw new Error(`${TEMPLATE_ENV} is not set: the test database setup did not run`);
  const name = `${template}_bench`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  return databaseUrl(name);
}
const sources = process.env.RARELENS_SOURCES ?? resolve(root, '../shared/data');
const argv = process.argv.slice(2);
const opt = (name: string): string | undefined =>
  argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined;
const skipGenome = argv.includes('--skip-genome');
/** --skip-list: upload and time the cases only (no variant-list load; the results file is not written). */
const skipList = argv.includes('--skip-list');
const genomeRecords = opt('--genome-records') ? Number(opt('--genome-records')) : null;
const maxRequests = Number(opt('--requests') ?? 5000);
const maxSeconds = Number(opt('--seconds') ?? 30);
const concurrency = Number(opt('--concurrency') ?? 50);
const reuseDb = opt('--reuse-db');
const apiProcesses = Number(opt('--api-processes') ?? 2);
/** --rerank-rounds N: timed re-rankings of the genome case (0 = none). */
const rerankRounds = Number(opt('--rerank-rounds') ?? 5);
/** --cpu-prof DIR: the API processes write V8 CPU profiles there (where a request's CPU goes). */
const cpuProfDir = opt('--cpu-prof');
/** Shared by the bench's in-process app and the API processes, so one login works on all. */
const JWT_SECRET = randomBytes(32).toString('hex');
const TOKEN_HASH_SECRET = randomBytes(32).toString('hex');
const loadAverage = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');
const kbDir = opt('--kb') ?? process.env.RARELENS_KB ?? resolve(root, 'data/kb');
/**
 * --api-root DIR: start the API processes from another checkout of the repository (an A/B of
 * server code on one database and one load generator, e.g. `git archive main` unpacked with
 * node_modules linked). Default: this checkout.
 */
const apiRoot = resolve(opt('--api-root') ?? root);
/**
 * --api-root-b DIR: an A/B in one load. Every other API process starts from DIR (side B), the
 * others from --api-root (side A); the clients alternate between the processes, so both sides
 * answer the same mix at the same time on the same machine load, and the CPU per request of each
 * side (its API processes, and its PostgreSQL backends told apart by application_name) is
 * reported beside the ratio B/A. Latency is shared by both sides (one database, one CPU).
 */
const apiRootB = opt('--api-root-b') === undefined ? undefined : resolve(opt('--api-root-b')!);
/** The side (A or B) of API process `i`, and its root. */
const sideOf = (i: number): { side: 'A' | 'B'; root: string } => (apiRootB !== undefined && i % 2 === 1 ? { side: 'B', root: apiRootB } : { side: 'A', root: apiRoot });


function log(s: string): void {
  console.log(s);
}

/** Streams a multipart body (fields, then one file from disk) as an http request body. */
async function uploadCase(
  base: string,
  token: string,
  fields: Record<string, string>,
  file: { path: string; name: string },
): Promise<string> {
  const boundary = `----rlbench${randomBytes(8).toString('hex')}`;
  let head = '';
  for (const [k, v] of Object.entries(fields))
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="genomeFile"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(head) + statSync(file.path).size + Buffer.byteLength(tail);
  const url = new URL('/api/products', base);
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': length,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => {
          if (res.statusCode !== 202) reject(new Error(`upload failed: ${res.statusCode} ${body}`));
          else resolvePromise((JSON.parse(body) as { id: string }).id);
        });
      },
    );
    req.on('error', reject);
    req.write(head);
    const fileStream = createReadStream(file.path);
    fileStream.on('error', reject);
    fileStream.on('end', () => req.end(tail));
    fileStream.pipe(req, { end: false });
  });
}

async function getJson<T>(
  base: string,
  token: string,
  path: string,
  agent?: Agent,
): Promise<{ status: number; body: T; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(
      new URL(path, base),
      { headers: { authorization: `Bearer ${token}` }, agent },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () =>
          resolvePromise({
            status: res.statusCode ?? 0,
            body: JSON.parse(body) as T,
            ms: performance.now() - t0,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

interface CaseStatus {
  status: string;
  progress: number;
  error: { reason: string } | null;
  run: { counts: Record<string, number> } | null;
}

async function waitCompleted(
  base: string,
  token: string,
  id: string,
  timeoutMs: number,
): Promise<CaseStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await getJson<CaseStatus>(base, token, `/api/products/${id}`);
    if (r.body.status === 'Completed') return r.body;
    if (r.body.status === 'Error') throw new Error(`case ${id} failed: ${r.body.error?.reason}`);
    if (Date.now() > deadline)
      throw new Error(
        `case ${id} not Completed after ${timeoutMs} ms (status ${r.body.status}, ${r.body.progress}%)`,
      );
    await new Promise((r2) => setTimeout(r2, 200));
  }
}

/** PUT of a JSON body; resolves with the status. */
async function putJson(base: string, token: string, path: string, body: unknown): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(
      new URL(path, base),
      { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        res.resume();
        res.on('end', () => resolvePromise(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A term set unlike PFEIFFER_TERMS (global developmental delay, seizure, hypotonia): every re-rank changes the ranking. */
const OTHER_TERMS: readonly string[] = ['HP:0001263', 'HP:0001250', 'HP:0001252'];

/**
 * Re-ranking the Completed case `caseId` (the product path): PUT new phenotype terms, then poll
 * the case until its run's rankedAt changes (the ranking is written in the transaction that
 * sets it, so the new ranking is what the API answers from then on). One untimed round first
 * (a fresh worker loads its engine on its first job), then `rounds` timed ones, the term sets in
 * turn; between rounds the job's after-commit VACUUM is let finish. The worker's split of each
 * job comes from the run's counts (msRerankRead, msRerankRank, msRerankWrite).
 */
async function measureRerank(databaseUrl: string, base: string, token: string, caseId: string, rounds: number, say: (s: string) => void): Promise<string> {
  interface Run { rankedAt: string | null; counts: Record<string, number> }
  const runOf = async () => (await getJson<{ run: Run | null }>(base, token, `/api/products/${caseId}`)).body.run;
  const rows: { ms: number; put: number; cpu: number; k: Record<string, number>; top: string }[] = [];
  say('');
  say(`re-rank of the genome case (PUT phenotype-terms -> new ranking visible through the API; load average ${loadAverage()}):`);
  say('CPU = this process (API, in-process worker and its analysis thread, the polling) + the PostgreSQL backends of the bench database from the PUT until the ranking is visible: a figure that other load on the machine barely changes');
  say('| round | terms | PUT ms | PUT -> visible ms | CPU ms | worker: read ms | rank ms | write ms | candidates | top genes |');
  say('|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (let i = 0; i <= rounds; i++) {
    const terms = i % 2 === 0 ? OTHER_TERMS : PFEIFFER_TERMS;
    const before = (await runOf())?.rankedAt;
    const db0 = await readDbSide(databaseUrl);
    const cpu0 = processCpuMs(process.pid);
    const t0 = performance.now();
    const status = await putJson(base, token, `/api/products/${caseId}/phenotype-terms`, { hpoTerms: terms, excludedTerms: [] });
    if (status !== 200) throw new Error(`PUT phenotype-terms: HTTP ${status}`);
    const tPut = performance.now();
    let run: Run | null | undefined;
    for (const deadline = Date.now() + 300_000; ; await new Promise((r) => setTimeout(r, 20))) {
      run = await runOf();
      if (run?.rankedAt !== before) break;
      if (Date.now() > deadline) throw new Error('the re-rank did not finish in 5 min');
    }
    const ms = performance.now() - t0;
    const cpu = processCpuMs(process.pid) - cpu0 + dbCpuBetween(db0, await readDbSide(databaseUrl));
    const top = (await getJson<{ items: { symbol: string }[] }>(base, token, `/api/products/${caseId}/genes?pageSize=3`)).body.items.map((g) => g.symbol).join(', ');
    const k = run?.counts ?? {};
    const f = (key: string) => (k[key] === undefined ? '?' : String(k[key]));
    say(`| ${i === 0 ? 'warm-up (untimed)' : i} | ${terms === PFEIFFER_TERMS ? 'Pfeiffer' : 'other'} | ${(tPut - t0).toFixed(0)} | ${ms.toFixed(0)} | ${cpu.toFixed(0)} | ${f('msRerankRead')} | ${f('msRerankRank')} | ${f('msRerankWrite')} | ${f('rerankCandidates')} | ${top} |`);
    if (i > 0) rows.push({ ms, put: tPut - t0, cpu, k, top });
    for (const deadline = Date.now() + 600_000; Date.now() < deadline && !(await jobsIdle()); ) await new Promise((r) => setTimeout(r, 100));
  }
  if (rows.length === 0) return '- genome re-rank: not measured (--rerank-rounds 0)';
  const sorted = rows.map((r) => r.ms).sort((a, b) => a - b);
  const med = percentile(sorted, 50);
  const medOf = (key: string) => {
    const v = rows.map((r) => r.k[key]).filter((x): x is number => x !== undefined).sort((a, b) => a - b);
    return v.length ? percentile(v, 50).toFixed(0) : '?';
  };
  const cpuMed = percentile(rows.map((r) => r.cpu).sort((a, b) => a - b), 50);
  say(`re-rank PUT -> visible: median ${med.toFixed(0)} ms, min ${sorted[0]!.toFixed(0)}, max ${sorted[sorted.length - 1]!.toFixed(0)} over ${rows.length} rounds; CPU median ${cpuMed.toFixed(0)} ms; worker median read ${medOf('msRerankRead')} ms, rank ${medOf('msRerankRank')} ms, write ${medOf('msRerankWrite')} ms`);
  return `- genome re-rank (PUT -> new ranking visible) < 1 s: ${med < 1000 ? 'MET' : 'NOT MET'} (median ${med.toFixed(0)} ms over ${rows.length}; CPU ${cpuMed.toFixed(0)} ms)`;
}

/**
 * The first requests of each list mode in each fresh API process, one at a time, before the load's
 * warm-up: what a user opening a case waits for (per-process caches, such as the clustered view's
 * gene list, are empty). With --api-root-b the processes alternate sides A and B.
 */
const COLD_QUERIES = ['mode=clustered&page=1', 'mode=clustered&page=2', 'mode=clustered&consequence=missense_variant,stop_gained,frameshift_variant&page=1', 'mode=non-clustered&page=1', 'mode=filtered&page=1'];

async function coldRequests(bases: string[], token: string, caseId: string, say: (s: string) => void): Promise<void> {
  say('');
  say(`first requests per fresh API process, one at a time (ms; load average ${loadAverage()}):`);
  say(`| process | ${COLD_QUERIES.join(' | ')} |`);
  say(`|---|${COLD_QUERIES.map(() => '---:').join('|')}|`);
  for (const [i, base] of bases.entries()) {
    const ms: string[] = [];
    for (const q of COLD_QUERIES) {
      const r = await getJson(base, token, `/api/products/${caseId}/variants?${q}`);
      if (r.status !== 200) throw new Error(`GET variants?${q}: HTTP ${r.status}`);
      ms.push(r.ms.toFixed(0));
    }
    say(`| ${i + 1} (${sideOf(i).side}) | ${ms.join(' | ')} |`);
  }
}

let jobsIdle: () => Promise<boolean> = () => Promise.resolve(true);

/** Starts `n` API processes (the product's entry point, no in-process worker) on the database. */
async function startApiProcesses(
  n: number,
  env: Record<string, string>,
  dataDir: string,
): Promise<{ bases: string[]; pids: number[]; stop: () => Promise<void> }> {
  const children: ChildProcess[] = [];
  const bases: string[] = [];
  for (let i = 0; i < n; i++) {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const { side, root: sideRoot } = sideOf(i);
    const child = spawn(
      process.execPath,
      [
        '--max-semi-space-size=64',
        ...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []),
        '--import',
        'tsx',
        join(sideRoot, 'apps/server/src/main.ts'),
      ],
      {
        cwd: sideRoot,
        env: {
          ...process.env,
          ...env,
          // node-postgres names its connections after it: the backends of each side of an A/B.
          PGAPPNAME: `rarelens-bench-${side}`,
          RARELENS_INPROCESS_WORKER: 'false',
          HOST: '127.0.0.1',
          PORT: String(port),
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          RARELENS_DATA_DIR: join(dataDir, `api${i + 1}`),
        },
        // The product's request log (info, one line per request) goes to a file, not this output.
        stdio: ['ignore', serverLogFile(join(dataDir, `api${i + 1}.log`)), 'inherit'],
      },
    );
    children.push(child);
    bases.push(`http://127.0.0.1:${port}`);
  }
  const stop = async () => {
    await Promise.all(
      children.map((c) => {
        if (c.exitCode !== null) return Promise.resolve();
        c.kill('SIGTERM');
        return once(c, 'exit');
      }),
    );
    const lines = children.map((_, i) => requestLogLines(join(dataDir, `api${i + 1}.log`)));
    log(`API request log: ${lines.join(' + ')} request lines in ${join(dataDir, 'api*.log')}`);
  };
  try {
    for (const base of bases) {
      for (let t = Date.now(); ; await new Promise((r) => setTimeout(r, 300))) {
        const ok = await getJson(base, '', '/api/health').then(
          (r) => r.status === 200,
          () => false,
        );
        if (ok) break;
        if (Date.now() - t > 120_000) throw new Error(`API process ${base} did not start`);
      }
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { bases, pids: children.map((c) => c.pid ?? 0), stop };
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat (Linux; NaN
 * elsewhere). Read before and after the load, it gives the API's CPU per request: unlike
 * latency, a figure that the other processes on a loaded machine barely change.
 */
function processCpuMs(pid: number, thread?: number): number {
  try {
    const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
/** USER_HZ of /proc/<pid>/stat: 100 on Linux (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

/**
 * What PostgreSQL does for the load on the bench's database: the CPU of its backends (the server
 * processes serving connections to that database, from /proc/<pid>/stat, read through
 * pg_stat_activity) and the statements it ran (transactions committed and rolled back in
 * pg_stat_database: every statement outside a transaction is one). Read before and after the
 * load: a backend that connected during the load counts from 0, one that left is missed (the
 * pools keep their connections while busy). The cluster's shared background processes
 * (checkpointer, WAL writer) are not counted.
 */
interface DbSide {
  cpuMs: Map<number, number>;
  /** application_name of each backend (the side of an A/B run, startApiProcesses). */
  appOf: Map<number, string>;
  transactions: number;
}
async function readDbSide(databaseUrl: string): Promise<DbSide> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const name = new URL(databaseUrl).pathname.slice(1);
    const backends = await client.query<{ pid: number; application_name: string }>(
      'select pid, application_name from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );
    // pg_stat_database is sampled per transaction: a fresh snapshot.
    await client.query('select pg_stat_clear_snapshot()');
    const tx = await client.query<{ n: string }>(
      'select (xact_commit + xact_rollback)::text as n from pg_stat_database where datname = $1',
      [name],
    );
    return {
      cpuMs: new Map(backends.rows.map((r) => [r.pid, processCpuMs(r.pid)])),
      appOf: new Map(backends.rows.map((r) => [r.pid, r.application_name])),
      transactions: Number(tx.rows[0]?.n ?? NaN),
    };
  } finally {
    await client.end();
  }
}
/**
 * CPU of the database's backends between two readings (ms), of those whose application_name is
 * `app` when given; NaN when /proc is not readable.
 */
function dbCpuBetween(before: DbSide, after: DbSide, app?: string): number {
  let ms = 0;
  for (const [pid, cpu] of after.cpuMs) if (app === undefined || after.appOf.get(pid) === app) ms += cpu - (before.cpuMs.get(pid) ?? 0);
  return ms;
}

/** Closed-loop load: `concurrency` clients, each sending its next request on the previous answer. */
async function measureLatency(
  databaseUrl: string,
  bases: string[],
  pids: number[],
  token: string,
  caseId: string,
  say: (s: string) => void,
  explain: (runId: string) => Promise<void>,
): Promise<string> {
  const base = bases[0]!;
  // The analysis job ends with VACUUM (ANALYZE) after the case turns Completed: let it finish.
  for (const deadline = Date.now() + 600_000; Date.now() < deadline;) {
    if (await jobsIdle()) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const info = await getJson<{ run: { counts: Record<string, number> } | null }>(
    base,
    token,
    `/api/products/${caseId}`,
  );
  const stored = info.body.run?.counts.variantsStored ?? 0;
  // The clients run in a separate process (bench/lib/http-load.ts), not on the server's event loop.
  // It warms the API processes up first; the CPU counters are read when it says `warm`.
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/lib/http-load.ts')], {
    env: {
      ...process.env,
      LOAD_SPEC: JSON.stringify({ bases, token, caseId, concurrency, maxRequests, maxSeconds }),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit') as Promise<[number | null]>;
  let out = '';
  child.stdout.setEncoding('utf8');
  let warm: () => void = () => {};
  const warmedUp = new Promise<void>((r) => (warm = r));
  child.stdout.on('data', (c: string) => {
    out += c;
    if (out.startsWith('warm\n')) warm();
  });
  await Promise.race([warmedUp, exited]);
  const loadBefore = loadAverage();
  const dbBefore = await readDbSide(databaseUrl);
  const cpuBefore = pids.map((pid) => processCpuMs(pid));
  child.stdin.end('go\n');
  const [code] = await exited;
  out = out.replace(/^warm\n/, '');
  if (code !== 0) throw new Error(`load generator exited with ${code}`);
  const load = JSON.parse(out) as {
    samples: Record<string, number[]>;
    perBase: Record<string, number[]>;
    errors: number;
    answered: number;
    answeredPerBase: Record<string, number>;
    elapsed: number;
    cpuMs: number;
  };
  const cpuAfter = pids.map((pid) => processCpuMs(pid));
  const dbAfter = await readDbSide(databaseUrl);
  const loadAfter = loadAverage();
  const samples = new Map<string, number[]>(Object.entries(load.samples));
  const all: number[] = Object.values(load.samples).flat();
  const errors = load.errors;
  const elapsed = load.elapsed;
  all.sort((a, b) => a - b);
  say('');
  say(
    `variant list: ${all.length} requests (${errors} non-200) by ${concurrency} concurrent clients over ${bases.length} API process(es) in ${elapsed.toFixed(1)} s = ${(all.length / elapsed).toFixed(0)} req/s; case has ${stored.toLocaleString('en')} stored variants`,
  );
  say(`load average (1, 5, 15 min) before the load: ${loadBefore}; after: ${loadAfter} (2 cores)`);
  if (pids.length > 0) {
    const cpuMs = pids.reduce((sum, _, i) => sum + (cpuAfter[i]! - cpuBefore[i]!), 0);
    say(
      `API CPU: ${(cpuMs / 1000).toFixed(1)} s over ${pids.length} process(es) for ${load.answered} answered requests (the untimed page before each keyset request included) = ${(cpuMs / load.answered).toFixed(2)} ms CPU per request`,
    );
  }
  const dbCpu = dbCpuBetween(dbBefore, dbAfter);
  const statements = dbAfter.transactions - dbBefore.transactions;
  say(
    `PostgreSQL CPU: ${(dbCpu / 1000).toFixed(1)} s over the ${dbAfter.cpuMs.size} backends of the bench database = ${(dbCpu / load.answered).toFixed(2)} ms CPU per request; ${statements} statements (pg_stat_database transactions, the bench's own readings and pg-boss polling included) = ${(statements / load.answered).toFixed(2)} per request`,
  );
  say(
    `load generator CPU (bench/lib/http-load.ts, bench only, not the product): ${(load.cpuMs / 1000).toFixed(1)} s = ${(load.cpuMs / load.answered).toFixed(2)} ms CPU per request; CPU used per second of load: API ${(pids.reduce((sum, _, i) => sum + (cpuAfter[i]! - cpuBefore[i]!), 0) / 1000 / elapsed).toFixed(2)}, PostgreSQL ${(dbCpu / 1000 / elapsed).toFixed(2)}, load generator ${(load.cpuMs / 1000 / elapsed).toFixed(2)} (of 2 cores)`,
  );
  if (apiRootB !== undefined && pids.length >= 2) {
    // A/B: each side's API CPU, PostgreSQL CPU and answers (processes alternate sides).
    const sides = (['A', 'B'] as const).map((side) => {
      const idx = pids.map((_, i) => i).filter((i) => sideOf(i).side === side);
      const api = idx.reduce((sum, i) => sum + (cpuAfter[i]! - cpuBefore[i]!), 0);
      const answered = idx.reduce((sum, i) => sum + (load.answeredPerBase[bases[i]!] ?? 0), 0);
      const timed = idx.flatMap((i) => load.perBase[bases[i]!] ?? []).sort((x, y) => x - y);
      return { side, root: sideOf(idx[0]!).root, api: api / answered, db: dbCpuBetween(dbBefore, dbAfter, `rarelens-bench-${side}`) / answered, answered, timed };
    });
    for (const x of sides) {
      say(
        `A/B side ${x.side} (${x.root}): ${x.answered} answered; API CPU ${x.api.toFixed(3)} ms per request, PostgreSQL CPU ${x.db.toFixed(3)} ms per request, together ${(x.api + x.db).toFixed(3)}; p50 ${percentile(x.timed, 50).toFixed(1)} ms, p95 ${percentile(x.timed, 95).toFixed(1)} ms (latency shared by both sides)`,
      );
    }
    const [a, b] = sides as [(typeof sides)[0], (typeof sides)[0]];
    say(`A/B ratio B/A of CPU per request: API ${(b.api / a.api).toFixed(3)}, PostgreSQL ${(b.db / a.db).toFixed(3)}, together ${((b.api + b.db) / (a.api + a.db)).toFixed(3)}`);
  }
  say(`| query | n | p50 ms | p95 ms | max ms |`);
  say(`|---|---:|---:|---:|---:|`);
  samples.forEach((ms, name) => {
    ms.sort((a, b) => a - b);
    say(
      `| ${name} | ${ms.length} | ${percentile(ms, 50).toFixed(1)} | ${percentile(ms, 95).toFixed(1)} | ${(ms[ms.length - 1] ?? NaN).toFixed(1)} |`,
    );
  });
  say(
    `| all | ${all.length} | ${percentile(all, 50).toFixed(1)} | ${percentile(all, 95).toFixed(1)} | ${(all[all.length - 1] ?? NaN).toFixed(1)} |`,
  );
  for (const [b, ms] of Object.entries(load.perBase)) {
    ms.sort((x, y) => x - y);
    say(`| (API process ${b}) | ${ms.length} | ${percentile(ms, 50).toFixed(1)} | ${percentile(ms, 95).toFixed(1)} | ${(ms[ms.length - 1] ?? NaN).toFixed(1)} |`);
  }
  const runIds = await getJson<{ run: { id: string } | null }>(base, token, `/api/products/${caseId}`);
  if (runIds.body.run?.id) await explain(runIds.body.run.id);
  const p95 = percentile(all, 95);
  return `- variant list p95 <= 100 ms at ${concurrency} concurrent on >= 1 M stored variants: ${stored >= 1_000_000 ? (p95 <= 100 ? 'MET' : 'NOT MET') : 'NOT MEASURED (fewer than 1 M stored variants)'} (p95 ${p95.toFixed(1)} ms, ${stored.toLocaleString('en')} variants)`;
}

async function main(): Promise<void> {
  const lines: string[] = [];
  const say = (s: string) => {
    log(s);
    lines.push(s);
  };
  say(`# bench:cases ${new Date().toISOString()}`);
  say(`machine: ${formatMachine()}`);
  say(`commit: ${currentCommit()}; command: npm run bench:cases -- ${argv.join(' ')}`);
  if (!existsSync(join(kbDir, 'manifest.json')))
    throw new Error(`no KB at ${kbDir}: run npx rarelens kb build first`);

  // A throw-away database, created and dropped like the integration tests' one (or a kept one).
  const dropDatabase = reuseDb ? () => Promise.resolve() : await setupTestDatabase();
  // The setup migrates a template; the bench works on a copy of it (dropped with it), never on
  // DATABASE_URL's database: on that one, runs piled up from bench to bench and a checkout of
  // another schema version (a base of an interleaved pair) failed on what a newer one migrated.
  const dbUrl = new URL(reuseDb ?? (await benchDatabase()));
  const dbName = dbUrl.pathname.slice(1);
  const dataDir = mkdtempSync(join(tmpdir(), 'rarelens-bench-cases-'));
  const inbox = await startSmtpInbox();
  const server = { dataDir, kbDir, databaseUrl: dbUrl.toString(), smtpUrl: inbox.url };
  const config = loadConfig(benchServerEnv(server, { UPLOAD_MAX_BYTES: String(5 * 1024 ** 3), JWT_SECRET, TOKEN_HASH_SECRET }));
  // Each API process has its own data directory (startApiProcesses).
  const apiEnv = benchServerEnv(server, { JWT_SECRET, TOKEN_HASH_SECRET });
  /** The list load over separate API processes (or this process's app with --api-processes 0). */
  const listLoad = async (base: string, token: string, caseId: string): Promise<string> => {
    const apis = apiProcesses > 0 ? await startApiProcesses(apiProcesses, apiEnv, dataDir) : { bases: [base], pids: [], stop: () => Promise.resolve() };
    try {
      await coldRequests(apis.bases, token, caseId, say);
      return await measureLatency(dbUrl.toString(), apis.bases, apis.pids, token, caseId, say, async (runId) => {
        say('');
        say(`database-side time per query shape (EXPLAIN (ANALYZE, BUFFERS) after the load, load average ${loadAverage()}; the deepest page of each shape; counts and cluster gene lists are computed once per run, ranking and filter and then cached):`);
        say(EXPLAIN_HEAD);
        for (const r of await explainListQueries(dbUrl.toString(), runId)) say(explainLine(r));
      });
    } finally {
      await apis.stop();
    }
  };
  const app = await buildApp({
    config,
    cases: { jobs: { inProcessWorker: true, pollMs: 100 } },
    logStream: createWriteStream(join(dataDir, 'app.log'), { flags: 'a' }),
  });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const addr = app.server.address();
    if (addr === null || typeof addr === 'string') throw new Error('no server address');
    const base = `http://127.0.0.1:${addr.port}`;
    const user = await signUpAndLogIn(app, inbox);
    jobsIdle = async () =>
      (
        await app.database.executeSql(
          "select 1 from pgboss.job where state in ('created', 'retry', 'active') limit 1",
        )
      ).rows.length === 0;
    say(`database: PostgreSQL ${dbName}; KB: ${kbDir}; in-process worker`);
    say('');

    let exomeSecs = NaN;
    let listStats = '';
    let rerankStats = '';
    if (reuseDb) {
      // The kept database's genome case, handed to this run's user (bench only).
      const found = await app.database.executeSql(
        "update products set owner_id = $1 where case_id = 'BENCH-GENOME' and status = 'Completed' returning id",
        [user.userId],
      );
      const row = found.rows[0] as { id: string } | undefined;
      if (!row) throw new Error(`no Completed BENCH-GENOME case in ${dbName}`);
      rerankStats = await measureRerank(dbUrl.toString(), base, user.token, row.id, rerankRounds, say);
      if (!skipList) listStats = await listLoad(base, user.token, row.id);
    } else {
      // 1. Exome.
      const pfeiffer = join(sources, PFEIFFER_EXOME);
      const fields = {
        caseId: 'BENCH-EXOME',
        gender: 'male',
        symptoms: 'Pfeiffer syndrome features',
        hpoTerms: JSON.stringify(PFEIFFER_TERMS),
      };
      // Warm the KB once so the timed run reflects a running server (KB load reported separately).
      const tWarm = performance.now();
      const warmId = await uploadCase(
        base,
        user.token,
        { ...fields, caseId: 'WARM-UP' },
        { path: pfeiffer, name: 'Pfeiffer.hg19.vcf.gz' },
      );
      const warm = await waitCompleted(base, user.token, warmId, 600_000);
      say(
        `exome warm-up (first job, includes KB load ${warm.run?.counts.msEngineLoad ?? '?'} ms): ${((performance.now() - tWarm) / 1000).toFixed(1)} s`,
      );
      const t0 = performance.now();
      const exomeId = await uploadCase(base, user.token, fields, {
        path: pfeiffer,
        name: 'Pfeiffer.hg19.vcf.gz',
      });
      const tUploaded = performance.now();
      const exome = await waitCompleted(base, user.token, exomeId, 600_000);
      exomeSecs = (performance.now() - t0) / 1000;
      const c = exome.run?.counts ?? {};
      const genes = await getJson<{ items: { symbol: string }[] }>(
        base,
        user.token,
        `/api/products/${exomeId}/genes?pageSize=5`,
      );
      say(
        `| case | records | stored variants | upload s | upload -> Completed s | annotate+store s | of which DB insert s | rank s | publish s |`,
      );
      say(`|---|---:|---:|---:|---:|---:|---:|---:|---:|`);
      const row = (name: string, secs: number, up: number, k: Record<string, number>) =>
        `| ${name} | ${k.records ?? '?'} | ${k.variantsStored ?? '?'} | ${up.toFixed(2)} | ${secs.toFixed(1)} | ${((k.msAnnotateAndStore ?? 0) / 1000).toFixed(1)} | ${((k.msInsert ?? 0) / 1000).toFixed(1)} | ${((k.msRank ?? 0) / 1000).toFixed(1)} | ${((k.msPublish ?? 0) / 1000).toFixed(1)} |`;
      say(row('Pfeiffer exome (GRCh37)', exomeSecs, (tUploaded - t0) / 1000, c));
      say(`exome top genes: ${genes.body.items.map((g) => g.symbol).join(', ')}`);
      if (!skipGenome) {
        // 2. Genome-size VCF.
        const genome = await buildGenomeVcf(sources, join(tmpdir(), 'rarelens-bench'), log);
        let genomePath = genome.path;
        let records = genome.records;
        if (genomeRecords !== null && genomeRecords < genome.records) {
          genomePath = join(dataDir, `genome.head${genomeRecords}.vcf`);
          await headVcf(genome.path, genomeRecords, genomePath);
          records = genomeRecords;
        }
        say(
          `genome-size VCF: ${genomePath} (${records.toLocaleString('en')} records, ${(statSync(genomePath).size / 2 ** 20).toFixed(0)} MiB)`,
        );
        // CPU of this process (its job worker: main thread and engine thread) and of the
        // database's backends over the genome's upload -> Completed.
        const gDb0 = await readDbSide(dbUrl.toString());
        const gCpu0 = [processCpuMs(process.pid), processCpuMs(process.pid, process.pid)];
        const g0 = performance.now();
        const genomeId = await uploadCase(
          base,
          user.token,
          {
            caseId: 'BENCH-GENOME',
            gender: 'female',
            symptoms: 'bench',
            hpoTerms: JSON.stringify(PFEIFFER_TERMS),
            assembly: 'GRCh38',
          },
          { path: genomePath, name: genomePath.split('/').pop() ?? 'genome.vcf.gz' },
        );
        const gUp = performance.now();
        const gDone = await waitCompleted(base, user.token, genomeId, 4 * 3600_000);
        say(
          row(
            'genome-size (GRCh38)',
            (performance.now() - g0) / 1000,
            (gUp - g0) / 1000,
            gDone.run?.counts ?? {},
          ),
        );
        const gCpu1 = [processCpuMs(process.pid), processCpuMs(process.pid, process.pid)];
        const gDb1 = await readDbSide(dbUrl.toString());
        say(
          `genome CPU (user+sys) over upload -> Completed: bench process ${((gCpu1[0]! - gCpu0[0]!) / 1000).toFixed(1)} s, of which its main thread ${((gCpu1[1]! - gCpu0[1]!) / 1000).toFixed(1)} s (job loop; the upload client too; COPY text is encoded on the analysis thread on PostgreSQL); PostgreSQL backends of the bench database ${(dbCpuBetween(gDb0, gDb1) / 1000).toFixed(1)} s; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
        );

        for (const deadline = Date.now() + 600_000; Date.now() < deadline && !(await jobsIdle()); ) await new Promise((r) => setTimeout(r, 500));
        rerankStats = await measureRerank(dbUrl.toString(), base, user.token, genomeId, rerankRounds, say);
        if (!skipList) listStats = await listLoad(base, user.token, genomeId);
      }
    }
    say('');
    say('Targets:');
    say(
      Number.isNaN(exomeSecs)
        ? '- exome upload -> Completed: not measured (--reuse-db)'
        : `- exome upload -> Completed <= 15 s: ${exomeSecs <= 15 ? 'MET' : 'NOT MET'} (${exomeSecs.toFixed(1)} s)`,
    );
    say(listStats || `- variant list p95: not measured (${skipList ? '--skip-list' : '--skip-genome'})`);
    say(rerankStats || '- genome re-rank: not measured (--skip-genome)');
    if (!skipList) {
      mkdirSync(join(root, 'bench/results'), { recursive: true });
      writeFileSync(join(root, 'bench/results/cases.latest.md'), `${lines.join('\n')}\n`);
    }
  } finally {
    await app.close();
    await inbox.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (argv.includes('--keep-db')) log(`kept database ${dbUrl.toString()}`);
    else await dropDatabase();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
