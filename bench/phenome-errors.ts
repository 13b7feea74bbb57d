/**
 * Error dump of the shipped PhenomeAI extractor (createPhenome's defaults) on the dev corpora:
 * per corpus the document-level TP / FP / FN counts of `terms` against the gold's phenotypic
 * abnormalities (the scoring of bench:phenome), then, with --dump, every false positive and
 * false negative with the text around it and a cause class that the ontology decides:
 *   related   = the prediction and a gold term (or the gold term and a prediction) are in one
 *               line of descent (granularity, nesting);
 *   negated   = the extractor found the gold term but read it as negated;
 *   unrelated = nothing related on the other side.
 * For reading the errors in bulk; no rule may be written for one document from its gold.
 *
 *   node --import tsx bench/phenome-errors.ts [--data FILE] [--hpo FILE] [--dump FILE] [--cpu]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Ontology, parseObographs } from '../packages/engine/src/index.ts';
import { createPhenome, defaultHpoPath, sourcesDir } from '../packages/phenome/src/index.ts';

interface Doc {
  id: string;
  corpus: string;
  text: string;
  hpo_ids: string[];
  spans: { start: number; end: number; hpo_id: string; text: string; flag?: string }[] | null;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function readDocs(path: string): Doc[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line, i) => {
      if (!line.trim()) return undefined;
      try {
        return JSON.parse(line) as Doc;
      } catch (err) {
        throw new Error(`${path}:${i + 1}: invalid JSON (${String(err)})`);
      }
    })
    .filter((d): d is Doc => d !== undefined);
}

const context = (text: string, start: number, end: number): string =>
  `${text.slice(Math.max(0, start - 60), start)}[[${text.slice(start, end)}]]${text.slice(end, end + 60)}`.replace(
    /\s+/g,
    ' ',
  );

function main(): void {
  const dataPath =
    arg('--data') ??
    resolve(process.env.RARELENS_BENCH ?? resolve(sourcesDir(), '../bench'), 'hpo-ner-dev.jsonl');
  const hpoPath = arg('--hpo') ?? defaultHpoPath();
  const dumpPath = arg('--dump');
  const ont = new Ontology(
    parseObographs(JSON.parse(gunzipSync(readFileSync(hpoPath)).toString('utf8'))),
  );
  const phenome = createPhenome(ont);
  const docs = readDocs(dataPath);
  const related = (a: string, b: string): boolean => a === b || ont.isA(a, b) || ont.isA(b, a);
  const lines: string[] = [];
  const counts = new Map<string, { tp: number; fp: number; fn: number; cpu: number }>();
  for (const d of docs) {
    const c = counts.get(d.corpus) ?? { tp: 0, fp: 0, fn: 0, cpu: 0 };
    counts.set(d.corpus, c);
    const t0 = process.cpuUsage();
    const { terms } = phenome.extractFindings(d.text);
    const dt = process.cpuUsage(t0);
    c.cpu += (dt.user + dt.system) / 1000;
    const gold = new Set(
      d.hpo_ids.map((id) => ont.resolve(id) ?? id).filter((id) => ont.isA(id, 'HP:0000118')),
    );
    const stated = terms.filter((t) => !t.negated);
    const pred = new Set(stated.map((t) => t.id));
    pred.forEach((id) => (gold.has(id) ? c.tp++ : c.fp++));
    gold.forEach((id) => {
      if (!pred.has(id)) c.fn++;
    });
    if (!dumpPath) continue;
    const seen = new Set<string>();
    for (const t of stated) {
      if (gold.has(t.id) || seen.has(t.id)) continue;
      seen.add(t.id);
      const cls = [...gold].some((g) => related(g, t.id)) ? 'related' : 'unrelated';
      lines.push(
        `${d.corpus}\t${d.id}\tFP\t${cls}\t${t.id} ${t.label}\t${context(d.text, t.start, t.end)}`,
      );
    }
    gold.forEach((id) => {
      if (pred.has(id)) return;
      const negated = terms.find((t) => t.negated && t.id === id);
      const cls = negated
        ? 'negated'
        : [...pred].some((p) => related(p, id))
          ? 'related'
          : 'unrelated';
      const span = d.spans?.find((s) => (ont.resolve(s.hpo_id) ?? s.hpo_id) === id);
      const where = negated
        ? context(d.text, negated.start, negated.end)
        : span
          ? context(d.text, span.start, span.end)
          : '(no span)';
      lines.push(`${d.corpus}\t${d.id}\tFN\t${cls}\t${id} ${ont.label(id) ?? '?'}\t${where}`);
    });
  }
  counts.forEach((c, corpus) => {
    const p = c.tp / (c.tp + c.fp || 1);
    const r = c.tp / (c.tp + c.fn || 1);
    const f = p + r === 0 ? 0 : (2 * p * r) / (p + r);
    const cpu = process.argv.includes('--cpu') ? `  cpu ${c.cpu.toFixed(0)} ms` : '';
    console.log(
      `${corpus.padEnd(22)} TP ${c.tp} FP ${c.fp} FN ${c.fn}  P ${p.toFixed(3)} R ${r.toFixed(3)} F1 ${f.toFixed(3)}${cpu}`,
    );
  });
  if (dumpPath) writeFileSync(dumpPath, lines.join('\n') + '\n');
}

main();
