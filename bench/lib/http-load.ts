/**
 * Closed-loop HTTP load generator for bench:cases, run as its own process so the clients do
 * not share the server's event loop: `concurrency` clients on loopback, each sending its
 * next variant-list request when the previous answer arrived, until `maxRequests` or
 * `maxSeconds`. Input: JSON in the LOAD_SPEC environment variable. Output: one JSON line.
 */
import { Agent, request } from 'node:http';

interface Spec {
  base: string;
  token: string;
  caseId: string;
  concurrency: number;
  maxRequests: number;
  maxSeconds: number;
}

const spec = JSON.parse(process.env.LOAD_SPEC ?? '{}') as Spec;
const rnd = (n: number): number => 1 + Math.floor(Math.random() * n);
const v = `/api/products/${spec.caseId}/variants`;
const queries: { name: string; path: () => string }[] = [
  { name: 'page 1', path: () => `${v}?mode=non-clustered&page=1` },
  { name: 'random page <= 1000', path: () => `${v}?mode=non-clustered&page=${rnd(1000)}` },
  {
    name: 'filtered (maxAf+acmg)',
    path: () =>
      `${v}?mode=filtered&maxAf=0.01&acmg=Uncertain%20significance,Likely%20pathogenic,Pathogenic&page=${rnd(20)}`,
  },
  {
    name: 'filtered (consequence)',
    path: () =>
      `${v}?mode=filtered&consequence=missense_variant,stop_gained,frameshift_variant&page=${rnd(20)}`,
  },
  {
    name: 'filtered (zygosity)',
    path: () => `${v}?mode=filtered&zygosity=homozygous&page=${rnd(20)}`,
  },
  { name: 'candidates (filtered, default)', path: () => `${v}?mode=filtered&page=${rnd(20)}` },
];

const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });

function get(path: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, spec.base),
      { headers: { authorization: `Bearer ${spec.token}` }, agent },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const samples: Record<string, number[]> = Object.fromEntries(
  queries.map((q) => [q.name, [] as number[]]),
);
let sent = 0;
let errors = 0;
const deadline = performance.now() + spec.maxSeconds * 1000;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: spec.concurrency }, async (_, worker) => {
    let i = worker;
    while (sent < spec.maxRequests && performance.now() < deadline) {
      sent++;
      const q = queries[i++ % queries.length];
      if (q === undefined) break;
      const r = await get(q.path());
      if (r.status !== 200) errors++;
      samples[q.name]?.push(r.ms);
    }
  }),
);
agent.destroy();
process.stdout.write(
  `${JSON.stringify({ samples, errors, elapsed: (performance.now() - t0) / 1000 })}\n`,
);
