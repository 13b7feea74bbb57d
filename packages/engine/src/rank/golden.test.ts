/**
 * Golden ranking tests on well-known syndromes with the real HPO KB (built from
 * RARELENS_SOURCES, default ../shared/data beside the repository).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readKbManifest } from '../kb/build.ts';
import { buildHpoKb, loadHpoKb, type HpoKb } from '../kb/hpo-kb.ts';
import { kbBuiltThisRun } from '../kb/test-run-kb.ts';
import type { KbSourceEntry } from '../kb/types.ts';
import { rankPhenotype } from '../phenotype/rank-phenotype.ts';
import { buildVariant } from './test-builders.ts';
import { getPhenotypeModel } from '../phenotype/model.ts';
import { DEFAULT_SCORING_OPTIONS, resolveQuery, scoreDiseases } from '../phenotype/score.ts';
import { DEFAULT_FIT_FLOOR, DEFAULT_GENE_SCORE_CONSTANTS, geneScoreLn, type GeneScoreParts } from './gene-score.ts';
import { prepareVariants } from './prepare.ts';
import { clinvarPrioritiser, GENE_PRIORITISERS, geneConstraintPrioritiser, hypothesisParts, inheritancePrioritiser, phenotypePrioritiser, prioritiserContext, type Hypothesis } from './prioritisers.ts';
import { phenotypePartText, rank, rankCase, VARIANT_SHARE_WEIGHT } from './rank-case.ts';

const sources = process.env.RARELENS_SOURCES ?? resolve(import.meta.dirname, '../../../../../shared/data');
let kb: HpoKb;
let dir: string | undefined;
const recorded: KbSourceEntry[] = [];

beforeAll(async () => {
  // The KB this test run built from these sources with this code (CI; its manifest holds what
  // the HPO step recorded), else the HPO part built here.
  const built = kbBuiltThisRun(sources);
  if (built !== null) {
    recorded.push(...(await readKbManifest(built)).sources);
    kb = await loadHpoKb(built);
    return;
  }
  dir = mkdtempSync(join(tmpdir(), 'rarelens-hpo-golden-'));
  await buildHpoKb({
    sourcesDir: sources,
    outDir: dir,
    log: () => undefined,
    progress: () => undefined,
    addSource: (e) => recorded.push(e),
    reportMissing: () => undefined,
    warn: () => undefined,
  });
  kb = await loadHpoKb(dir);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const MARFAN = ['HP:0001166', 'HP:0001519', 'HP:0001083', 'HP:0002616', 'HP:0000545'];
const ACHONDROPLASIA = ['HP:0008905', 'HP:0002007', 'HP:0000256', 'HP:0002938', 'HP:0004060', 'HP:0003521'];
const PFEIFFER = ['HP:0001363', 'HP:0011304', 'HP:0010055', 'HP:0000316', 'HP:0000586', 'HP:0000327', 'HP:0000520'];

describe('HPO KB build', () => {
  it('records every source with its version and checksum', () => {
    const names = recorded.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['hpo-ontology', 'hpo-annotations', 'hpo-genes-to-disease']));
    const ann = recorded.find((e) => e.name === 'hpo-annotations');
    expect(ann?.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(ann?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(kb.diseases.length).toBeGreaterThan(10_000);
  });

  it('keeps inheritance and excluded annotations per disease', () => {
    expect(kb.diseaseById.get('OMIM:154700')?.inheritance).toContain('HP:0000006');
    expect(kb.diseases.some((d) => d.excluded.length > 0)).toBe(true);
  });
});

describe('golden phenotype-only rankings', () => {
  it('puts Marfan syndrome and FBN1 first for its cardinal features', () => {
    const r = rankPhenotype(kb, { present: MARFAN });
    expect(r.diseases[0]?.id).toBe('OMIM:154700');
    expect(r.genes[0]?.symbol).toBe('FBN1');
    expect(r.diseases[0]?.inheritance.map((t) => t.id)).toContain('HP:0000006');
    expect(r.diseases[0]?.matched?.filter((m) => m.kind === 'exact').length).toBeGreaterThanOrEqual(4);
  });

  it('puts achondroplasia and FGFR3 first', () => {
    const r = rankPhenotype(kb, { present: ACHONDROPLASIA });
    expect(r.diseases[0]?.id).toBe('OMIM:100800');
    expect(r.genes[0]?.symbol).toBe('FGFR3');
  });

  it('ranks Pfeiffer syndrome first and its genes in the top 2', () => {
    const r = rankPhenotype(kb, { present: PFEIFFER });
    expect(r.diseases[0]?.id).toBe('OMIM:101600');
    expect(r.genes.slice(0, 2).map((g) => g.symbol).sort()).toEqual(['FGFR1', 'FGFR2']);
  });

  it('demotes a disease whose obligate features are explicitly absent', () => {
    const base = rankPhenotype(kb, { present: MARFAN.slice(0, 2) }).diseases.find((d) => d.id === 'OMIM:154700');
    const excl = rankPhenotype(kb, { present: MARFAN.slice(0, 2), excluded: ['HP:0001083', 'HP:0002616'] }).diseases.find((d) => d.id === 'OMIM:154700');
    expect(excl?.score ?? Infinity).toBeLessThan(base?.score ?? -Infinity);
  });
});

describe('golden genotype-aware ranking', () => {
  const background = [
    buildVariant({ gene: 'TTN', chrom: '2', pos: 178_000_000, consequences: ['frameshift_variant'], score: 0.95 }),
    buildVariant({ gene: 'TWIST1', chrom: '7', pos: 19_100_000, score: 0.35 }),
    buildVariant({ gene: 'FGFR1', chrom: '8', pos: 38_400_000, consequences: ['intron_variant'], score: 0.05 }),
    buildVariant({ gene: 'BRCA2', chrom: '13', pos: 32_300_000, score: 0.3 }),
  ];
  const causal = buildVariant({ gene: 'FGFR2', chrom: '10', pos: 121_496_701, ref: 'A', alt: 'C', hgvsC: 'NM_000141.5:c.1019A>C', score: 0.7 });

  it('puts FGFR2 and its variant first in a Pfeiffer case and explains why', () => {
    const r = rankCase({ hpoPresent: PFEIFFER, hpoExcluded: [], sex: 'male', variants: [...background, causal] }, kb);
    expect(r.genes[0]?.symbol).toBe('FGFR2');
    expect(r.variants[0]?.gene).toBe('FGFR2');
    expect(r.variants[0]?.input).toMatchObject({ chrom: '10', pos: 121_496_701, ref: 'A', alt: 'C' });
    const ex = r.genes[0]?.explanation.join('\n') ?? '';
    expect(ex).toContain('Pfeiffer syndrome (OMIM:101600)');
    expect(ex).toContain('autosomal dominant');
    expect(ex).toContain('NM_000141.5:c.1019A>C');
    expect(r.genes[0]?.evidence.genotype.variants).toHaveLength(1);
    expect(r.diseases[0]?.id).toBe('OMIM:101600');
  });

  it('returns the first diseases of the full list, and the same genes and variants, under a disease limit', () => {
    const phenotype = { hpoPresent: PFEIFFER, hpoExcluded: [], sex: 'male' as const };
    const variants = [...background, causal];
    const full = rank(prepareVariants(variants), kb, phenotype, { limit: 20_000, explainVariants: false });
    const capped = rank(prepareVariants(variants), kb, phenotype, { limit: 20_000, diseaseLimit: 200, explainVariants: false });
    expect(full.diseases.length).toBeGreaterThan(1000);
    expect(capped.diseases).toHaveLength(200);
    expect(capped.diseases).toEqual(full.diseases.slice(0, 200));
    expect(capped.genes).toEqual(full.genes);
    expect(capped.variants).toEqual(full.variants);
  });

  it('ranks the same without variant explanations (explainVariants: false)', () => {
    const phenotype = { hpoPresent: PFEIFFER, hpoExcluded: [], sex: 'male' as const };
    const variants = [...background, causal];
    const full = rank(prepareVariants(variants), kb, phenotype);
    const bare = rank(prepareVariants(variants), kb, phenotype, { explainVariants: false });
    expect(full.variants.every((v) => v.explanation.length === 2)).toBe(true);
    expect(bare.variants.every((v) => v.explanation.length === 0)).toBe(true);
    const view = (r: typeof full) => r.variants.map((v) => [v.variant, v.rank, v.score, v.contributes]);
    expect(view(bare)).toEqual(view(full));
    expect(bare.genes).toEqual(full.genes);
    expect(bare.diseases).toEqual(full.diseases);
  });

  it('scores a gene by the prioritiser values and combines their parts in geneScoreLn alone', () => {
    const r = rankCase({ hpoPresent: PFEIFFER, hpoExcluded: [], sex: 'male', variants: [...background, causal] }, kb);
    for (const g of r.genes) expect(g.score * Math.LN10).toBeCloseTo(geneScoreLn(g.scoreParts, DEFAULT_GENE_SCORE_CONSTANTS), 9);
    expect(GENE_PRIORITISERS.map((p) => p.id)).toEqual(['phenotype', 'gene-constraint', 'inheritance', 'clinvar']);
    // FGFR2 under Pfeiffer syndrome, prioritiser by prioritiser.
    const model = getPhenotypeModel(kb);
    const query = resolveQuery(model, { present: PFEIFFER, excluded: [] });
    const ctx = prioritiserContext({ kb, model, query, scoring: DEFAULT_SCORING_OPTIONS, pheno: scoreDiseases(model, query), borrowed: new Float64Array(0), sex: 'male', family: null, fitFloor: DEFAULT_FIT_FLOOR, constants: DEFAULT_GENE_SCORE_CONSTANTS });
    const gv = prepareVariants([causal]).genes.get('FGFR2');
    const d = model.diseaseIndex.get('OMIM:101600');
    if (!gv || d === undefined) throw new Error('FGFR2 or Pfeiffer syndrome missing');
    const disease = { source: 'annotations', disease: d } as const;
    const fit = inheritancePrioritiser.bestFit(ctx, gv, disease);
    expect(fit?.mode).toBe('AD');
    if (!fit) return;
    const h: Hypothesis = { gv, disease, fit };
    expect(phenotypePrioritiser.evaluate(ctx, h)).toEqual({ source: 'annotations', phenotypeLn: ctx.pheno[d] });
    expect(ctx.pheno[d]).toBeGreaterThan(0);
    expect(inheritancePrioritiser.evaluate(ctx, h).fitLn).toBeCloseTo(Math.log(fit.score), 12);
    expect(geneConstraintPrioritiser.evaluate(ctx, h)).toEqual({ constraint: null });
    expect(clinvarPrioritiser.evaluate(ctx, h)).toEqual({ clinvar: false });
    const top = r.genes[0];
    expect(top?.bestDisease).toBe('OMIM:101600');
    expect(hypothesisParts(ctx, h)).toEqual(top?.scoreParts);
    expect(phenotypePrioritiser.explain(ctx, h, true)[0]).toBe(top?.explanation[0]);
    // A new disease of the gene: no phenotype evidence, the prior in its place.
    const none: Hypothesis = { gv, disease: { source: 'none' }, fit: inheritancePrioritiser.bestFit(ctx, gv, { source: 'none' }) ?? fit };
    expect(none.fit.mode).toBe('UNKNOWN');
    expect(phenotypePrioritiser.evaluate(ctx, none)).toEqual({ source: 'none', phenotypeLn: 0 });
    expect(phenotypePrioritiser.evidence(ctx, none, true)).toBeNull();
  });

  it('re-ranks prepared variants when the phenotype changes, without re-annotation', () => {
    const fbn1 = buildVariant({ gene: 'FBN1', chrom: '15', pos: 48_500_000, score: 0.7 });
    const prepared = prepareVariants([...background, causal, fbn1]);
    expect(rank(prepared, kb, { hpoPresent: PFEIFFER }).genes[0]?.symbol).toBe('FGFR2');
    expect(rank(prepared, kb, { hpoPresent: MARFAN }).genes[0]?.symbol).toBe('FBN1');
  });

  it('needs two hits in a recessive gene: compound heterozygous beats a single heterozygous variant', () => {
    // Ellis-van Creveld syndrome (EVC/EVC2, autosomal recessive).
    const evc = ['HP:0001839', 'HP:0001631', 'HP:0008905', 'HP:0000164', 'HP:0006101'];
    const one = rankCase({ hpoPresent: evc, variants: [buildVariant({ gene: 'EVC', chrom: '4', pos: 5_700_000, score: 0.6 })] }, kb);
    const two = rankCase(
      { hpoPresent: evc, variants: [buildVariant({ gene: 'EVC', chrom: '4', pos: 5_700_000, score: 0.6 }), buildVariant({ gene: 'EVC', chrom: '4', pos: 5_710_000, score: 0.6 })] },
      kb,
    );
    const g1 = one.genes.find((g) => g.symbol === 'EVC');
    const g2 = two.genes.find((g) => g.symbol === 'EVC');
    expect(g2?.evidence.genotype.mode).toBe('AR');
    expect(g2?.evidence.genotype.reason).toContain('compound-heterozygous');
    expect(g2?.score ?? -Infinity).toBeGreaterThan(g1?.score ?? Infinity);
  });

  it('scores a variant outside the best genotype as the gene would with it alone, and by its share of the gene under a one-hit mode, never above its gene', () => {
    // Ellis-van Creveld syndrome (EVC, autosomal recessive): a homozygous variant makes the genotype;
    // a heterozygous one of higher pathogenicity alone is only a single hit in a recessive gene.
    const evc = ['HP:0001839', 'HP:0001631', 'HP:0008905', 'HP:0000164', 'HP:0006101'];
    const hom = buildVariant({ gene: 'EVC', chrom: '4', pos: 5_700_000, zygosity: 'homozygous', score: 0.6 });
    const het = buildVariant({ gene: 'EVC', chrom: '4', pos: 5_710_000, score: 0.65 });
    const r = rankCase({ hpoPresent: evc, variants: [het, hom, ...background] }, kb);
    const gene = r.genes.find((g) => g.symbol === 'EVC');
    expect(gene?.evidence.genotype.mode).toBe('AR');
    expect(gene?.evidence.genotype.reason).toContain('homozygous, fits autosomal recessive');
    const [vHom, vHet] = [hom, het].map((x) => r.variants.find((v) => v.pos === x.pos));
    expect(vHom?.contributes).toBe(true);
    expect(vHom?.score).toBeCloseTo(gene?.score ?? NaN, 12);
    expect(vHet?.contributes).toBe(false);
    // The gene's score with the heterozygous variant alone: genotype fit 0.1 x 0.65 in place of 0.6.
    const w = DEFAULT_GENE_SCORE_CONSTANTS.genotypeWeight;
    expect(vHet?.score).toBeCloseTo((gene?.score ?? NaN) + (w * Math.log((0.1 * 0.65) / 0.6)) / Math.LN10, 12);
    expect(vHet?.rank ?? 0).toBeGreaterThan(vHom?.rank ?? Infinity);
    expect(vHet?.explanation[1]).toContain('only one heterozygous variant in a recessive gene (genotype fit 0.07)');
    // Dominant: a second variant alone gives its own pathogenicity as the fit, and under a one-hit mode
    // each variant carries its share of the gene's pathogenicity (0.7 and 0.35 of 1.05); no variant outranks its gene.
    const fgfr2 = rankCase({ hpoPresent: PFEIFFER, sex: 'male', variants: [causal, buildVariant({ gene: 'FGFR2', chrom: '10', pos: 121_500_000, score: 0.35 }), ...background] }, kb);
    const g2 = fgfr2.genes[0];
    const first = fgfr2.variants.find((v) => v.pos === causal.pos);
    const second = fgfr2.variants.find((v) => v.pos === 121_500_000);
    expect(g2?.symbol).toBe('FGFR2');
    expect(g2?.evidence.genotype.mode).toBe('AD');
    expect(first?.contributes).toBe(true);
    expect(first?.score).toBeCloseTo((g2?.score ?? NaN) + VARIANT_SHARE_WEIGHT * Math.log10(0.7 / 1.05), 12);
    expect(second?.score).toBeCloseTo((g2?.score ?? NaN) + (w * Math.log(0.35 / 0.7)) / Math.LN10 + VARIANT_SHARE_WEIGHT * Math.log10(0.35 / 1.05), 12);
    expect(first?.explanation[1]).toContain('one of 2 variants of FGFR2, where one is enough (autosomal dominant): 67 % of their pathogenicity (-0.09 on the score)');
    // A gene's only variant keeps the gene's score.
    expect(fgfr2.variants.find((v) => v.gene === 'TTN')?.score).toBeCloseTo(fgfr2.genes.find((g) => g.symbol === 'TTN')?.score ?? NaN, 12);
    for (const res of [r, fgfr2]) for (const v of res.variants) expect(v.score).toBeLessThanOrEqual((res.genes.find((g) => g.symbol === v.gene)?.score ?? -Infinity) + 1e-12);
  });

  it('ranks a hemizygous X-linked variant in a male above the same variant in a female', () => {
    // Duchenne muscular dystrophy (DMD, X-linked recessive).
    const dmd = ['HP:0003236', 'HP:0003707', 'HP:0003391', 'HP:0001252', 'HP:0003560'];
    const v = buildVariant({ gene: 'DMD', chrom: 'X', pos: 31_000_000, zygosity: 'heterozygous', score: 0.9 });
    const male = rankCase({ hpoPresent: dmd, sex: 'male', variants: [v] }, kb).genes.find((g) => g.symbol === 'DMD');
    const female = rankCase({ hpoPresent: dmd, sex: 'female', variants: [v] }, kb).genes.find((g) => g.symbol === 'DMD');
    expect(male?.explanation.join(' ')).toContain('hemizygous in a male');
    expect(male?.score ?? -Infinity).toBeGreaterThan(female?.score ?? Infinity);
  });

  it('keeps a gene whose disease has no annotations ranked on the features its name states', () => {
    // EEF1D: OMIM:621150 "neurodevelopmental disorder with thin corpus callosum, hypotonia, and
    // absent language" is linked by genes_to_disease but not annotated in the 2025-05-06 hpoa.
    expect(kb.diseaseById.has('OMIM:621150')).toBe(false);
    expect(kb.namedDiseases.get('OMIM:621150')?.nameTerms).toEqual(expect.arrayContaining(['HP:0033725', 'HP:0001252', 'HP:0001344']));
    const eef1d = buildVariant({ gene: 'EEF1D', chrom: '8', pos: 143_580_000, zygosity: 'homozygous', consequences: ['frameshift_variant'], score: 0.5 });
    const novel = buildVariant({ gene: 'NOVELGENE1', chrom: '3', pos: 1_000_000, zygosity: 'homozygous', consequences: ['frameshift_variant'], score: 0.5 });
    const r = rankCase({ hpoPresent: ['HP:0033725', 'HP:0001252', 'HP:0001344', 'HP:0000252'], variants: [eef1d, novel] }, kb);
    const g = r.genes.find((x) => x.symbol === 'EEF1D');
    const other = r.genes.find((x) => x.symbol === 'NOVELGENE1');
    expect(g?.rank).toBe(1);
    expect(g?.bestDisease).toBe('OMIM:621150');
    expect(g?.evidence.phenotype).toMatchObject({ diseaseId: 'OMIM:621150', source: 'disease-name' });
    expect(g?.evidence.phenotype?.matched.map((m) => m.term).sort()).toEqual(['HP:0001252', 'HP:0001344', 'HP:0033725']);
    expect(g?.explanation[0]).toContain('No annotated disease for this gene (EEF1D)');
    expect(g?.explanation[0]).toContain('OMIM:621150');
    // The gene without any disease is still listed, on its variant alone.
    expect(other?.explanation[0]).toContain('No annotated disease for this gene (NOVELGENE1): ranked on its variants and gene constraint alone');
    expect(other?.evidence.phenotype).toBeNull();
    // Features the name does not state are unknown, not evidence against: the score only rises with matches.
    const fewer = rankCase({ hpoPresent: ['HP:0033725'], variants: [eef1d] }, kb).genes[0];
    const none = rankCase({ hpoPresent: ['HP:0001166'], variants: [eef1d] }, kb).genes[0];
    expect(none?.evidence.phenotype?.log10Lr).toBe(0);
    expect(fewer?.score ?? -Infinity).toBeGreaterThan(none?.score ?? Infinity);
    expect(g?.score ?? -Infinity).toBeGreaterThan(fewer?.score ?? Infinity);
  });

  it('keeps a LoF variant in a LoF-intolerant gene with no disease in the top 10 above rare missense in unrelated disease genes', () => {
    const constrained = { pLI: 1, loeuf: 0.12, misZ: 2, source: 'gnomAD v4.1' };
    const novel = { ...buildVariant({ gene: 'NOVELGENE2', chrom: '5', pos: 2_000_000, consequences: ['stop_gained'], hgvsC: 'NM_999999.1:c.100C>T', score: 0.9 }), geneConstraint: constrained };
    // Rare missense in annotated genes whose diseases do not fit the patient (the usual exome background).
    const others = ['FBN1', 'DMD', 'EVC', 'TTN', 'BRCA2', 'COL1A1', 'COL2A1', 'MYH7', 'SCN5A', 'KCNQ1', 'PKD1', 'CFTR'].map((gene, i) =>
      buildVariant({ gene, chrom: '1', pos: 10_000 + i, consequences: ['missense_variant'], score: 0.35 }),
    );
    const r = rankCase({ hpoPresent: ['HP:0001249', 'HP:0001250', 'HP:0000252'], variants: [...others, novel] }, kb);
    const g = r.genes.find((x) => x.symbol === 'NOVELGENE2');
    expect(g?.rank).toBeLessThanOrEqual(10);
    expect(g?.explanation[0]).toContain('No annotated disease for this gene (NOVELGENE2)');
    expect(g?.explanation.join('\n')).toContain('loss-of-function variant in a LoF-intolerant gene');
    expect(g?.scoreParts).toMatchObject({ source: 'none', constraint: 'lof' });
  });

  it('never ranks a known disease gene below the same variant in a gene with no disease (a new disease of the gene)', () => {
    // CFTR's annotated diseases are recessive and do not fit Marfan features; one heterozygous
    // stop-gain then fits them poorly, but the gene may carry a disease not annotated yet.
    const cftr = buildVariant({ gene: 'CFTR', chrom: '7', pos: 117_559_000, consequences: ['stop_gained'], score: 0.9 });
    const novel = buildVariant({ gene: 'NOVELGENE3', chrom: '7', pos: 1_000_000, consequences: ['stop_gained'], score: 0.9 });
    const r = rankCase({ hpoPresent: MARFAN, variants: [cftr, novel] }, kb);
    const g = r.genes.find((x) => x.symbol === 'CFTR');
    const n = r.genes.find((x) => x.symbol === 'NOVELGENE3');
    expect(g?.scoreParts.source).toBe('none');
    expect(g?.score).toBeCloseTo(n?.score ?? NaN, 9);
    expect(g?.explanation[0]).toContain('No annotated disease of this gene fits better (CFTR)');
    expect(g?.evidence.genotype.mode).toBe('UNKNOWN');
    // With the patient's features matching one of its diseases and two hits, the annotated disease wins.
    const cf = ['HP:0006528', 'HP:0002613', 'HP:0001738', 'HP:0002205'];
    const two = rankCase({ hpoPresent: cf, variants: [cftr, { ...cftr, pos: 117_560_000 }] }, kb).genes.find((x) => x.symbol === 'CFTR');
    expect(two?.scoreParts.source).toBe('annotations');
    expect(two?.evidence.genotype.mode).toBe('AR');
  });

  it('ranks a gene on the phenotype of its annotated disease when the genotype fits only another inheritance (a possibly allelic disease)', () => {
    // Cystic fibrosis features and one heterozygous CFTR stop-gain: the recessive disease fits the
    // phenotype but not the genotype; a related disease of the same gene with another mode may.
    const cf = ['HP:0006528', 'HP:0002613', 'HP:0001738', 'HP:0002205'];
    const cftr = buildVariant({ gene: 'CFTR', chrom: '7', pos: 117_559_000, consequences: ['stop_gained'], score: 0.9 });
    const novel = buildVariant({ gene: 'NOVELGENE4', chrom: '7', pos: 1_000_000, consequences: ['stop_gained'], score: 0.9 });
    const seen = new Map<string, GeneScoreParts[]>();
    const k = { ...DEFAULT_GENE_SCORE_CONSTANTS, allelicDiseaseLn: -2 };
    const r = rankCase({ hpoPresent: cf, variants: [cftr, novel] }, kb, { constants: k, onGeneCandidates: (s, parts) => seen.set(s, parts) });
    const g = r.genes.find((x) => x.symbol === 'CFTR');
    expect(g?.rank).toBe(1);
    expect(g?.scoreParts.source).toBe('allelic');
    expect(g?.evidence.genotype.mode).toBe('UNKNOWN');
    expect(g?.evidence.phenotype?.source).toBe('annotations');
    expect(g?.explanation.join('\n')).toContain('Possibly allelic disease (CFTR)');
    // The gene takes the best of its candidates, each scored by geneScoreLn.
    const cands = seen.get('CFTR') ?? [];
    expect(cands.map((p) => p.source)).toEqual(expect.arrayContaining(['annotations', 'allelic', 'none']));
    expect(Math.max(...cands.map((p) => geneScoreLn(p, k))) / Math.LN10).toBeCloseTo(g?.score ?? NaN, 9);
    // The allelic candidate is the annotated disease's phenotype plus the prior, with the unknown-inheritance fit.
    const ann = cands.filter((p) => p.source === 'annotations').reduce((m, p) => Math.max(m, p.phenotypeLn), -Infinity);
    expect(g?.scoreParts.phenotypeLn).toBeCloseTo(ann, 9);
    // Switched off (a prior far below the single-hit penalty), the recessive disease explains the gene again.
    const off = rankCase({ hpoPresent: cf, variants: [cftr, novel] }, kb, { constants: { ...k, allelicDiseaseLn: -1000 } }).genes.find((x) => x.symbol === 'CFTR');
    expect(off?.scoreParts.source).toBe('annotations');
    expect(off?.score ?? Infinity).toBeLessThan(g?.score ?? -Infinity);
  });

  it('lowers a disease and its gene when the patient explicitly lacks its typical features', () => {
    const fbn1 = buildVariant({ gene: 'FBN1', chrom: '15', pos: 48_500_000, score: 0.7 });
    const base = rankCase({ hpoPresent: MARFAN.slice(0, 2), variants: [...background, fbn1] }, kb);
    const excl = rankCase({ hpoPresent: MARFAN.slice(0, 2), hpoExcluded: ['HP:0001083', 'HP:0002616'], variants: [...background, fbn1] }, kb);
    const d0 = base.diseases.find((d) => d.id === 'OMIM:154700');
    const d1 = excl.diseases.find((d) => d.id === 'OMIM:154700');
    expect(d1?.score ?? Infinity).toBeLessThan(d0?.score ?? -Infinity);
    expect(d1?.postTestProbability ?? Infinity).toBeLessThan(d0?.postTestProbability ?? -Infinity);
    const g0 = base.genes.find((g) => g.symbol === 'FBN1');
    const g1 = excl.genes.find((g) => g.symbol === 'FBN1');
    expect(g1?.score ?? Infinity).toBeLessThan(g0?.score ?? -Infinity);
  });

  it('gives calibrated post-test probabilities that follow the ranking and explains the score exactly', () => {
    const r = rankCase({ hpoPresent: PFEIFFER, hpoExcluded: [], sex: 'male', variants: [...background, causal] }, kb);
    const p = r.genes.map((g) => g.postTestProbability);
    expect(p.every((x, i) => x >= 0 && (i === 0 || x <= (p[i - 1] ?? 1)))).toBe(true);
    expect(p.reduce((a, b) => a + b, 0)).toBeLessThan(1);
    expect(p[0]).toBeGreaterThan(0.5);
    const dp = r.diseases.map((d) => d.postTestProbability);
    expect(dp.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1);
    expect(dp[0]).toBeGreaterThan(dp[1] ?? 1);
    // The explanation's parts add up to the score (log10, two decimals).
    const top = r.genes[0];
    const line = top?.explanation.find((l) => l.startsWith('Score (log10):')) ?? '';
    const nums = [...line.replace(/post-test.*$/, '').matchAll(/(-?\d+\.\d+)/g)].map((m) => Number(m[1]));
    const total = nums.pop() ?? NaN;
    expect(nums.reduce((a, b) => a + b, 0)).toBeCloseTo(total, 1);
    expect(total).toBeCloseTo(top?.score ?? NaN, 2);
    expect(line).toMatch(/post-test probability \d+/);
    // The phenotype part is derived from the LR line in a line of its own, ending in the Score line's figure.
    const part = top?.explanation.find((l) => l.startsWith('Phenotype part of the score:')) ?? '';
    expect(part).toMatch(/^Phenotype part of the score: 0\.5 × log10 LR \d+\.\d\d/);
    expect(line).toContain(`phenotype ${part.split(' = ').pop()} +`);
  });

  it('says how the phenotype part of the score comes from the likelihood ratio', () => {
    const k = DEFAULT_GENE_SCORE_CONSTANTS;
    const parts = (source: GeneScoreParts['source'], log10Lr: number): GeneScoreParts => ({ source, phenotypeLn: log10Lr * Math.LN10, fitLn: 0, constraint: null, clinvar: false });
    expect(phenotypePartText(parts('annotations', 9.8), k)).toBe('Phenotype part of the score: 0.5 × log10 LR 9.80 = 4.90');
    expect(phenotypePartText(parts('annotations', 12.4), k)).toBe('Phenotype part of the score: 0.5 × log10 LR 12.40 tempered to 11.20 (the part above 10 counts half) = 5.60');
    expect(phenotypePartText(parts('allelic', 4), k)).toBe(
      `Phenotype part of the score: 0.5 × log10 LR 4.00 + prior ${(k.allelicDiseaseLn / Math.LN10).toFixed(2)} for a possibly allelic disease = ${(2 + k.allelicDiseaseLn / Math.LN10).toFixed(2)}`,
    );
    expect(phenotypePartText(parts('none', 0), k)).toBeNull();
  });
});
