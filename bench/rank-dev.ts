/**
 * Development harness for the gene ranking (not a product benchmark): the background exome is
 * read and annotated once; per case only the spiked records are annotated and merged in, then the
 * product's `prepareVariants` + `rank` run. Same scoring code as the product, ~10x faster than
 * bench:rank part (b), for grouped cross-validation of constants.
 * Usage: node --import tsx bench/rank-dev.ts [--sample N] [--ids id,id] [--out cases.jsonl] [--save cv-input.json] [--dump genes.jsonl] [--save-raw raw.jsonl] [--variant-out variants.jsonl] [--lopo [--save-lopo lopo.json] [--lopo-out lopo.jsonl]] [--no-cv]
 * (--variant-out: per case the causal variant's rank as bench:rank part (b) counts it, as `rank` (rank-cv-rows.ts reads it), with
 * the causal genes' variants and the first variants above it; --out: each case's causal-gene rank and the candidate source it is ranked on; --dump: per gene its
 * features, gene index, top variant's position, used zygosities and its annotated diseases' modes
 * (read by rank-rescore-rules.ts); --save-raw: each gene's candidate scores with the annotated
 * diseases' apart (rank-rescore-mixture.ts); --out, --dump, --save-raw are written before the
 * cross-validation, which --no-cv skips; rank-cv-rows.ts chooses between --out files of several settings)
 */
import { addCaseOnsets } from './lib/case-onset.ts';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { collectRanking, crossValidationSection, type GeneCase, type ScoreCase } from './lib/rank-cv.ts';
import { hideDiseases, isAnnotated, type HiddenMode } from './lib/hidden-disease.ts';
import { loadHpoaRows, lopoKb } from './lib/lopo.ts';
import { groupProfileLn, loadClinvarGeneSummary, loadGeneGroups } from './lib/gene-groups.ts';
import { hasSequenceAlleles } from './lib/inputs.ts';
import { DEFAULT_SCORING_OPTIONS, type PhenotypeScoringOptions } from '../packages/engine/src/phenotype/score.ts';
import { filterCandidates, loadChain, loadGenomeKb, loadHpoKb, openAnnotationSession, prepareVariants, rank, readAndAnnotateVcf, readVcf, getPhenotypeModel, inheritanceOf, geneScoreLn, modesOf, DEFAULT_GENE_SCORE_CONSTANTS, resolveQuery, scoreDiseases, type GeneScoreParts, type Sex } from '../packages/engine/src/index.ts';

const root = resolve(import.meta.dirname, '..');
const sources = process.env.RARELENS_SOURCES ?? resolve(root, '../shared/data');
const kbDir = process.env.RARELENS_KB ?? resolve(root, 'data/kb');
const arg = (n: string): string | undefined => { const i = process.argv.indexOf(n); return i >= 0 ? process.argv[i + 1] : undefined; };
const bare = (c: string): string => c.replace(/^chr/i, '').replace(/^M$/, 'MT');
const key = (c: string, p: number, r: string, a: string): string => `${bare(c)}:${p}:${r}:${a}`;

interface DevCase {
  id: string;
  cohort: string;
  sex: string | null;
  hpo_present: string[];
  hpo_excluded: string[];
  disease_ids: string[];
  genes: { symbol: string }[];
  variants: { chrom: string | null; pos: number | null; ref: string | null; alt: string | null; zygosity: string }[];
  pmids?: string[];
}
interface SpikedVariant {
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
  zygosity: string;
}
const isSpikable = (v: DevCase['variants'][number]): v is SpikedVariant => !!(v.chrom && v.pos && v.ref && v.alt);

const cases = gunzipSync(readFileSync(resolve(root, '../shared/bench/phenopackets-dev.jsonl.gz'))).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as DevCase);
// The disease onset stated in the raw phenopacket joins the case's terms as its HPO onset term (the product's input; --no-onset: none).
console.log(`${addCaseOnsets(cases, resolve(root, '../shared/bench'))} cases given an onset term from the raw phenopackets`);
const eligible = cases.filter((c) => c.genes.length && c.variants.some(isSpikable));
const sample = Number(arg('--sample') ?? 400);
const step = eligible.length / Math.min(sample, eligible.length);
const sampled = Array.from({ length: Math.floor(eligible.length / step) }, (_, i) => eligible[Math.floor(i * step)]).filter((c): c is DevCase => c !== undefined);
// --ids a,b,c: only these cases of the sample (a quick check of the cases a change touches).
const onlyIds = arg('--ids')?.split(',');
const chosen = onlyIds ? sampled.filter((c) => onlyIds.includes(c.id)) : sampled;

