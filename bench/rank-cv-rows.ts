/**
 * Exact cohort-grouped choice between settings ranked through the product path: each setting's
 * `rank-dev.ts --out rows.jsonl` (one row per case: causal-gene rank, cohort, annotated), chosen per
 * fold on the other four folds (top-1 + 0.5 top-10 + 0.1 top-100), reported in-sample and held out,
 * overall and split by whether the causal gene has an annotated disease.
 * Usage: node --import tsx bench/rank-cv-rows.ts label=rows.jsonl label=rows.jsonl ... (the first is the shipped setting)
 */
import { readFileSync } from 'node:fs';
import { chooseByFold, formatTopK } from './lib/rank-cv.ts';

interface Row { id: string; cohort: string; annotated: boolean; rank: number | null }
const settings = process.argv.slice(2).map((a) => {
  const [label, path] = a.split('=', 2);
  if (!label || !path) throw new Error(`expected label=rows.jsonl, got ${a}`);
  return { label, rows: readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Row) };
});
const base = settings[0];
if (!base) throw new Error('usage: rank-cv-rows.ts label=rows.jsonl ...');
for (const s of settings) if (s.rows.length !== base.rows.length || s.rows.some((r, i) => r.id !== base.rows[i]?.id)) throw new Error(`${s.label}: not the same cases as ${base.label}`);
const fmt = formatTopK;
const split = (rs: (number | null)[]): string => `all ${fmt(rs)} | annotated (${base.rows.filter((r) => r.annotated).length}) ${fmt(rs.filter((_, i) => base.rows[i]?.annotated))} | not (${base.rows.filter((r) => !r.annotated).length}) ${fmt(rs.filter((_, i) => !base.rows[i]?.annotated))}`;
for (const s of settings) console.log(`in-sample ${s.label.padEnd(10)} ${split(s.rows.map((r) => r.rank))}`);
const { chosen, heldOut } = chooseByFold(settings.map((s) => s.rows.map((r) => r.rank)), base.rows.map((r) => r.cohort));
console.log(`folds chose ${chosen.map((j) => settings[j]?.label).join(' ')}`);
console.log(`held out   ${' '.repeat(9)}${split(heldOut)}`);
