/**
 * Offline re-scoring of genotype rules (session 11, gene side) on a saved rank-dev run:
 * `node --import tsx bench/rank-rescore-rules.ts cv.json dump.jsonl` with cv.json from `rank-dev.ts --save`
 * and dump.jsonl from `--dump` of the same run. Each gene re-chooses its best candidate under the
 * rule; the rule's constant is chosen per cohort fold on the other four (top-1 + 0.5 top-10 + 0.1 top-100).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { chooseByFold, formatTopK, pessimisticRankOf, type GeneCase } from './lib/rank-cv.ts';
import { DEFAULT_FIT_FLOOR, DEFAULT_GENE_SCORE_CONSTANTS, geneScoreLn, type GeneScoreParts } from '../packages/engine/src/index.ts';

const [cvFile, dumpFile] = process.argv.slice(2);
if (!cvFile || !dumpFile) throw new Error('usage: rank-rescore-rules.ts cv.json dump.jsonl');
const saved = JSON.parse(readFileSync(cvFile, 'utf8')) as { geneCases: GeneCase[] };
const dump = readFileSync(dumpFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; feats: unknown[][] });
const root = resolve(import.meta.dirname, '..');
const sexOf = new Map(gunzipSync(readFileSync(resolve(root, '../shared/bench/phenopackets-dev.jsonl.gz'))).toString('utf8').trim().split('\n').map((l) => { const c = JSON.parse(l) as { id: string; sex: string }; return [c.id, c.sex]; }));
const PAR = [[10_001, 2_781_479], [155_701_383, 156_030_895]];
const haploidX = (chrom: string, pos: number): boolean => chrom === 'X' && !PAR.some(([s, e]) => pos >= (s ?? 0) && pos <= (e ?? 0));

interface Flags { maleHetX: boolean; arOnly: boolean; hom: boolean; source: string; symbol: string }
const cases = saved.geneCases.map((g, ci) => {
  const d = dump[ci];
  if (!d) throw new Error(`dump row ${ci} missing`);
  const flags = new Map<number, Flags>();
  const male = sexOf.get(d.id) === 'MALE';
  for (const f of d.feats) {
    // Dump columns (bench/rank-dev.ts --dump): 0 symbol, 9 dose-2 genotype used, 24 source, 27 gene index, 28-29 top variant chrom/pos, 30 used zygosities, 31 modes of the annotated diseases.
    const [sym, hom, source, i, chrom, pos, zygs, modes] = [f[0], f[9], f[24], f[27], f[28], f[29], f[30], f[31]];
    const z = String(zygs).split(',');
    flags.set(Number(i), { hom: hom === 1, symbol: String(sym), source: String(source), maleHetX: male && haploidX(String(chrom), Number(pos)) && z.length > 0 && z.every((x) => x === 'heterozygous'), arOnly: modes === 'AR' });
  }
  return { id: d.id, cohort: g.cohort, g, flags };
});

interface Rule { hetX: number; arAllelic: number; homUnknown?: number; homSources?: string[] }
const k = DEFAULT_GENE_SCORE_CONSTANTS;
function rankOf(c: (typeof cases)[number], r: Rule): number | null {
  const cands = c.g.candidates ?? c.g.parts.map((p) => [p]);
  const scores = cands.map((list, gi) => {
    const fl = c.flags.get(gi);
    let best = -Infinity;
    for (const p of list) {
      let q: GeneScoreParts = p;
      if (fl?.maleHetX && r.hetX < 1) q = { ...q, fitLn: Math.log(Math.max(Math.exp(p.fitLn) * r.hetX, DEFAULT_FIT_FLOOR)) };
      let s = geneScoreLn(q, k);
      if (fl?.arOnly && p.source === 'allelic') s += r.arAllelic;
      if (fl?.hom && r.homUnknown && r.homSources?.includes(p.source)) s += r.homUnknown;
      best = Math.max(best, s);
    }
    return best;
  });
  return pessimisticRankOf(scores, (i) => c.g.causal[i] ?? false);
}
const fmt = (rs: readonly (number | null)[]): string => `${formatTopK(rs)} (n ${rs.length})`;

function study(label: string, grid: Rule[]): void {
  const ranks = grid.map((r) => cases.map((c) => rankOf(c, r)));
  console.log(`## ${label}`);
  grid.forEach((r, j) => console.log(`in-sample ${JSON.stringify(r)}: ${fmt(ranks[j] ?? [])}`));
  const { chosen, heldOut } = chooseByFold(ranks, cases.map((c) => c.cohort));
  console.log(`folds chose ${chosen.map((j) => JSON.stringify(grid[j])).join(' ')}`);
  console.log(`held out: ${fmt(heldOut)}`);
  const unann = cases.map((c, ci) => ({ c, ci })).filter(({ c }) => { const i = c.g.causal.findIndex((x) => x); const s = c.g.parts[i]?.source; return s !== 'annotations' && s !== 'allelic'; });
  console.log(`held out, causal ranked without an annotated disease: ${fmt(unann.map(({ ci }) => heldOut[ci] ?? null))}; shipped ${fmt(unann.map(({ ci }) => ranks[0]?.[ci] ?? null))}`);
}
if (!process.argv.includes('--hom-only')) study('male heterozygous call on X outside the PARs: fit x c', [1, 0.5, 0.3, 0.1].map((hetX) => ({ hetX, arAllelic: 0 })));
if (!process.argv.includes('--hom-only')) study('possibly allelic disease of a gene whose annotated diseases are all AR: extra log prior', [0, -1, -2, -4, -1000].map((arAllelic) => ({ hetX: 1, arAllelic })));
study('dose-2 genotype (homozygous / hemizygous) under a new disease of the gene (inheritance unknown): log bonus', [0, 0.5, 1, 1.5, 2, 3].map((homUnknown) => ({ hetX: 1, arAllelic: 0, homUnknown, homSources: ['none'] })));
study('same, new disease or possibly allelic disease', [0, 0.5, 1, 1.5, 2, 3].map((homUnknown) => ({ hetX: 1, arAllelic: 0, homUnknown, homSources: ['none', 'allelic'] })));
study('same, new disease, allelic or named disease', [0, 0.5, 1, 1.5, 2, 3].map((homUnknown) => ({ hetX: 1, arAllelic: 0, homUnknown, homSources: ['none', 'allelic', 'disease-name', 'series'] })));
