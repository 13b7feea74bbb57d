/**
 * Ranking benchmark (issue 4): phenopacket-store development split.
 *  (a) phenotype-only disease and gene ranking;
 *  (b) gene and variant ranking with each case's causal variants spiked into a real background
 *      exome (Exomiser's Pfeiffer example, lifted to GRCh38 by the engine).
 * Ranks are pessimistic: a tie counts at its worst position.
 *
 * Usage: npm run bench:rank -- [--limit N] [--part a|b|ab] [--sample-a N] [--sample-b N] [--hidden named,unknown|none] [--out file.md]
 * Part (b) also ranks each case with its disease hidden from the annotations (bench/lib/hidden-disease.ts).
 * Both parts also rank each case with its diagnosis' annotations rebuilt without the phenotype.hpoa
 * rows citing the case's own publication (LOPO rows, bench/lib/lopo.ts): the dev split's cohorts are
 * the source of those annotations' n/m tallies.
 * Env: RARELENS_SOURCES (default ../shared/data), RARELENS_KB (default ./data/kb),
 *      RARELENS_BENCH (default ../shared/bench).
 */
import { addCaseOnsets } from './lib/case-onset.ts';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import {
  buildHpoKb,
  getPhenotypeModel,
  loadHpoKb,
  rankPhenotype,
  DEFAULT_SCORING_OPTIONS,
  PHENOTYPE_CALIBRATION,
  type HpoKb,
  type KbBuildContext,
  type PhenotypeRankingResult,
  type PhenotypeScoringOptions,
} from '../packages/engine/src/index.ts';
import { runSpikedExomeBench, type SpikeCase } from './rank-spiked.ts';
import type { HiddenMode } from './lib/hidden-disease.ts';
import { crossValidateCalibration, diseaseCase, formatCalibration, reliabilityTable, type ScoreCase } from './lib/rank-cv.ts';
import { arg, benchInputs, ROOT as root } from './lib/inputs.ts';
import { addRank, causalGeneRank, emptyTopK, pct, pessimisticRank, topK100Row, type TopK } from './lib/ranks.ts';
import { loadHpoaRows, rankPhenotypeLopo, type HpoaRow } from './lib/lopo.ts';

const { sources, benchDir, kbDir } = benchInputs();

interface BenchCase extends SpikeCase {
  sex: string | null;
  hpo_present: string[];
  hpo_excluded: string[];
  genes: { symbol: string }[];
  /** The case's publications (hpoa references, 'PMID:…'): left out of its diagnosis' annotations under LOPO. */
  pmids?: string[];
}

/** The commit the figures come from ('+ uncommitted changes' when the work tree differs). */
function commitOf(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', 'packages', 'apps', 'bench/rank.bench.ts', 'bench/rank-spiked.ts', 'bench/lib'], { cwd: root, encoding: 'utf8' }).trim();
    return dirty ? `${head} + uncommitted changes` : head;
  } catch {
    return 'unknown (not a git work tree)';
  }
}

/** Pessimistic rank of the case's disease (an id of the case, merged Mondo-equivalent ids included) in a phenotype ranking; null when not listed. */
function diseaseRank(r: PhenotypeRankingResult, truth: readonly string[]): number | null {
  const hit = r.diseases.find((d) => truth.includes(d.id) || d.mergedIds.some((m) => truth.includes(m)));
  return hit ? pessimisticRank(r.diseases.map((d) => d.score), hit.score) : null;
}

/** Phenotype-only tallies of one way of ranking: disease (all cases, annotated diagnosis), gene through its diseases. */
interface PhenotypeTallies {
  dis: TopK;
  disInKb: TopK;
  gene: TopK;
}
const emptyTallies = (): PhenotypeTallies => ({ dis: emptyTopK(), disInKb: emptyTopK(), gene: emptyTopK() });
function tally(t: PhenotypeTallies, kb: HpoKb, c: BenchCase, r: PhenotypeRankingResult): void {
  const dRank = diseaseRank(r, c.disease_ids);
  addRank(t.dis, dRank);
  if (c.disease_ids.some((id) => kb.diseaseById.has(id))) addRank(t.disInKb, dRank);
  if (c.genes.length) addRank(t.gene, causalGeneRank(r.genes, c.genes.map((g) => g.symbol)));
}

/** Diseases per case kept for the phenotype-only calibration fit. */
const CALIBRATION_ITEMS = 1000;

async function getKb(): Promise<HpoKb> {
  if (existsSync(join(kbDir, 'hpo-kb.json'))) return loadHpoKb(kbDir);
  const out = mkdtempSync(join(tmpdir(), 'rarelens-hpo-kb-'));
  console.log(`No ${kbDir}/hpo-kb.json: building the HPO part of the KB into ${out}`);
  const ctx: KbBuildContext = {
    sourcesDir: sources,
    outDir: out,
    log: (m) => console.log(m),
    progress: () => undefined,
    addSource: () => undefined,
    reportMissing: (n, r) => console.log(`missing ${n}: ${r}`),
    warn: (m) => console.log(`warning: ${m}`),
  };
  await buildHpoKb(ctx);
  return loadHpoKb(out);
}

