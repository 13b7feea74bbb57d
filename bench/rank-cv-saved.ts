/**
 * Re-runs the cohort-grouped cross-validation of bench/lib/rank-cv.ts on the ranking saved by
 * `bench/rank-dev.ts --save file.json` (no re-ranking): for fitting calibrations and checking
 * constants quickly. Usage: node --import tsx bench/rank-cv-saved.ts file.json [--hidden label=hidden-cases.json ...]
 * (hidden-cases.json: the gene cases saved by `rank-dev.ts --save-hidden`, ranked with the disease hidden).
 */
import { readFileSync } from 'node:fs';
import { crossValidationSection, CV_CHECKS, type GeneCase, type OtherCaseSet, type ScoreCase } from './lib/rank-cv.ts';

interface Saved {
  geneCases: GeneCase[];
  geneScoreCases: (Omit<ScoreCase, 'ln'> & { ln: number[] })[];
  diseaseScoreCases: (Omit<ScoreCase, 'ln'> & { ln: number[] })[];
}
const file = process.argv[2];
// --reweigh: the file was saved under other shipped gene-score constants; re-weigh its candidates under today's.
CV_CHECKS.savedUnderOtherConstants = process.argv.includes('--reweigh');
if (!file) throw new Error('usage: rank-cv-saved.ts <file saved by rank-dev.ts --save>');
const saved = JSON.parse(readFileSync(file, 'utf8')) as Saved;
const scoreCases = (xs: Saved['geneScoreCases']): ScoreCase[] => xs.map((c) => ({ ...c, ln: Float64Array.from(c.ln) }));
const others: OtherCaseSet[] = [];
process.argv.forEach((a, i) => {
  const spec = a === '--hidden' ? process.argv[i + 1] : undefined;
  if (!spec) return;
  const [label, path] = spec.includes('=') ? spec.split('=', 2) : ['hidden disease', spec];
  others.push({ label: label ?? 'hidden disease', cases: JSON.parse(readFileSync(path ?? '', 'utf8')) as GeneCase[] });
});
console.log(crossValidationSection(saved.geneCases, scoreCases(saved.geneScoreCases), scoreCases(saved.diseaseScoreCases), others).join('\n'));