const hpoKb = await loadHpoKb(kbDir);
const model = getPhenotypeModel(hpoKb);
const genome = await loadGenomeKb(kbDir);
const session = await openAnnotationSession(genome);
const dir = mkdtempSync(join(tmpdir(), 'rank-dev-'));

// Background: Pfeiffer lifted to GRCh38, its SPIKED FGFR2 record removed.
const chain = await loadChain(join(sources, 'liftover/hg19ToHg38.over.chain.gz'));
const reader = await readVcf(join(sources, 'vcf/Pfeiffer.hg19.vcf.gz'), { liftover: chain });
const bgLines: string[] = [];
for await (const v of reader) {
  if (v.input.chrom === '10' && v.input.pos === 123256215 && v.input.ref === 'T' && v.input.alt === 'G') continue;
  const z = v.genotype.zygosity;
  const gt = z === 'homozygous' || z === 'hemizygous' ? '1/1' : z === 'heterozygous' ? '0/1' : null;
  if (gt) bgLines.push(`chr${bare(v.chrom)}\t${v.pos}\t.\t${v.ref}\t${v.alt}\t.\tPASS\t.\tGT\t${gt}`);
}
const header = ['##fileformat=VCFv4.2', '##reference=GRCh38', '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">', '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tSAMPLE'];
writeFileSync(join(dir, 'bg.vcf'), [...header, ...bgLines].join('\n') + '\n');
const bg = (await readAndAnnotateVcf(session, join(dir, 'bg.vcf'), { assembly: 'GRCh38' })).variants;
console.log(`background ${bg.length} annotated variants; ${chosen.length} cases`);

// RANK_DEV_SCORING='{"excludedWeight":0.2}': DEFAULT_SCORING_OPTIONS overrides (as bench:rank's RANK_BENCH_SCORING).
const scoring: PhenotypeScoringOptions = { ...DEFAULT_SCORING_OPTIONS, ...(JSON.parse(process.env.RANK_DEV_SCORING ?? '{}') as Partial<PhenotypeScoringOptions>) };
if (process.env.RANK_DEV_SCORING) console.log(`scoring options overridden: ${process.env.RANK_DEV_SCORING}`);
const annotatedGenes = new Set<string>();
for (const [sym, g] of hpoKb.genes) if (g.diseases.some((l) => l.association !== 'POLYGENIC' && model.diseaseIndex.has(l.id))) annotatedGenes.add(sym);