function machine(): string {
  const c = cpus();
  return `${c[0]?.model ?? 'unknown cpu'}, ${c.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, node ${process.version}`;
}

async function main(): Promise<void> {
  const limit = Number(arg('--limit') ?? Infinity);
  const part = arg('--part') ?? 'ab';
  const scoring: PhenotypeScoringOptions = { ...DEFAULT_SCORING_OPTIONS, ...(JSON.parse(process.env.RANK_BENCH_SCORING ?? '{}') as Partial<PhenotypeScoringOptions>) };
  const lines = gunzipSync(readFileSync(join(benchDir, 'phenopackets-dev.jsonl.gz'))).toString('utf8').split('\n').filter(Boolean);
  const cases = lines.slice(0, Number.isFinite(limit) ? limit : undefined).map((l) => JSON.parse(l) as BenchCase);
  // The disease onset stated in the raw phenopacket joins the case's terms as its HPO onset term (the product's input).
  const withOnset = addCaseOnsets(cases, benchDir);
  console.log(`Machine: ${machine()}`);
  console.log(`Cases: ${cases.length} (phenopackets-dev.jsonl.gz), ${withOnset} with an onset term from the raw phenopackets`);

  const tLoad = performance.now();
  const kb = await getKb();
  getPhenotypeModel(kb);
  const loadMs = performance.now() - tLoad;
  console.log(`HPO KB loaded + model built in ${loadMs.toFixed(0)} ms`);

  const md: string[] = [
    '# Ranking benchmark (phenopacket-store development split)',
    '',
    `Generated by \`npm run bench:rank${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\` on ${new Date().toISOString().slice(0, 10)}. Machine: ${machine()}.`,
    `Code: commit ${commitOf()}. Configuration: the shipped defaults only (engine candidate filter \`VARIANT_FILTERS\`, \`DEFAULT_SCORING_OPTIONS\`${process.env.RANK_BENCH_SCORING ? ` overridden by RANK_BENCH_SCORING=${process.env.RANK_BENCH_SCORING}` : ''}, gene-score constants \`DEFAULT_GENE_SCORE_CONSTANTS\`, calibrations of rank/calibration.ts) through \`prepareVariants\` + \`rank\`, the functions the worker and \`rarelens analyze\` call.`,
    `Data: phenopackets-dev.jsonl.gz (${cases.length} cases; ${withOnset} of them given their disease onset from phenopackets-dev-raw.tar.gz as an HPO onset term among their terms, bench/lib/case-onset.ts${process.argv.includes('--no-onset') ? '; --no-onset: none' : ''}), HPO ${kb.versions.hpo}, annotations ${kb.versions.annotations}, KB ${kbDir}. Ranks are pessimistic (a tie counts at its worst position).`,
    "LOPO (leave own publication out) rows rank each case with its diagnosis' annotations rebuilt from the phenotype.hpoa rows that do not cite the case's own publication (the annotations' n/m tallies are curated from the very phenopacket-store cohorts of this split), so they estimate the ranking of a patient from a publication the annotations do not yet hold.",
    '',
  ];

  // phenotype.hpoa rows per disease, for the leave-own-publication-out rows (bench/lib/lopo.ts).
  const rowsOf: Map<string, HpoaRow[]> = loadHpoaRows(kb, sources);

  if (part.includes('a')) {
    // Deterministic sample for run time on a loaded machine: every k-th case (file order).
    const sampleA = Number(arg('--sample-a') ?? Infinity);
    const stepA = Number.isFinite(sampleA) && sampleA < cases.length ? cases.length / sampleA : 1;
    const casesA = stepA > 1 ? Array.from({ length: Math.floor(cases.length / stepA) }, (_, i) => cases[Math.floor(i * stepA)]).filter((c): c is BenchCase => c != null) : cases;
    const inSample = emptyTallies();
    const lopo = emptyTallies();
    let ownCited = 0;
    let ms = 0;
    let cpuUs = 0;
    const calibrationCases: ScoreCase[] = [];
    for (const c of casesA) {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const r = rankPhenotype(kb, { present: c.hpo_present, excluded: c.hpo_excluded }, { explainTop: 0, scoring });
      const cpu = process.cpuUsage(cpu0);
      cpuUs += cpu.user + cpu.system;
      ms += performance.now() - t0;
      const truth = c.disease_ids;
      // The first CALIBRATION_ITEMS diseases for the calibration fit (those below carry a negligible share under the rank prior).
      const top = rankPhenotype(kb, { present: c.hpo_present, excluded: c.hpo_excluded }, { explainTop: 0, scoring, limit: CALIBRATION_ITEMS });
      calibrationCases.push(diseaseCase(c.cohort, top.diseases, truth));
      if (calibrationCases.length % 500 === 0) console.log(`  ${calibrationCases.length}/${casesA.length}: disease top-1 ${pct(inSample.dis.top1, inSample.dis.n)}, own publication left out ${pct(lopo.dis.top1, lopo.dis.n)}`);
      tally(inSample, kb, c, r);
      // The same ranking with the diagnosis rebuilt without the rows citing the case's publications (bench/lib/lopo.ts).
      const lo = rankPhenotypeLopo(kb, rowsOf, { present: c.hpo_present, excluded: c.hpo_excluded }, c, { scoring });
      if (lo.dropped) ownCited++;
      tally(lopo, kb, c, lo.result);
    }
    const { dis, disInKb, gene } = inSample;
    const perCase = ms / casesA.length;
    const cpuPerCase = cpuUs / 1000 / casesA.length;
    const load = loadavg()[0] ?? 0;
    const rowsA = [
      topK100Row('disease (OMIM id of the case, Mondo-equivalent ids merged)', dis),
      topK100Row('disease, only cases whose disease is in the 2025-05-06 annotations', disInKb),
      topK100Row('gene (through its diseases)', gene),
      topK100Row('disease, own publication left out (LOPO)', lopo.dis),
      topK100Row('disease, annotated cases, own publication left out (LOPO)', lopo.disInKb),
      topK100Row('gene (through its diseases), own publication left out (LOPO)', lopo.gene),
    ];
    for (const row of rowsA) console.log(row);
    const lopoNote = `LOPO: ${ownCited} of the ${disInKb.n} annotated diagnoses have phenotype.hpoa rows citing the case's own publication; a diagnosis left with no row is not ranked (it counts as a miss).`;
    console.log(lopoNote);
    console.log(`Phenotype-only ranking: ${perCase.toFixed(1)} ms/case wall, ${cpuPerCase.toFixed(1)} ms/case CPU (target <= 20 ms; load average ${load.toFixed(1)} on ${cpus().length} cores), KB load ${loadMs.toFixed(0)} ms`);
    md.push(
      '## (a) Phenotype only',
      '',
      ...(casesA.length < cases.length ? [`Cases: ${casesA.length} (deterministic sample: every ${stepA.toFixed(2)}-th of the ${cases.length} cases, for run time).`, ''] : []),
      '| ranking | cases | top-1 | top-3 | top-10 | top-100 |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rowsA,
      '',
      lopoNote,
      '',
      `Targets: disease top-1 >= 45 %, top-10 >= 70 % (Exomiser 35.5 % / 58.5 %). Speed: ${perCase.toFixed(1)} ms/case wall, ${cpuPerCase.toFixed(1)} ms/case CPU with the KB loaded (target <= 20 ms; machine load average ${load.toFixed(1)} on ${cpus().length} cores during the run); KB load + model ${loadMs.toFixed(0)} ms.`,
      'The phenotype scoring options: partialPenalty, specificPenalty and excludedWeight chosen by 5-fold cohort-grouped cross-validation (`bench/rank-pheno-cv.ts`, every 2nd case; held-out figures in rank-analysis.md), noMatchLr and contradictionLr kept by the same CV; excludedFloor and the model options (default frequency, prior count) chosen earlier on every-8th-case subsets.',
      '',
    );
    const cal = crossValidateCalibration(calibrationCases, PHENOTYPE_CALIBRATION);
    const calLines = [
      '### Post-test probability, phenotype-only diseases: reliability',
      '',
      `Shipped calibration (PHENOTYPE_CALIBRATION): ${formatCalibration(PHENOTYPE_CALIBRATION)}; fitted on all cases: ${formatCalibration(cal.fitAll)}; per held-out cohort fold: ${cal.folds.map((f) => formatCalibration(f.chosen)).join('; ')}. Fit: the grid point with the least negative log-likelihood of the diagnosis plus log-loss of "the first disease is the diagnosis" (the first ${CALIBRATION_ITEMS} diseases of each case). Mean negative log-likelihood of the diagnosed disease: shipped ${cal.nll.shipped.toFixed(3)}, held out ${cal.nll.heldOut.toFixed(3)}.`,
      '',
      ...reliabilityTable('phenotype-only diseases', cal.inSample, cal.heldOut),
      '',
    ];
    console.log(calLines.join('\n'));
    md.push(...calLines);
  }
  if (part.includes('b')) {
    const sampleB = Number(arg('--sample-b') ?? Infinity);
    const hidden = (arg('--hidden') ?? 'named,unknown').split(',').filter((m): m is HiddenMode => m === 'named' || m === 'unknown');
    md.push(...(await runSpikedExomeBench({ cases, sampleB, kbDir, sources, hpoKb: kb, machine: machine(), hidden, lopo: rowsOf })));
  }
  if (!Number.isFinite(limit)) {
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    // --out: another file (e.g. parts (a) and (b) run as two processes and joined afterwards).
    const out = arg('--out') ?? join(root, 'bench/results/rank.md');
    writeFileSync(out, md.join('\n') + '\n');
    console.log(`Wrote ${out}`);
  }
}

await main();
