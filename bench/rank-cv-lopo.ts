/**
 * Gene-score constants chosen with the unseen-cohort proxy in the objective (issue 17): each cohort
 * fold takes the constant set that scores best on the other four folds' spiked cases (in-sample
 * annotations) plus `--lambda` times the same objective on their leave-own-publication-out ranks
 * (bench/lib/lopo.ts), and is scored held out on both. λ 0 is the usual choice (rank-cv.ts).
 * Usage: node --import tsx bench/rank-cv-lopo.ts cv.json lopo.json [--lambda 0,0.5,1,2]
 * (cv.json: `rank-dev.ts --save`; lopo.json: `rank-dev.ts --lopo --save-lopo`, same cases in the same order).
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_GENE_SCORE_CONSTANTS, type GeneScoreConstants } from '../packages/engine/src/index.ts';
import { CV_CHECKS, describeConstants, foldOf, FOLDS, formatTopK, objective, ranksOnGrid, type GeneCase } from './lib/rank-cv.ts';

const [cvFile, lopoFile] = process.argv.slice(2);
if (!cvFile || !lopoFile) throw new Error('usage: rank-cv-lopo.ts cv.json lopo.json [--lambda 0,1]');
const arg = (n: string): string | undefined => { const i = process.argv.indexOf(n); return i >= 0 ? process.argv[i + 1] : undefined; };
CV_CHECKS.savedUnderOtherConstants = process.argv.includes('--reweigh');
const inCases = (JSON.parse(readFileSync(cvFile, 'utf8')) as { geneCases: GeneCase[] }).geneCases;
const lopoCases = JSON.parse(readFileSync(lopoFile, 'utf8')) as GeneCase[];
if (inCases.length !== lopoCases.length || inCases.some((c, i) => c.cohort !== lopoCases[i]?.cohort)) throw new Error('cv.json and lopo.json must hold the same cases in the same order');

// Around the shipped constants; the axes every earlier grid left at one value stay there.
const AXES: Partial<Record<keyof GeneScoreConstants, number[]>> = {
  phenotypeScale: [0.3, 0.4, 0.5, 0.6],
  genotypeWeight: [2, 3, 4],
  unknownGeneLn: [-4, -2, 0],
  namedDiseaseLn: [-3, -1, 0],
  allelicDiseaseLn: [-1000, -2, -1, 0],
  similarTitlesDiseaseLn: [-6, -4, -2],
};
let grid: GeneScoreConstants[] = [{ ...DEFAULT_GENE_SCORE_CONSTANTS }];
for (const [key, values] of Object.entries(AXES)) grid = grid.flatMap((k) => values.map((v) => ({ ...k, [key]: v })));
const shippedIdx = grid.findIndex((k) => describeConstants(k) === describeConstants(DEFAULT_GENE_SCORE_CONSTANTS));
const t0 = Date.now();
const rIn = ranksOnGrid(inCases, grid);
const rLo = ranksOnGrid(lopoCases, grid);
console.log(`${grid.length} constant sets, ${inCases.length} cases, ${((Date.now() - t0) / 1000).toFixed(0)} s; shipped in the grid: ${shippedIdx >= 0}`);
const fold = inCases.map((c) => foldOf(c.cohort));
const shipped = shippedIdx >= 0 ? shippedIdx : 0;
console.log(`shipped: in-sample ${formatTopK(rIn[shipped] ?? [])}; LOPO ${formatTopK(rLo[shipped] ?? [])}`);
for (const lambda of (arg('--lambda') ?? '0,0.5,1,2').split(',').map(Number)) {
  const heldIn: (number | null)[] = inCases.map(() => null);
  const heldLo: (number | null)[] = inCases.map(() => null);
  const chosen: string[] = [];
  for (let f = 0; f < FOLDS; f++) {
    const train = (rs: readonly (number | null)[]): (number | null)[] => rs.filter((_, i) => fold[i] !== f);
    let best = shipped;
    let bo = -Infinity;
    grid.forEach((_, g) => {
      const o = objective(train(rIn[g] ?? [])) + lambda * objective(train(rLo[g] ?? []));
      if (o > bo + 1e-12) {
        bo = o;
        best = g;
      }
    });
    chosen.push(`fold ${f}: ${describeConstants(grid[best] ?? DEFAULT_GENE_SCORE_CONSTANTS)}`);
    fold.forEach((x, i) => {
      if (x !== f) return;
      heldIn[i] = rIn[best]?.[i] ?? null;
      heldLo[i] = rLo[best]?.[i] ?? null;
    });
  }
  let best = 0;
  let bo = -Infinity;
  grid.forEach((_, g) => {
    const o = objective(rIn[g] ?? []) + lambda * objective(rLo[g] ?? []);
    if (o > bo + 1e-12) {
      bo = o;
      best = g;
    }
  });
  console.log(`\nλ ${lambda}: held out in-sample ${formatTopK(heldIn)}; held out LOPO ${formatTopK(heldLo)}`);
  console.log(`  in-sample best (all folds): ${describeConstants(grid[best] ?? DEFAULT_GENE_SCORE_CONSTANTS)}: in-sample ${formatTopK(rIn[best] ?? [])}; LOPO ${formatTopK(rLo[best] ?? [])}`);
  for (const c of chosen) console.log(`  ${c}`);
}
