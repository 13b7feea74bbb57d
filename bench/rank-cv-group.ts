/**
 * Session 16 (issue 17 item 2): cohort-grouped choice among the gene-group profile settings that
 * `rank-dev.ts --lopo --group-profile F` ranked through the product path (F.in.jsonl, F.lopo.jsonl:
 * per case the causal gene's rank under each setting). Each fold takes the setting with the best
 * objective (top-1 + 0.5 top-10 + 0.1 top-100) on the other four folds: on the in-sample ranks
 * (λ 0), or on the in-sample and LOPO ranks together (λ 1); reports every setting in-sample and
 * under LOPO, the held-out figures, and the cases whose diagnosis has no annotation left under LOPO
 * (their causal gene ranked without an annotated disease: source not 'annotations' under LOPO,
 * from `--lopo-out`).
 * Usage: node --import tsx bench/rank-cv-group.ts F [lopo-out.jsonl]
 */
import { readFileSync } from 'node:fs';
import { chooseByFold, foldOf, formatTopK } from './lib/rank-cv.ts';

interface Row { id: string; cohort: string; annotated: boolean; rebuilt?: boolean; ranks: Record<string, number | null> }
const prefix = process.argv[2];
if (!prefix) throw new Error('usage: rank-cv-group.ts F [lopo-out.jsonl]');
const read = (path: string): Row[] => readFileSync(path, 'utf8').trim().split('\n').map((l, i) => {
  try {
    return JSON.parse(l) as Row;
  } catch (e) {
    throw new Error(`${path}:${i + 1}: ${(e as Error).message}`);
  }
});
const inRows = read(`${prefix}.in.jsonl`);
const lopoRows = read(`${prefix}.lopo.jsonl`);
if (inRows.length !== lopoRows.length || inRows.some((r, i) => r.id !== lopoRows[i]?.id)) throw new Error(`${prefix}: in-sample and LOPO files hold different cases`);
const labels = Object.keys(inRows[0]?.ranks ?? {});
// Cases whose causal gene is ranked without an annotated disease under LOPO (--lopo-out 'causal.parts.source').
const lopoOut = process.argv[3];
const unannotated = new Set<string>();
if (lopoOut) for (const l of readFileSync(lopoOut, 'utf8').trim().split('\n')) {
  const o = JSON.parse(l) as { id: string; causal: { parts: { source: string } } | null };
  if (o.causal && o.causal.parts.source !== 'annotations') unannotated.add(o.id);
}
const col = (rows: Row[], label: string): (number | null)[] => rows.map((r) => r.ranks[label] ?? null);
const un = (rs: (number | null)[]): (number | null)[] => rs.filter((_, i) => unannotated.has(lopoRows[i]?.id ?? ''));
const notAnn = (rs: (number | null)[]): (number | null)[] => rs.filter((_, i) => !inRows[i]?.annotated);
console.log(`| setting | in-sample | … causal gene with no annotated disease (${inRows.filter((r) => !r.annotated).length}) | LOPO | LOPO, causal gene ranked without an annotated disease (${unannotated.size}) |`);
console.log('| --- | --- | --- | --- | --- |');
for (const l of labels) console.log(`| ${l} | ${formatTopK(col(inRows, l))} | ${formatTopK(notAnn(col(inRows, l)))} | ${formatTopK(col(lopoRows, l))} | ${formatTopK(un(col(lopoRows, l)))} |`);
const cohorts = inRows.map((r) => r.cohort);
for (const lambda of [0, 1]) {
  const ranks = labels.map((l) => (lambda ? [...col(inRows, l), ...col(lopoRows, l)] : col(inRows, l)));
  const { chosen, heldOut } = chooseByFold(ranks, lambda ? [...cohorts, ...cohorts] : cohorts);
  const n = inRows.length;
  const heldIn = heldOut.slice(0, n);
  // λ 0: the LOPO ranks of each fold's choice (chosen on the in-sample ranks only).
  const heldLopo = lambda ? heldOut.slice(n) : lopoRows.map((r) => r.ranks[labels[chosen[foldOf(r.cohort)] ?? 0] ?? 'base'] ?? null);
  console.log(`λ ${lambda}: folds chose ${chosen.map((j) => labels[j]).join(' ')}; held out in-sample ${formatTopK(heldIn)} (no annotated disease ${formatTopK(notAnn(heldIn))}), LOPO ${formatTopK(heldLopo)}, LOPO no annotated disease ${formatTopK(un(heldLopo))}`);
}
