/**
 * Soak benchmark (issue 16 item 9): the product as a laptop user runs it — `apps/server/src/main.ts`
 * on the embedded defaults (PGlite, local file storage, in-process worker), or on PostgreSQL with
 * `--postgres` — under mixed load on loopback for a fixed time with a bounded request count:
 * case lists, variant/gene/phenotype lists, re-ranks, reporting list + PDF reports, GenomeTalks
 * questions and new uploads, from several signed-in users at once. It reports every route's
 * p50/p95/max, every error (5xx, or a 4xx the request did not expect), and the server's RSS
 * sampled through the run (start, end, max) to show whether memory stays flat.
 *
 * Usage: npm run bench:soak -- [--seconds 600] [--concurrency 8] [--users 4] [--max-requests 20000] [--postgres]
 *        [--genome-records N]   also upload an N-record genome (GRCh38, built from the reference data) when
 *        the clock starts, and report the latencies of the requests answered while it is analysed
 *        (issue 16 item 5: the API stays responsive while a genome is analysed); a probe asks GET /api/health
 *        every 250 ms throughout, so the table also shows the event loop's own responsiveness
 *        [--mix mixed|reads]   reads = lists only (no uploads, re-ranks, reports or chat), to isolate the genome
 *        [--out FILE]          write the results there instead of bench/results/soak.md
 * The analysis thread follows RARELENS_ANALYSIS_THREAD (on unless set to off), as the product does.
 * Writes bench/results/soak.md. Needs a built KB (RARELENS_KB or data/kb) and RARELENS_SOURCES.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import setupTestDatabase from '../scripts/test-database.setup.ts';
import { freePort, PASSWORD, readVerificationCode, registerBody, uniqueEmail } from '../apps/server/src/testing/helpers.ts';
import { startSmtpInbox } from '../apps/server/src/testing/smtp-inbox.ts';
import { buildGenomeVcf, headVcf } from './lib/genome-vcf.ts';
import { arg, benchInputs, numberArg, PFEIFFER_EXOME, PFEIFFER_TERMS as TERMS, ROOT as root } from './lib/inputs.ts';
import { formatMachine } from './lib/machine.ts';
import { serverLogFile } from './lib/server-env.ts';
import { percentile } from './lib/stats.ts';

const { sources, kbDir } = benchInputs();
const SECONDS = numberArg('--seconds', 600);
const CONCURRENCY = numberArg('--concurrency', 8);
const USERS = numberArg('--users', 4);
const MAX_REQUESTS = numberArg('--max-requests', 20_000);
const MAX_UPLOADS = numberArg('--max-uploads', 12);
const POSTGRES = process.argv.includes('--postgres');
const GENOME_RECORDS = numberArg('--genome-records', 0);
const str = (name: string, fallback: string): string => arg(name) ?? fallback;
const MIX = str('--mix', 'mixed');
if (MIX !== 'mixed' && MIX !== 'reads') throw new Error('--mix must be mixed or reads');
const OUT = resolve(str('--out', resolve(import.meta.dirname, 'results/soak.md')));
const READ_ROUTES = new Set(['GET /api/products', 'GET /api/products/:id/variants', 'GET /api/products/:id/genes', 'GET /api/products/:id/phenotypes']);
const EXOME = join(sources, PFEIFFER_EXOME);
const QUESTIONS = ['Which gene is most likely and why?', 'What should I examine next?', 'What could the analysis not see?', 'Tell me about FGFR2'];

const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;


interface Answer {
  status: number;
  body: Buffer;
  ms: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 });
let base = '';

function send(method: string, path: string, opts: { token?: string; json?: unknown; raw?: Buffer; contentType?: string; accept?: string; agent?: Agent } = {}): Promise<Answer> {
  const t0 = performance.now();
  const payload = opts.raw ?? (opts.json === undefined ? undefined : Buffer.from(JSON.stringify(opts.json)));
  return new Promise((ok, fail) => {
    const req = httpRequest(
      new URL(path, base),
      {
        method,
        agent: opts.agent ?? agent,
        headers: {
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...(opts.accept ? { accept: opts.accept } : {}),
          ...(payload ? { 'content-type': opts.contentType ?? 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, body: Buffer.concat(parts), ms: performance.now() - t0 }));
      },
    );
    req.on('error', fail);
    req.end(payload);
  });
}

const json = <T>(a: Answer): T => JSON.parse(a.body.toString('utf8')) as T;

function uploadBody(caseId: string, genome: Buffer, fileName = 'Pfeiffer.hg19.vcf.gz'): { raw: Buffer; contentType: string } {
  const boundary = `----rlsoak${randomBytes(8).toString('hex')}`;
  const fields: Record<string, string> = { caseId, gender: 'male', symptoms: 'Craniosynostosis, broad thumbs and toe syndactyly', hpoTerms: JSON.stringify(TERMS) };
  let head = '';
  for (const [k, v] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="genomeFile"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return { raw: Buffer.concat([Buffer.from(head), genome, Buffer.from(`\r\n--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

interface User {
  token: string;
  cases: string[];
  /** Variant ids of each case's first page (for the reporting list). */
  variants: Map<string, number[]>;
}

