/**
 * Closed-loop HTTP load generator for bench:cases, run as its own process so the clients do
 * not share the server's event loop: `concurrency` clients on loopback, each sending its
 * next variant-list request when the previous answer arrived, until `maxRequests` or
 * `maxSeconds`. Requests go round-robin to the API processes in `bases` (several processes on
 * one database). The query mix is bench/lib/list-queries.ts; a keyset query first reads the
 * page before (not timed) and then times the request with that page's nextCursor, as the web
 * app asks for the next page. Before the clock starts every query shape is asked twice of each
 * API process (warm-up, not counted); then a line `warm` on stdout, and the load starts at the next line on
 * stdin. Input: JSON in the LOAD_SPEC environment variable. Output: `warm`, then one
 * JSON line with the latencies per query and per API process, the number of answers
 * (timed and untimed; in all and per API process) and this process's CPU time.
 */
import { Agent, request } from 'node:http';
import { LIST_QUERIES } from './list-queries.ts';

interface Spec {
  bases: string[];
  token: string;
  caseId: string;
  concurrency: number;
  maxRequests: number;
  maxSeconds: number;
}

const spec = JSON.parse(process.env.LOAD_SPEC ?? '{}') as Spec;
const rnd = (n: number): number => 1 + Math.floor(Math.random() * n);
const v = `/api/products/${spec.caseId}/variants`;

const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });

const headers = { authorization: `Bearer ${spec.token}` };
/** Where each API process listens, parsed once (not a URL per request). */
const targets = new Map(spec.bases.map((b) => [b, { hostname: new URL(b).hostname, port: Number(new URL(b).port) }]));

/**
 * One GET; the body is decoded only when asked for (the page before a keyset request), else the
 * answer is read and dropped: the load generator is part of the bench, not of the product, and
 * shares the 2 cores with the API processes and PostgreSQL.
 */
function get(base: string, path: string, wantBody = false): Promise<{ status: number; ms: number; body: string }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ ...targets.get(base), path, headers, agent }, (res) => {
      let body = '';
      if (wantBody) {
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
      } else res.resume();
      res.on('end', () => {
        answered++;
        answeredPerBase[base] = (answeredPerBase[base] ?? 0) + 1;
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const samples: Record<string, number[]> = Object.fromEntries(LIST_QUERIES.map((q) => [q.name, [] as number[]]));
const perBase: Record<string, number[]> = Object.fromEntries(spec.bases.map((b) => [b, [] as number[]]));
let sent = 0;
/** Every request answered, the untimed page before a keyset request included (API CPU per request). */
let answered = 0;
/** The same per API process (an A/B run compares the CPU per request of its two sides). */
let answeredPerBase: Record<string, number> = {};
let errors = 0;
let next = 0;
// Warm-up, not measured: every query shape twice on each API process (JIT, prepared statements,
// the per-run count and cluster caches), so the CPU per request below is the steady state.
for (const base of spec.bases) {
  for (let round = 0; round < 2; round++) {
    await Promise.all(LIST_QUERIES.map((q) => get(base, `${v}?${q.query(rnd(q.pages))}`)));
  }
}
answered = 0;
answeredPerBase = {};
// Tell the bench that the warm-up is over (it reads the CPU counters) and wait for its go.
process.stdout.write('warm\n');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
process.stdin.pause();
const deadline = performance.now() + spec.maxSeconds * 1000;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
await Promise.all(
  Array.from({ length: spec.concurrency }, async (_, worker) => {
    let i = worker;
    while (sent < spec.maxRequests && performance.now() < deadline) {
      sent++;
      const q = LIST_QUERIES[i++ % LIST_QUERIES.length];
      const base = spec.bases[next++ % spec.bases.length];
      if (q === undefined || base === undefined) break;
      let path = `${v}?${q.query(rnd(q.pages))}`;
      if (q.keyset) {
        const page = 1 + rnd(Math.max(1, q.pages - 1));
        const before = await get(base, `${v}?${q.query(page - 1)}`, true);
        const cursor = before.status === 200 ? (JSON.parse(before.body) as { nextCursor?: string | null }).nextCursor : null;
        if (!cursor) {
          errors++;
          continue;
        }
        path = `${v}?${q.query(page)}&after=${cursor}`;
      }
      const r = await get(base, path);
      if (r.status !== 200) errors++;
      samples[q.name]?.push(r.ms);
      perBase[base]?.push(r.ms);
    }
  }),
);
agent.destroy();
const elapsed = (performance.now() - t0) / 1000;
// This process's own CPU (user + system, ms) during the load: the load generator's share of the machine.
const cpu = process.cpuUsage(cpu0);
process.stdout.write(`${JSON.stringify({ samples, perBase, errors, answered, answeredPerBase, elapsed, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
