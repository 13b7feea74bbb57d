/**
 * GenomeTalks benchmark (issue 11 item 6): spiked exomes from the development split
 * (../shared/bench/phenopackets-dev.jsonl.gz; the causal variants spiked into the Pfeiffer
 * background as in bench/rank-spiked.ts), a deterministic sample (every k-th eligible case),
 * each uploaded to the real server in-process (buildApp, PostgreSQL, in-process worker, real
 * engine and KB) and analysed to Completed. Question-answer pairs are generated from what the
 * case API returns (genes, variants, phenotypes, gene details) and asked through
 * POST /api/products/:id/chat. Checks: the answer contains the expected fact; every citation
 * exists in the case; latency per question.
 *
 * Latency is measured twice: with every case analysed (the answer path alone), and while the
 * same process analyses --busy-cases more (the embedded worker storing results beside the API).
 *
 * Usage: npm run bench:chat -- [--cases N] [--busy-cases N] [--kb DIR]
 */
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import setupTestDatabase from '../scripts/test-database.setup.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/env.ts';
import { signUpAndLogIn } from '../apps/server/src/testing/helpers.ts';
import { startSmtpInbox } from '../apps/server/src/testing/smtp-inbox.ts';
import { multipartBody, waitForStatus } from '../apps/server/src/testing/multipart.ts';
import { formatMachine } from './lib/machine.ts';
import { bare, buildBackground, cmp, writeVcf, type Rec, type SpikeCase } from './rank-spiked.ts';
import { benchServerEnv } from './lib/server-env.ts';
import { percentile } from './lib/stats.ts';

const root = resolve(import.meta.dirname, '..');
const sources = process.env.RARELENS_SOURCES ?? resolve(root, '../shared/data');
const benchDir = resolve(root, '../shared/bench');
const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const nCases = Number(opt('--cases') ?? 14);
const nBusy = Number(opt('--busy-cases') ?? 3);
const kbDir = opt('--kb') ?? process.env.RARELENS_KB ?? resolve(root, 'data/kb');

interface TermRef { id: string; label: string }
interface GeneRow { symbol: string; inheritance: string[]; topDisease: TermRef | null }
interface VariantRow { id: number; rank: number | null; gene: string | null; hgvsC: string | null; hgvsP: string | null; acmg: string; consequence: string | null }
interface PhenotypeRow { id: string; name: string; inheritance: TermRef[]; genes: string[]; matchedTerms: { id: string; label: string; match: string }[] }
interface Citation { kind: string; id: string; label: string; href: string }
interface Pair { type: string; question: string; expected: string }

const GT_OF: Record<string, string> = { heterozygous: '0/1', homozygous: '1/1', hemizygous: '1/1' };
const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ');

/** Question-answer pairs from the case's own API results (never from the phenopacket's truth). */
function makePairs(genes: GeneRow[], variants: VariantRow[], phenos: PhenotypeRow[]): Pair[] {
  const pairs: Pair[] = [];
  const top = genes[0];
  if (top) {
    pairs.push({ type: 'top-gene', question: 'Which gene is most likely causal in this case?', expected: top.symbol });
    pairs.push({ type: 'top-gene', question: 'What is the best candidate?', expected: top.symbol });
  }
  if (phenos[0]) pairs.push({ type: 'top-disease', question: 'Which disease is the most likely diagnosis?', expected: phenos[0].name });
  for (const g of genes.slice(0, 3)) {
    const v = variants.find((x) => x.gene === g.symbol);
    if (v) pairs.push({ type: 'gene-variant-acmg', question: `What is the variant in ${g.symbol}?`, expected: v.acmg });
    if (v?.hgvsC) pairs.push({ type: 'variant-hgvs', question: `Tell me about ${g.symbol}:${v.hgvsC}`, expected: v.acmg });
    const d = phenos.find((p) => p.genes.includes(g.symbol) && p.matchedTerms.some((t) => t.match === 'exact'));
    const term = d?.matchedTerms.find((t) => t.match === 'exact');
    if (term) pairs.push({ type: 'gene-why', question: `Why is ${g.symbol} ranked where it is?`, expected: term.label });
  }
  for (const p of phenos.slice(0, 3)) {
    const inh = p.inheritance[0];
    if (inh) pairs.push({ type: 'disease-inheritance', question: `What is the inheritance of ${p.name}?`, expected: inh.label });
  }
  const termDone = new Set<string>();
  for (const p of phenos.slice(0, 5)) {
    for (const t of p.matchedTerms.filter((x) => x.match === 'exact')) {
      if (termDone.has(t.id) || termDone.size >= 2) continue;
      termDone.add(t.id);
      // Expected: the best-ranked disease that matches the symptom exactly.
      pairs.push({ type: 'symptom', question: `Which diseases explain the ${t.label.toLowerCase()}?`, expected: p.name });
    }
  }
  if (genes[0] && genes[1]) pairs.push({ type: 'compare', question: `Compare ${genes[0].symbol} and ${genes[1].symbol}`, expected: genes[0].symbol });
  return pairs;
}