async function waitCompleted(user: User, id: string, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(500)) {
    const r = await send('GET', `/api/products/${id}`, { token: user.token });
    const status = json<{ status: string; errorReason?: string | null }>(r);
    if (status.status === 'Completed') return;
    if (status.status === 'Error') throw new Error(`case ${id} ended in Error: ${status.errorReason ?? ''}`);
  }
  throw new Error(`case ${id} did not complete in ${timeoutMs} ms`);
}

async function main(): Promise<void> {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
  const scratch = mkdtempSync(join(tmpdir(), 'rl-soak-'));
  const inbox = await startSmtpInbox();
  const dropDb = POSTGRES ? await setupTestDatabase() : null;
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, [...(process.env.SOAK_NODE_ARGS ? process.env.SOAK_NODE_ARGS.split(' ') : []), '--max-semi-space-size=64', '--import', 'tsx', join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      RARELENS_DATA_DIR: scratch,
      RARELENS_KB: kbDir,
      RARELENS_WEB_DIST: join(scratch, 'no-web'),
      SMTP_URL: inbox.url,
      // Every client is on 127.0.0.1: the per-IP auth limit would count them as one visitor.
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      DATABASE_URL: POSTGRES ? process.env.DATABASE_URL : '',
    },
    // The product's default log level (one line per request) to a file, not this output.
    stdio: ['ignore', serverLogFile(join(scratch, 'server.log')), 'inherit'],
  });
  const pid = server.pid!;
  const rss: { t: number; mib: number }[] = [];
  const samples = new Map<string, number[]>();
  const errors: string[] = [];
  let requests = 0;
  let uploads = 0;
  try {
    for (let deadline = Date.now() + 180_000; ; await sleep(500)) {
      const ok = await send('GET', '/api/health').then((r) => r.status === 200, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error('the server did not become healthy');
    }
    log(`server up on ${base} (${POSTGRES ? 'PostgreSQL' : 'PGlite'}, pid ${pid}); signing up ${USERS} users`);
    const genome = readFileSync(EXOME);
    const users: User[] = [];
    for (let i = 0; i < USERS; i++) {
      const email = uniqueEmail(`soak${i}`);
      const reg = await send('POST', '/api/auth/register', { json: registerBody(email) });
      if (reg.status !== 201) throw new Error(`register: ${reg.status} ${reg.body.toString()}`);
      const code = await readVerificationCode(inbox, email);
      await send('POST', '/api/auth/verify', { json: { email, code } });
      const login = json<{ token: string }>(await send('POST', '/api/auth/login', { json: { email, password: PASSWORD } }));
      users.push({ token: login.token, cases: [], variants: new Map() });
    }
    // One completed case per user before the clock starts.
    for (const [i, u] of users.entries()) {
      const r = await send('POST', '/api/products', { token: u.token, ...uploadBody(`SOAK-${i}-0`, genome) });
      if (r.status !== 202) throw new Error(`upload: ${r.status} ${r.body.toString()}`);
      u.cases.push(json<{ id: string }>(r).id);
      uploads++;
    }
    for (const u of users) await waitCompleted(u, u.cases[0]!, 600_000);
    log('first cases completed; soak starts');

    // A genome analysed under the load: requests answered meanwhile are tallied apart.
    const during = new Map<string, number[]>();
    let genomeState: 'none' | 'running' | 'done' = 'none';
    let genomeSeconds = NaN;
    let genomeUpload: Promise<void> = Promise.resolve();
    if (GENOME_RECORDS > 0) {
      const g = await buildGenomeVcf(sources, join(tmpdir(), 'rarelens-bench'), log);
      const path = join(scratch, `genome.head${GENOME_RECORDS}.vcf`);
      await headVcf(g.path, GENOME_RECORDS, path);
      const body = uploadBody('SOAK-GENOME', readFileSync(path), 'genome.vcf');
      genomeState = 'running';
      const g0 = Date.now();
      genomeUpload = (async () => {
        const r = await send('POST', '/api/products', { token: users[0]!.token, ...body });
        if (r.status !== 202) throw new Error(`genome upload: ${r.status} ${r.body.toString()}`);
        await waitCompleted(users[0]!, json<{ id: string }>(r).id, 1_800_000);
        genomeSeconds = (Date.now() - g0) / 1000;
        genomeState = 'done';
        log(`genome of ${GENOME_RECORDS} records completed in ${genomeSeconds.toFixed(0)} s`);
      })().catch((e: unknown) => {
        genomeState = 'done';
        errors.push(`genome: ${String(e)}`);
      });
    }

    const record = (route: string, a: Answer, expected: number[]): void => {
      requests++;
      (samples.get(route) ?? samples.set(route, []).get(route)!).push(a.ms);
      if (genomeState === 'running') (during.get(route) ?? during.set(route, []).get(route)!).push(a.ms);
      if (!expected.includes(a.status)) errors.push(`${route}: ${a.status} ${a.body.toString('utf8').slice(0, 200)}`);
    };
    const ops: { route: string; weight: number; run: (u: User) => Promise<void> }[] = [
      { route: 'GET /api/products', weight: 20, run: async (u) => record('GET /api/products', await send('GET', '/api/products', { token: u.token }), [200]) },
      {
        route: 'GET /api/products/:id/variants',
        weight: 20,
        run: async (u) => {
          const id = pick(u.cases);
          const r = await send('GET', `/api/products/${id}/variants?mode=${pick(['filtered', 'non-clustered'])}&page=${1 + Math.floor(Math.random() * 5)}`, { token: u.token });
          record('GET /api/products/:id/variants', r, [200]);
          if (r.status === 200 && !u.variants.has(id)) u.variants.set(id, json<{ items: { id: number }[] }>(r).items.map((v) => v.id));
        },
      },
      { route: 'GET /api/products/:id/genes', weight: 12, run: async (u) => record('GET /api/products/:id/genes', await send('GET', `/api/products/${pick(u.cases)}/genes?page=1`, { token: u.token }), [200]) },
      { route: 'GET /api/products/:id/phenotypes', weight: 12, run: async (u) => record('GET /api/products/:id/phenotypes', await send('GET', `/api/products/${pick(u.cases)}/phenotypes?page=1`, { token: u.token }), [200]) },
      {
        route: 'PUT /api/products/:id/phenotype-terms (re-rank)',
        weight: 3,
        run: async (u) => {
          const terms = TERMS.filter(() => Math.random() < 0.7);
          const r = await send('PUT', `/api/products/${pick(u.cases)}/phenotype-terms`, { token: u.token, json: { hpoTerms: terms.length > 0 ? terms : TERMS, excludedTerms: [] } });
          record('PUT /api/products/:id/phenotype-terms (re-rank)', r, [200, 409]);
        },
      },
      {
        route: 'POST /api/products/:id/reports (PDF)',
        weight: 4,
        run: async (u) => {
          const id = pick(u.cases);
          const variantId = u.variants.get(id)?.[0];
          if (variantId !== undefined) record('POST /api/products/:id/report-items', await send('POST', `/api/products/${id}/report-items`, { token: u.token, json: { variantId } }), [201, 409]);
          record('POST /api/products/:id/reports (PDF)', await send('POST', `/api/products/${id}/reports`, { token: u.token, json: {} }), [201]);
        },
      },
      {
        route: 'POST /api/products/:id/chat',
        weight: 8,
        run: async (u) => record('POST /api/products/:id/chat', await send('POST', `/api/products/${pick(u.cases)}/chat`, { token: u.token, json: { message: pick(QUESTIONS) } }), [200]),
      },
      {
        route: 'POST /api/products (upload)',
        weight: 2,
        run: async (u) => {
          if (uploads >= MAX_UPLOADS) return;
          uploads++;
          const r = await send('POST', '/api/products', { token: u.token, ...uploadBody(`SOAK-${randomBytes(3).toString('hex')}`, genome) });
          record('POST /api/products (upload)', r, [202]);
          // Only completed cases join the read mix; the rest of the analysis runs under the load.
          if (r.status === 202) {
            const id = json<{ id: string }>(r).id;
            void waitCompleted(u, id, 900_000).then(
              () => u.cases.push(id),
              (e: unknown) => errors.push(`upload ${id}: ${String(e)}`),
            );
          }
        },
      },
    ];
    if (MIX === 'reads') ops.splice(0, ops.length, ...ops.filter((o) => READ_ROUTES.has(o.route)));
    const total = ops.reduce((s, o) => s + o.weight, 0);
    const choose = () => {
      let x = Math.random() * total;
      for (const o of ops) if ((x -= o.weight) < 0) return o;
      return ops[0]!;
    };
    const t0 = Date.now();
    const end = t0 + SECONDS * 1000;
    rss.push({ t: 0, mib: rssMiB(pid) });
    const sampler = setInterval(() => rss.push({ t: (Date.now() - t0) / 1000, mib: rssMiB(pid) }), 10_000);
    // The event loop's own responsiveness: one GET /api/health at a time, 250 ms after the last
    // answer, on its own connection (closed loop, so a slow answer is not hidden by a backlog).
    let probing = true;
    const probeLoop = (async () => {
      const route = 'GET /api/health (probe every 250 ms)';
      while (probing) {
        const a = await send('GET', '/api/health', { agent: probeAgent }).catch(() => null);
        if (a) {
          (samples.get(route) ?? samples.set(route, []).get(route)!).push(a.ms);
          if (genomeState === 'running') (during.get(route) ?? during.set(route, []).get(route)!).push(a.ms);
        }
        await sleep(250);
      }
    })();
    const progress = setInterval(() => log(`${requests} requests, ${errors.length} errors, RSS ${rssMiB(pid).toFixed(0)} MiB`), 60_000);
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, i) => {
        const u = users[i % users.length]!;
        while (Date.now() < end && requests < MAX_REQUESTS) {
          const op = choose();
          await op.run(u).catch((e: unknown) => {
            requests++;
            errors.push(`${op.route}: ${String(e)}`);
          });
        }
      }),
    );
    await genomeUpload;
    clearInterval(sampler);
    probing = false;
    await probeLoop;
    clearInterval(progress);
    rss.push({ t: (Date.now() - t0) / 1000, mib: rssMiB(pid) });
    const elapsed = (Date.now() - t0) / 1000;

    const tableOf = (tally: Map<string, number[]>) =>
      [...tally.entries()]
        .sort((a, b) => a[0].localeCompare(b[0]))
        .map(([route, ms]) => {
          const s = [...ms].sort((a, b) => a - b);
          return `| ${route} | ${s.length} | ${percentile(s, 50).toFixed(0)} | ${percentile(s, 95).toFixed(0)} | ${(s[s.length - 1] ?? NaN).toFixed(0)} |`;
        });
    const rows = tableOf(samples);
    const allDuring = [...during.entries()].filter(([r]) => !r.startsWith('GET /api/health')).flatMap(([, ms]) => ms).sort((a, b) => a - b);
    const genomeSection =
      GENOME_RECORDS > 0
        ? [
            '',
            `## While a ${GENOME_RECORDS.toLocaleString('en')}-record genome was analysed (${Number.isNaN(genomeSeconds) ? 'did not complete' : `upload to Completed ${genomeSeconds.toFixed(0)} s`})`,
            '',
            `All load routes (probe excluded): ${allDuring.length} requests, p50 ${percentile(allDuring, 50).toFixed(0)} ms, p95 ${percentile(allDuring, 95).toFixed(0)} ms, max ${(allDuring[allDuring.length - 1] ?? NaN).toFixed(0)} ms.`,
            '',
            '| route | requests | p50 ms | p95 ms | max ms |',
            '|---|---|---|---|---|',
            ...tableOf(during),
          ]
        : [];
    const maxRss = Math.max(...rss.map((r) => r.mib));
    const md = [
      '# Soak: mixed load on one server process',
      '',
      `Command: \`npm run bench:soak -- --seconds ${SECONDS} --concurrency ${CONCURRENCY} --users ${USERS} --max-requests ${MAX_REQUESTS}${POSTGRES ? ' --postgres' : ''}${GENOME_RECORDS > 0 ? ` --genome-records ${GENOME_RECORDS}` : ''}${MIX === 'mixed' ? '' : ` --mix ${MIX}`}\` with RARELENS_ANALYSIS_THREAD=${process.env.RARELENS_ANALYSIS_THREAD ?? '(unset: on)'}`,
      `Commit: ${commit}. Configuration: apps/server/src/main.ts on ${POSTGRES ? 'PostgreSQL' : 'the embedded defaults (PGlite, local storage, in-process worker)'}, the default log level (info, to a file), the real engine and KB (${kbDir.replace(root, '.')}). Data: ${EXOME.replace(sources, 'RARELENS_SOURCES')} as every upload, HPO terms ${TERMS.join(', ')}.`,
      `Machine: ${formatMachine()}.`,
      '',
      `${requests} requests in ${elapsed.toFixed(0)} s from ${CONCURRENCY} closed-loop clients (${USERS} users), ${uploads} uploads. **Errors: ${errors.length}.**`,
      `Server RSS: start ${rss[0]!.mib.toFixed(0)} MiB, end ${rss[rss.length - 1]!.mib.toFixed(0)} MiB, max ${maxRss.toFixed(0)} MiB (sampled every 10 s: ${rss.map((r) => r.mib.toFixed(0)).join(', ')}).`,
      '',
      '| route | requests | p50 ms | p95 ms | max ms |',
      '|---|---|---|---|---|',
      ...rows,
      ...genomeSection,
      '',
      errors.length > 0 ? `First errors:\n\n${errors.slice(0, 20).map((e) => `- ${e}`).join('\n')}` : '',
    ].join('\n');
    writeFileSync(OUT, `${md}\n`);
    console.log(md);
    process.exitCode = errors.length === 0 ? 0 : 1;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await inbox.close();
    if (dropDb) await dropDb();
    // SOAK_KEEP_DATA=1 keeps the server's data directory (PGlite store, files) for inspection.
    if (process.env.SOAK_KEEP_DATA === '1') log(`data kept in ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