// The modes of inheritance of a gene's annotated diseases (the dump's last column).
const geneModes = (sym: string): string => [...new Set((hpoKb.genes.get(sym)?.diseases ?? []).filter((l) => l.association !== 'POLYGENIC' && model.diseaseIndex.has(l.id)).flatMap((l) => inheritanceOf(model, model.diseaseIndex.get(l.id) ?? 0)).flatMap((t) => modesOf([t])))].sort().join(',');
const geneCases: GeneCase[] = [];
const geneScoreCases: ScoreCase[] = [];
const diseaseScoreCases: ScoreCase[] = [];
const GT: Record<string, string> = { heterozygous: '0/1', homozygous: '1/1', hemizygous: '1/1' };
const rows: { id: string; cohort: string; annotated: boolean; rank: number | null; source: string | null }[] = [];
const hiddenMode = arg('--hidden') as HiddenMode | undefined;
const hiddenRows: { id: string; cohort: string; rank: number | null; source: string | null; detail: string }[] = [];
const hiddenGeneCases: GeneCase[] = [];
const dump: string[] = [];
// --lopo: each case also ranked with its diagnosis rebuilt without the hpoa rows citing its own publications (bench/lib/lopo.ts, as bench:rank part (b));
// --save-lopo: those gene cases (for rank-cv-saved.ts --hidden); --lopo-out: per case the causal gene's LOPO rank, parts and the genes above it.
const lopoRowsOf = process.argv.includes('--lopo') ? loadHpoaRows(hpoKb, sources) : null;
const lopoGeneCases: GeneCase[] = [];
const lopoRows: { id: string; cohort: string; rank: number | null; rebuilt: boolean }[] = [];
const lopoOut: string[] = [];
const raw: string[] = [];
// --group-profile F (session 16 experiment): genes with no annotated disease also ranked on the
// phenotype of their HGNC gene-group siblings' diseases (bench/lib/gene-groups.ts) at several priors;
// per case the causal gene's rank under each setting, in-sample (F.in.jsonl) and, with --lopo, LOPO (F.lopo.jsonl).
const groups = arg('--group-profile') ? loadGeneGroups(join(sources, 'genes/hgnc_complete_set.2024-10.txt.gz')) : null;
const GROUP_PRIORS = [-8, -6, -4, -2, 0];
const GROUP_SIZES: [string, number][] = process.argv.includes('--no-group-sizes') ? [] : [['all', Infinity], ['le50', 50], ['le20', 20]];
// A gene-level 'is a disease gene' bonus for genes with no annotated disease: at least one ClinVar
// P/LP allele in the 2021-11-07 gene summary ('cv21:B') or in the KB's ClinVar gene counts ('kbcv:B').
const cvSummary = groups ? loadClinvarGeneSummary(join(sources, 'clinvar/clinvar_gene_specific_summary.2021-11-07.txt.gz')) : null;
const GENE_BONUSES = [0.5, 1, 2, 3];
const groupIn: string[] = [];
const groupLopo: string[] = [];
const groupRanks = (kbX: typeof hpoKb, cands: ReadonlyMap<string, GeneScoreParts[]>, causal: readonly string[], present: string[], excluded: string[]): Record<string, number | null> => {
  if (!groups) return {};
  const m = getPhenotypeModel(kbX);
  const ph = scoreDiseases(m, resolveQuery(m, { present, excluded }, scoring), scoring);
  const labels = ['base', ...GROUP_SIZES.flatMap(([g]) => GROUP_PRIORS.map((p) => `${g}:${p}`)), ...['cv21', 'kbcv'].flatMap((s) => GENE_BONUSES.map((b) => `${s}:${b}`))];
  const scores = new Map<string, number[]>(labels.map((l) => [l, []]));
  const isCausal: boolean[] = [];
  for (const [sym, cs] of cands) {
    isCausal.push(causal.includes(sym));
    const base = Math.max(...cs.map((c) => geneScoreLn(c, DEFAULT_GENE_SCORE_CONSTANTS)));
    scores.get('base')?.push(base);
    const none = cs.find((c) => c.source === 'none');
    const eligible = !!none && !cs.some((c) => c.source === 'annotations');
    const plp21 = (cvSummary?.get(sym) ?? 0) > 0;
    const plpKb = (genome.genes.bySymbolOrAlias(sym)?.clinvar?.plpAlleles ?? 0) > 0;
    for (const b of GENE_BONUSES) {
      scores.get(`cv21:${b}`)?.push(eligible && plp21 ? base + b : base);
      scores.get(`kbcv:${b}`)?.push(eligible && plpKb ? base + b : base);
    }
    for (const [g, size] of GROUP_SIZES) {
      const gl = eligible ? groupProfileLn(groups, kbX, m, ph, sym, size) : null;
      for (const p of GROUP_PRIORS) {
        const extra = gl === null || !none ? -Infinity : geneScoreLn({ ...none, source: 'similar-titles', phenotypeLn: gl }, { ...DEFAULT_GENE_SCORE_CONSTANTS, similarTitlesDiseaseLn: p });
        scores.get(`${g}:${p}`)?.push(Math.max(base, extra));
      }
    }
  }
  const out: Record<string, number | null> = {};
  for (const [l, sc] of scores) {
    let best = -Infinity;
    isCausal.forEach((c, i) => { if (c) best = Math.max(best, sc[i] ?? -Infinity); });
    out[l] = best === -Infinity ? null : 1 + sc.filter((x, i) => !isCausal[i] && x >= best).length;
  }
  return out;
};
const variantRows: string[] = [];
const t0 = Date.now();
for (const c of chosen) {
  const sp = c.variants.filter(isSpikable).filter(hasSequenceAlleles);
  const lines = sp.map((v) => `chr${bare(v.chrom)}\t${v.pos}\t.\t${v.ref}\t${v.alt}\t.\tPASS\t.\tGT\t${GT[v.zygosity] ?? '0/1'}`);
  lines.sort((a, b) => a.localeCompare(b));
  writeFileSync(join(dir, 'sp.vcf'), [...header, ...lines].join('\n') + '\n');
  const spv = (await readAndAnnotateVcf(session, join(dir, 'sp.vcf'), { assembly: 'GRCh38' })).variants;
  const keys = new Set(sp.map((v) => key(v.chrom, v.pos, v.ref, v.alt)));
  const all = bg.filter((v) => !keys.has(key(v.chrom, v.pos, v.ref, v.alt))).concat(spv);
  const sex: Sex = c.sex === 'MALE' ? 'male' : c.sex === 'FEMALE' ? 'female' : 'unknown';
  const prepared = prepareVariants(arg('--all-variants') ? all : filterCandidates(all).candidates);
  const candidates = new Map<string, GeneScoreParts[]>();
  const res = rank(prepared, hpoKb, { hpoPresent: c.hpo_present, hpoExcluded: c.hpo_excluded, sex }, { limit: 100000, explainTop: 0, scoring, onGeneCandidates: (s, parts) => candidates.set(s, parts) });
  const collected = collectRanking(c.cohort, res, c.genes.map((g) => g.symbol), c.disease_ids, candidates);
  geneCases.push(collected.gene);
  if (groups) groupIn.push(JSON.stringify({ id: c.id, cohort: c.cohort, annotated: c.genes.some((g) => annotatedGenes.has(g.symbol)), ranks: groupRanks(hpoKb, candidates, c.genes.map((g) => g.symbol), c.hpo_present, c.hpo_excluded) }));
  geneScoreCases.push(collected.geneScores);
  diseaseScoreCases.push(collected.diseaseScores);
  // --save-raw: each gene's candidate scores (shipped constants), the annotated diseases' apart, for re-combining them offline.
  if (arg('--save-raw')) {
    const causalSet = new Set<string>(c.genes.map((g) => g.symbol));
    const genes = res.genes.map((x) => {
      const parts = candidates.get(x.symbol) ?? [x.scoreParts];
      const ann = parts.filter((p) => p.source === 'annotations').map((p) => +geneScoreLn(p, DEFAULT_GENE_SCORE_CONSTANTS).toFixed(4));
      const rest = Math.max(...parts.filter((p) => p.source !== 'annotations').map((p) => geneScoreLn(p, DEFAULT_GENE_SCORE_CONSTANTS)));
      return [causalSet.has(x.symbol) ? 1 : 0, +rest.toFixed(4), ann];
    });
    raw.push(JSON.stringify({ id: c.id, cohort: c.cohort, genes }));
  }
  if (arg('--dump')) {
    const causalSet = new Set<string>(c.genes.map((g) => g.symbol));
    const feats: unknown[] = [];
    res.genes.forEach((x, i) => {
      const gv = prepared.genes.get(x.symbol);
      const q = gv?.variants[0];
      if (!gv || !q) return;
      const annotated = x.evidence.phenotype?.source === 'annotations';
      if (!(i < 300 || causalSet.has(x.symbol) || !annotated)) return;
      const used = x.evidence.genotype.variants;
      const v = q.variant;
      const rec = genome.genes.bySymbolOrAlias(x.symbol);
      const lof = /frameshift|stop_gained|splice_donor_variant|splice_acceptor_variant|start_lost/.test(v.consequences.join(',')) ? 1 : 0;
      const mis = /missense|inframe/.test(v.consequences[0] ?? '') ? 1 : 0;
      const hom = used.some((u) => u.zygosity === 'homozygous' || u.zygosity === 'hemizygous') ? 1 : 0;
      feats.push([x.symbol, causalSet.has(x.symbol) ? 1 : 0, annotated ? 1 : 0, x.evidence.phenotype ? +x.evidence.phenotype.log10Lr.toFixed(3) : null, +x.evidence.genotype.fit.toFixed(4), x.evidence.genotype.mode, +q.p.toFixed(3), lof, mis, hom, used.length, rec?.clinvar?.plpAlleles ?? 0, rec?.clinvar?.plpMissense ?? 0, rec?.clinvar?.plpLof ?? 0, rec?.constraint?.pLI ?? null, rec?.constraint?.loeuf ?? null, rec?.constraint?.misZ ?? null, rec?.alphaMissenseMean ?? null, hpoKb.genes.has(x.symbol) ? 1 : 0, v.clinvar?.significance ?? null, v.acmg.classification, v.consequences[0] ?? null, x.evidence.phenotype?.source === 'disease-name' ? 1 : 0, +x.score.toFixed(4), x.scoreParts.source, v.clinvar?.stars ?? null, v.clinvar?.match ?? null, i, v.chrom, v.pos, used.map((u) => u.zygosity).join(','), geneModes(x.symbol)]);
    });
    const ph = Array.from<number>(scoreDiseases(model, resolveQuery(model, { present: c.hpo_present, excluded: c.hpo_excluded }))).sort((a, b) => b - a);
    const quant = [1, 3, 10, 30, 100, 300, 1000].map((k) => +(ph[k - 1] ?? 0).toFixed(3));
    dump.push(JSON.stringify({ id: c.id, cohort: c.cohort, causal: c.genes.map((g) => g.symbol), n: res.genes.length, quant, feats }));
  }

  if (hiddenMode && isAnnotated(hpoKb, c.disease_ids)) {
    const hk = hideDiseases(hpoKb, c.disease_ids, hiddenMode);
    const hiddenCandidates = new Map<string, GeneScoreParts[]>();
    const hres = rank(prepared, hk, { hpoPresent: c.hpo_present, hpoExcluded: c.hpo_excluded, sex }, { limit: 100000, explainTop: 0, onGeneCandidates: (s, parts) => hiddenCandidates.set(s, parts) });
    const syms = c.genes.map((g) => g.symbol);
    hiddenGeneCases.push(collectRanking(c.cohort, hres, syms, c.disease_ids, hiddenCandidates).gene);
    const hg = hres.genes.find((x) => syms.includes(x.symbol));
    const hr = hg ? hres.genes.filter((x) => x.score >= hg.score).length : null;
    const q = hg ? prepared.genes.get(hg.symbol)?.variants[0] : undefined;
    const detail = hg ? `${hg.symbol} ${JSON.stringify(hg.scoreParts)} p=${q?.p.toFixed(2)} ${q?.variant.consequences[0]} cv=${q?.variant.clinvar?.significance ?? '-'}/${q?.variant.clinvar?.match ?? '-'} acmg=${q?.variant.acmg.classification} mode=${hg.evidence.genotype.mode} best=${hg.bestDisease}` : 'absent';
    hiddenRows.push({ id: c.id, cohort: c.cohort, rank: hr, source: hg?.scoreParts.source ?? null, detail });
    getPhenotypeModel(hpoKb); // the hidden KB's model is dropped with it
  }
  if (lopoRowsOf) {
    const kbLopo = lopoKb(hpoKb, lopoRowsOf, c);
    const syms = c.genes.map((g) => g.symbol);
    let lres = res;
    let lcands = candidates;
    if (kbLopo) {
      const into = new Map<string, GeneScoreParts[]>();
      lres = rank(prepared, kbLopo, { hpoPresent: c.hpo_present, hpoExcluded: c.hpo_excluded, sex }, { limit: 100000, explainTop: 0, scoring, onGeneCandidates: (s, parts) => into.set(s, parts) });
      lcands = into;
    }
    if (groups) groupLopo.push(JSON.stringify({ id: c.id, cohort: c.cohort, annotated: c.genes.some((g) => annotatedGenes.has(g.symbol)), rebuilt: !!kbLopo, ranks: groupRanks(kbLopo ?? hpoKb, lcands, syms, c.hpo_present, c.hpo_excluded) }));
    if (kbLopo) getPhenotypeModel(hpoKb);
    lopoGeneCases.push(collectRanking(c.cohort, lres, syms, c.disease_ids, lcands).gene);
    const lg = lres.genes.find((x) => syms.includes(x.symbol));
    const lr = lg ? lres.genes.filter((x) => x.score >= lg.score).length : null;
    lopoRows.push({ id: c.id, cohort: c.cohort, rank: lr, rebuilt: !!kbLopo });
    if (arg('--lopo-out')) {
      const desc = (x: (typeof lres.genes)[number]): unknown => {
        const q = prepared.genes.get(x.symbol)?.variants[0];
        return { gene: x.symbol, score: +x.score.toFixed(3), parts: x.scoreParts, best: x.bestDisease ?? null, mode: x.evidence.genotype.mode, p: q ? +q.p.toFixed(3) : null, csq: q?.variant.consequences[0] ?? null, cv: q?.variant.clinvar?.significance ?? null };
      };
      const inRank = res.genes.findIndex((x) => syms.includes(x.symbol));
      lopoOut.push(JSON.stringify({ id: c.id, cohort: c.cohort, rebuilt: !!kbLopo, rank: lr, inSampleRank: inRank >= 0 ? res.genes.filter((x) => x.score >= (res.genes[inRank]?.score ?? Infinity)).length : null, inSample: inRank >= 0 ? desc(res.genes[inRank] as (typeof res.genes)[number]) : null, causal: lg ? desc(lg) : null, above: lg ? lres.genes.filter((x) => x.score >= lg.score && !syms.includes(x.symbol)).slice(0, 5).map(desc) : [] }));
    }
  }
  const symbols = c.genes.map((g) => g.symbol);
  // --variant-out: the causal variant's rank as bench:rank counts it (pessimistic, the other causal
  // allele of a pair not counted) and, per case, the causal genes' variants and those ranked above it.
  if (arg('--variant-out')) {
    const isSpiked = (v: { input: { chrom: string; pos: number; ref: string; alt: string } }): boolean => keys.has(key(v.input.chrom, v.input.pos, v.input.ref, v.input.alt));
    const best = res.variants.find(isSpiked);
    const vrank = best ? 1 + res.variants.filter((x) => x.score >= best.score && !isSpiked(x)).length : null;
    const desc = (x: (typeof res.variants)[number]): unknown => ({ gene: x.gene, spiked: isSpiked(x), score: +x.score.toFixed(4), p: +x.pathogenicity.toFixed(3), contributes: x.contributes, zyg: x.variant.genotype.zygosity, csq: x.variant.consequences[0] ?? null, cv: x.variant.clinvar ? `${x.variant.clinvar.significance}/${x.variant.clinvar.match ?? ''}/${x.variant.clinvar.stars ?? ''}` : null, acmg: x.variant.acmg.classification, at: `${x.chrom}:${x.pos}:${x.ref}:${x.alt}` });
    const geneVariants = res.variants.filter((x) => symbols.includes(x.gene)).map(desc);
    const above = best ? res.variants.filter((x) => x.score >= best.score && !isSpiked(x)).slice(0, 5).map(desc) : [];
    const gg = res.genes.find((x) => symbols.includes(x.symbol));
    // --variant-out-all: every listed variant as [gene index, log10 score, p, contributes, spiked, dose] (offline re-scoring).
    const gIdx = new Map(res.genes.map((x, i) => [x.symbol, i]));
    const all = process.argv.includes('--variant-out-all') ? { genes: res.genes.map((x) => [x.symbol, +x.score.toFixed(5), x.evidence.genotype.mode, x.evidence.genotype.variants.length]), variants: res.variants.map((x) => [gIdx.get(x.gene) ?? -1, +x.score.toFixed(5), +x.pathogenicity.toFixed(4), x.contributes ? 1 : 0, isSpiked(x) ? 1 : 0, x.variant.genotype.zygosity === 'homozygous' || x.variant.genotype.zygosity === 'hemizygous' ? 2 : 1]) } : undefined;
    variantRows.push(JSON.stringify({ ...(all ? { all } : {}), id: c.id, cohort: c.cohort, annotated: symbols.some((s) => annotatedGenes.has(s)), rank: vrank, geneRank: gg ? res.genes.filter((x) => x.score >= gg.score).length : null, variantRank: vrank, mode: gg?.evidence.genotype.mode ?? null, fit: gg ? +gg.evidence.genotype.fit.toFixed(4) : null, geneVariants, above }));
  }
  const g = res.genes.find((x) => symbols.includes(x.symbol));
  const r = g ? res.genes.filter((x) => x.score >= g.score).length : null;
  rows.push({ id: c.id, cohort: c.cohort, annotated: symbols.some((s) => annotatedGenes.has(s)), rank: r, source: g?.scoreParts.source ?? null });
}
const pct = (k: number, n: number): string => `${((100 * k) / Math.max(1, n)).toFixed(1)}%`;
for (const [label, sub] of [['all', rows], ['annotated', rows.filter((x) => x.annotated)], ['unannotated', rows.filter((x) => !x.annotated)]] as const) {
  const n = sub.length;
  const t = (k: number): number => sub.filter((x) => x.rank != null && x.rank <= k).length;
  console.log(`${label.padEnd(12)} n=${n} top1 ${pct(t(1), n)} top3 ${pct(t(3), n)} top10 ${pct(t(10), n)} top100 ${pct(t(100), n)}`);
}
console.log(`${((Date.now() - t0) / chosen.length).toFixed(0)} ms/case`);
if (hiddenMode) {
  const n = hiddenRows.length;
  const t = (k: number, sub = hiddenRows): number => sub.filter((x) => x.rank != null && x.rank <= k).length;
  console.log(`hidden (${hiddenMode}) n=${n} top1 ${pct(t(1), n)} top3 ${pct(t(3), n)} top10 ${pct(t(10), n)} top100 ${pct(t(100), n)}`);
  for (const src of ['annotations', 'allelic', 'series', 'similar-titles', 'disease-name', 'none']) {
    const sub = hiddenRows.filter((x) => x.source === src);
    console.log(`  source ${src} n=${sub.length} top1 ${pct(t(1, sub), sub.length)} top10 ${pct(t(10, sub), sub.length)} top100 ${pct(t(100, sub), sub.length)}`);
  }
  if (arg('--hidden-out')) writeFileSync(arg('--hidden-out') ?? '', hiddenRows.map((r) => `${r.id}\t${r.cohort}\t${r.rank}\t${r.detail}`).join('\n') + '\n');
  if (arg('--save-hidden')) writeFileSync(arg('--save-hidden') ?? '', JSON.stringify(hiddenGeneCases));
}
if (lopoRowsOf) {
  const n = lopoRows.length;
  const t = (k: number, sub = lopoRows): number => sub.filter((x) => x.rank != null && x.rank <= k).length;
  const reb = lopoRows.filter((x) => x.rebuilt);
  console.log(`LOPO n=${n} top1 ${pct(t(1), n)} top3 ${pct(t(3), n)} top10 ${pct(t(10), n)} top100 ${pct(t(100), n)}; rebuilt n=${reb.length} top1 ${pct(t(1, reb), reb.length)} top10 ${pct(t(10, reb), reb.length)}`);
  if (arg('--save-lopo')) writeFileSync(arg('--save-lopo') ?? '', JSON.stringify(lopoGeneCases));
  if (arg('--lopo-out')) writeFileSync(arg('--lopo-out') ?? '', lopoOut.join('\n') + '\n');
}
if (arg('--save')) writeFileSync(arg('--save') ?? '', JSON.stringify({ geneCases, geneScoreCases: geneScoreCases.map((c) => ({ ...c, ln: [...c.ln] })), diseaseScoreCases: diseaseScoreCases.map((c) => ({ ...c, ln: [...c.ln] })) }));
// Written before the (slow) cross-validation, so they can be read while it runs.
if (arg('--dump')) writeFileSync(arg('--dump') ?? '', dump.join('\n') + '\n');
if (arg('--save-raw')) writeFileSync(arg('--save-raw') ?? '', raw.join('\n') + '\n');
if (arg('--variant-out')) writeFileSync(arg('--variant-out') ?? '', variantRows.join('\n') + '\n');
if (groups) {
  writeFileSync(`${arg('--group-profile') ?? ''}.in.jsonl`, groupIn.join('\n') + '\n');
  if (lopoRowsOf) writeFileSync(`${arg('--group-profile') ?? ''}.lopo.jsonl`, groupLopo.join('\n') + '\n');
}
if (arg('--out')) writeFileSync(arg('--out') ?? '', rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
if (!process.argv.includes('--no-cv')) console.log(crossValidationSection(geneCases, geneScoreCases, diseaseScoreCases, [...(hiddenMode ? [{ label: `disease hidden (${hiddenMode})`, cases: hiddenGeneCases }] : []), ...(lopoRowsOf ? [{ label: 'own publication left out (LOPO)', cases: lopoGeneCases }] : [])]).join('\n'));
session.close();