async function main(): Promise<void> {
  const lines: string[] = [];
  const say = (s: string): void => {
    console.log(s);
    lines.push(s);
  };
  const commit = execSync('git rev-parse --short HEAD', { cwd: root }).toString().trim();
  const manifest = JSON.parse(readFileSync(join(kbDir, 'manifest.json'), 'utf8')) as { builtAt?: string; softwareVersion?: string; sources?: { name: string; version: string }[] };
  say(`# bench:chat ${new Date().toISOString()}`);
  say('');
  say(`commit ${commit}; machine: ${formatMachine()}`);
  say(`configuration: no LLM (built-in answers), in-process server (buildApp + PostgreSQL + in-process worker), ${nCases} cases requested`);
  say(`data: KB ${kbDir} (built ${manifest.builtAt ?? '?'}, ${manifest.softwareVersion ?? '?'}; ${(manifest.sources ?? []).map((x) => `${x.name} ${x.version}`).join(', ')}); cases ../shared/bench/phenopackets-dev.jsonl.gz spiked into Pfeiffer.hg19 lifted to GRCh38`);

  const cases = gunzipSync(readFileSync(join(benchDir, 'phenopackets-dev.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as SpikeCase);
  const eligible = cases.filter((c) => c.genes.length && c.hpo_present.length && c.variants.some((v) => v.chrom && v.pos && v.ref && v.alt));
  const step = Math.max(1, Math.floor(eligible.length / nCases));
  const chosen = Array.from({ length: Math.min(nCases, eligible.length) }, (_, i) => eligible[i * step]).filter((c): c is SpikeCase => c != null);
  // Cases analysed while questions are asked (phase 2): halfway between the chosen ones.
  const busy = Array.from({ length: Math.min(nBusy, eligible.length) }, (_, i) => eligible[i * step + Math.floor(step / 2)]).filter((c): c is SpikeCase => c != null && !chosen.includes(c));
  say(`cases: ${chosen.length} of ${eligible.length} eligible (every ${step}th, file order); ${busy.length} more analysed during phase 2`);
  const bg = await buildBackground(sources);

  const dropDatabase = await setupTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'rarelens-bench-chat-'));
  const inbox = await startSmtpInbox();
  const config = loadConfig(
    benchServerEnv({ dataDir, kbDir, databaseUrl: process.env.DATABASE_URL ?? '', smtpUrl: inbox.url }, { CHAT_RATE_LIMIT_PER_MINUTE: '100000', RARELENS_MAX_ACTIVE_ANALYSES: '1000' }),
  );
  // The product's own chat knowledge (the app's KB, loaded when the server is ready); no LLM.
  // The product's default log level; its lines go to a file, not this output.
  const app: FastifyInstance = await buildApp({ config, cases: { jobs: { inProcessWorker: true, pollMs: 100 } }, chat: { env: {} }, logStream: createWriteStream(join(dataDir, 'app.log'), { flags: 'a' }) });
  const byType = new Map<string, { n: number; ok: number; ms: number[] }>();
  const failures: string[] = [];
  const latencies: number[] = [];
  const busyLatencies: number[] = [];
  const openLatencies: number[] = [];
  let badCitations = 0;
  let totalCitations = 0;
  try {
    await app.ready();
    const user = await signUpAndLogIn(app, inbox);
    const headers = { authorization: `Bearer ${user.token}` };
    const get = async <T>(url: string): Promise<T> => (await app.inject({ method: 'GET', url, headers })).json<T>();
    const upload = async (c: SpikeCase): Promise<string | null> => {
      const spiked: Rec[] = c.variants
        .filter((v) => v.chrom && v.pos && v.ref && v.alt)
        .map((v) => ({ chrom: bare(v.chrom ?? ''), pos: v.pos ?? 0, ref: v.ref ?? '', alt: v.alt ?? '', gt: GT_OF[v.zygosity] ?? '0/1' }));
      const key = (r: Rec): string => `${r.chrom}:${r.pos}:${r.ref}:${r.alt}`;
      const keys = new Set(spiked.map(key));
      const recs = bg.recs.filter((r) => !keys.has(key(r))).concat(spiked).sort(cmp);
      const path = join(dataDir, 'case.vcf');
      writeVcf(path, recs);
      const sex = c.sex?.toLowerCase() === 'male' ? 'male' : 'female'; // unknown sex: the form only takes male or female
      const { body, contentType } = multipartBody(
        { caseId: c.id.slice(0, 40), gender: sex, symptoms: 'bench', hpoTerms: JSON.stringify(c.hpo_present), assembly: 'GRCh38' },
        [{ field: 'genomeFile', name: 'case.vcf', content: readFileSync(path) }],
      );
      const res = await app.inject({ method: 'POST', url: '/api/products', headers: { ...headers, 'content-type': contentType }, payload: body });
      if (res.statusCode !== 202) {
        say(`- ${c.id}: upload rejected ${res.statusCode} ${res.body.slice(0, 200)}`);
        return null;
      }
      return res.json<{ id: string }>().id;
    };
    const ids: { c: SpikeCase; id: string }[] = [];
    for (const c of chosen) {
      const id = await upload(c);
      if (id) ids.push({ c, id });
    }
    // Phase 1: every case analysed first, so the figures are those of answering (the in-process
    // worker idle); phase 2 below asks while the same process analyses other cases.
    const asked: { c: SpikeCase; id: string; pairs: Pair[] }[] = [];
    for (const { c, id } of ids) {
      const done = await waitForStatus(app, headers, id, ['Completed', 'Error'], 600_000);
      if (done.status !== 'Completed') {
        say(`- ${c.id}: analysis ${done.status}`);
        continue;
      }
      const genes = (await get<{ items: GeneRow[] }>(`/api/products/${id}/genes?pageSize=100`)).items;
      const variants = (await get<{ items: VariantRow[] }>(`/api/products/${id}/variants?pageSize=100`)).items;
      const phenos = (await get<{ items: PhenotypeRow[] }>(`/api/products/${id}/phenotypes?pageSize=100`)).items;
      asked.push({ c, id, pairs: makePairs(genes, variants, phenos) });
    }
    for (const { c, id, pairs } of asked) {
      // Opening GenomeTalks reads the conversation list and suggestions first (as the web page does).
      const t1 = performance.now();
      const opened = await app.inject({ method: 'GET', url: `/api/products/${id}/chat`, headers });
      openLatencies.push(performance.now() - t1);
      if (opened.statusCode !== 200) failures.push(`${c.id}: GET chat HTTP ${opened.statusCode}`);
      for (const p of pairs) {
        const t0 = performance.now();
        const r = await app.inject({ method: 'POST', url: `/api/products/${id}/chat`, headers, payload: { message: p.question } });
        const ms = performance.now() - t0;
        latencies.push(ms);
        const t = byType.get(p.type) ?? { n: 0, ok: 0, ms: [] };
        byType.set(p.type, t);
        t.n++;
        t.ms.push(ms);
        if (r.statusCode !== 200) {
          failures.push(`${c.id} [${p.type}] "${p.question}": HTTP ${r.statusCode}`);
          continue;
        }
        const answer = r.json<{ answer: { text: string; citations: Citation[] } }>().answer;
        if (norm(answer.text).includes(norm(p.expected))) t.ok++;
        else failures.push(`${c.id} [${p.type}] "${p.question}": expected "${p.expected}" in "${answer.text.slice(0, 160).replace(/\n/g, ' ')}"`);
        for (const cit of answer.citations) {
          totalCitations++;
          const url =
            cit.kind === 'gene' ? `/api/products/${id}/genes/${encodeURIComponent(cit.id)}`
            : cit.kind === 'disease' ? `/api/products/${id}/phenotypes/${encodeURIComponent(cit.id)}`
            : cit.kind === 'variant' ? `/api/products/${id}/variants/${encodeURIComponent(cit.id)}`
            : cit.kind === 'hpo' ? `/api/hpo/terms?q=${encodeURIComponent(cit.id)}&limit=5`
            : null;
          if (url === null) continue;
          const cr = await app.inject({ method: 'GET', url, headers });
          const ok = cr.statusCode === 200 && (cit.kind !== 'hpo' || cr.json<{ items: TermRef[] }>().items.some((h) => h.id === cit.id));
          if (!ok) {
            badCitations++;
            failures.push(`${c.id} citation not in case: ${cit.kind} ${cit.id}`);
          }
        }
      }
      console.log(`  ${c.id}: ${pairs.length} pairs`);
    }
    // Phase 2: the same questions again, in turn, while the in-process worker analyses the busy
    // cases (each question starts while at least one of them is still queued or running).
    const busyIds = (await Promise.all(busy.map(upload))).filter((x): x is string => x !== null);
    const all = asked.flatMap((a) => a.pairs.map((p) => ({ id: a.id, p })));
    const analysing = async (): Promise<boolean> => {
      for (const id of busyIds) if (!['Completed', 'Error'].includes((await get<{ status: string }>(`/api/products/${id}`)).status)) return true;
      return false;
    };
    for (let i = 0; all.length > 0 && (await analysing()); i++) {
      const q = all[i % all.length]!;
      const t0 = performance.now();
      const r = await app.inject({ method: 'POST', url: `/api/products/${q.id}/chat`, headers, payload: { message: q.p.question } });
      busyLatencies.push(performance.now() - t0);
      if (r.statusCode !== 200) failures.push(`phase 2 "${q.p.question}": HTTP ${r.statusCode}`);
    }
  } finally {
    await app.close();
    await inbox.close();
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase();
  }
  const p = (xs: number[], q: number): string => percentile([...xs].sort((a, b) => a - b), q).toFixed(1);
  let n = 0;
  let ok = 0;
  say('');
  say('| question type | pairs | expected fact in answer | latency p50 | latency p95 |');
  say('|---|---:|---:|---:|---:|');
  for (const [type, t] of [...byType].sort((a, b) => a[0].localeCompare(b[0]))) {
    n += t.n;
    ok += t.ok;
    say(`| ${type} | ${t.n} | ${((100 * t.ok) / t.n).toFixed(1)} % | ${p(t.ms, 50)} ms | ${p(t.ms, 95)} ms |`);
  }
  say(`| **all** | ${n} | ${n ? ((100 * ok) / n).toFixed(1) : 'n/a'} % | ${p(latencies, 50)} ms | ${p(latencies, 95)} ms |`);
  say('');
  say(`citations not in the case: ${badCitations} of ${totalCitations} (gene/disease/variant/HPO checked; goal 0)`);
  say(`latency POST /chat (app.inject, in-process), phase 1 (all cases analysed, no analysis running): p50 ${p(latencies, 50)} ms, p95 ${p(latencies, 95)} ms, max ${p(latencies, 100)} ms over ${latencies.length} questions (goal p95 <= 300 ms): ${percentile([...latencies].sort((a, b) => a - b), 95) <= 300 ? 'MET' : 'NOT MET'}`);
  say(`latency of opening GenomeTalks (GET /chat: conversations and suggestions, the case read on the first visit), phase 1: p50 ${p(openLatencies, 50)} ms, max ${p(openLatencies, 100)} ms over ${openLatencies.length} cases`);
  say(`latency POST /chat, phase 2 (while the same process analyses ${busy.length} other cases): p50 ${p(busyLatencies, 50)} ms, p95 ${p(busyLatencies, 95)} ms, max ${p(busyLatencies, 100)} ms over ${busyLatencies.length} questions`);
  say(`machine load(1m) at the end: ${loadavg()[0]?.toFixed(2)}`);
  say(`accuracy goal >= 95 %: ${n && ok / n >= 0.95 ? 'MET' : 'NOT MET'}`);
  if (failures.length) {
    say('');
    say(`## Misses (${failures.length}, first 40)`);
    for (const f of failures.slice(0, 40)) say(`- ${f}`);
  }
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/chat.md'), `${lines.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
