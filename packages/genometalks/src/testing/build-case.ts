/**
 * Test builders: a miniature HPO knowledge base (craniosynostosis and epilepsy diseases with
 * real ids and names) and a case ranked on it by the engine, presented as the cases API does.
 */
import {
  Ontology,
  phenotypeSourceOf,
  prepareVariants,
  rank,
  type AnnotatedVariant,
  type HpoDisease,
  type HpoGene,
  type HpoKb,
  type Term,
  type Zygosity,
} from '@rarelens/engine';
import type { CaseContext, CaseDisease, CaseGene, CaseVariant } from '../context.ts';
import type { ChatKnowledge } from '../knowledge.ts';

type TermRow = [id: string, label: string, parents: string[], synonyms?: string[]];

const TERMS: TermRow[] = [
  ['HP:0000001', 'All', []],
  ['HP:0000118', 'Phenotypic abnormality', ['HP:0000001']],
  ['HP:0000005', 'Mode of inheritance', ['HP:0000001']],
  ['HP:0000006', 'Autosomal dominant inheritance', ['HP:0000005']],
  ['HP:0000007', 'Autosomal recessive inheritance', ['HP:0000005']],
  ['HP:0001419', 'X-linked recessive inheritance', ['HP:0000005']],
  ['HP:0000707', 'Abnormality of the nervous system', ['HP:0000118']],
  ['HP:0001250', 'Seizure', ['HP:0000707'], ['Seizures', 'Epileptic seizure']],
  ['HP:0002373', 'Febrile seizure', ['HP:0001250'], ['Febrile seizures']],
  ['HP:0001249', 'Intellectual disability', ['HP:0000707'], ['Mental retardation']],
  ['HP:0001252', 'Hypotonia', ['HP:0000707'], ['Low muscle tone']],
  ['HP:0000152', 'Abnormality of head or neck', ['HP:0000118']],
  ['HP:0001363', 'Craniosynostosis', ['HP:0000152'], ['Premature closure of the skull sutures']],
  ['HP:0000316', 'Hypertelorism', ['HP:0000152'], ['Widely spaced eyes']],
  ['HP:0000586', 'Shallow orbits', ['HP:0000152']],
  ['HP:0040064', 'Abnormality of limbs', ['HP:0000118']],
  ['HP:0011304', 'Broad thumb', ['HP:0040064'], ['Wide thumbs']],
  ['HP:0001169', 'Broad palm', ['HP:0040064']],
  ['HP:0010055', 'Broad hallux', ['HP:0040064'], ['Broad big toe']],
  ['HP:0000598', 'Abnormality of the ear', ['HP:0000118']],
  ['HP:0000365', 'Hearing impairment', ['HP:0000598'], ['Hearing loss', 'Deafness']],
  ['HP:0001627', 'Abnormal heart morphology', ['HP:0000118'], ['Heart defect']],
];

type AnnotationRow = [term: string, frequency: number | null];

function disease(id: string, name: string, inheritance: string[], genes: string[], annotations: AnnotationRow[]): HpoDisease {
  return {
    id,
    name,
    mondo: null,
    annotations: annotations.map(([term, frequency]) => ({ term, frequency, frequencyText: null, counts: null, onset: null })),
    excluded: [],
    inheritance,
    onset: [],
    genes,
  };
}

const DISEASES: HpoDisease[] = [
  disease('OMIM:101600', 'Pfeiffer syndrome', ['HP:0000006'], ['FGFR2', 'FGFR1'], [
    ['HP:0001363', 0.9], ['HP:0011304', 0.9], ['HP:0010055', 0.9], ['HP:0000316', 0.545], ['HP:0000586', 0.545], ['HP:0000365', 0.17],
  ]),
  disease('OMIM:123500', 'Crouzon syndrome', ['HP:0000006'], ['FGFR2'], [
    ['HP:0001363', 0.9], ['HP:0000586', 0.9], ['HP:0000316', 0.545], ['HP:0000365', 0.545],
  ]),
  disease('OMIM:101400', 'Saethre-Chotzen syndrome', ['HP:0000006'], ['TWIST1'], [
    ['HP:0001363', 0.9], ['HP:0000316', 0.545], ['HP:0001627', 0.17],
  ]),
  disease('OMIM:266100', 'Epilepsy, early-onset, vitamin B6-dependent', ['HP:0000007'], ['ALDH7A1'], [
    ['HP:0001250', 1], ['HP:0001249', 0.545], ['HP:0001252', 0.545],
  ]),
  // A locus without a gene whose name is also a symptom.
  disease('OMIM:121210', 'Febrile seizures, familial, 1', ['HP:0000006'], [], [['HP:0002373', 1]]),
  disease('OMIM:300672', 'Developmental and epileptic encephalopathy 2', ['HP:0001419'], ['CDKL5'], [
    ['HP:0001250', 1], ['HP:0001249', 0.9], ['HP:0001252', 0.545],
  ]),
];

export function buildKnowledge(): ChatKnowledge {
  const terms: Term[] = TERMS.map(([id, label, parents, synonyms = []]) => ({
    id,
    label,
    parents,
    synonyms: synonyms.map((text) => ({ text, scope: 'exact' as const })),
    obsolete: false,
    altIds: [],
  }));
  const genes = new Map<string, HpoGene>();
  for (const d of DISEASES) {
    for (const g of d.genes) {
      const entry = genes.get(g) ?? { symbol: g, ncbiGeneId: '0', diseases: [] };
      entry.diseases.push({ id: d.id, association: 'MENDELIAN' });
      genes.set(g, entry);
    }
  }
  const hpo: HpoKb = {
    versions: { hpo: 'test', annotations: 'test', mondo: 'test' },
    ontology: new Ontology({ version: 'test', terms }),
    diseases: DISEASES,
    diseaseById: new Map(DISEASES.map((d) => [d.id, d])),
    namedDiseases: new Map(),
    genes,
  };
  return { hpo };
}

export interface VariantSpec {
  gene: string;
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
  zygosity: Zygosity;
  hgvsC: string;
  hgvsP: string | null;
  consequence: string;
  score: number;
  acmg: AnnotatedVariant['acmg'];
  clinvar?: AnnotatedVariant['clinvar'];
  af?: number | null;
  /** Expected coding outcomes when the codon is not known (no reference sequence). */
  codingOutcome?: { term: string; p: number }[];
}

export const PFEIFFER_VARIANT: VariantSpec = {
  gene: 'FGFR2',
  chrom: '10',
  pos: 121520160,
  ref: 'G',
  alt: 'C',
  zygosity: 'heterozygous',
  hgvsC: 'NM_000141.5:c.755C>G',
  hgvsP: 'p.(Ser252Trp)',
  consequence: 'missense_variant',
  score: 0.97,
  acmg: {
    classification: 'Pathogenic',
    points: 12,
    criteria: [
      { code: 'PS1', strength: 'Strong', points: 4, reason: 'Same amino-acid change as a ClinVar pathogenic variant' },
      { code: 'PM2', strength: 'Moderate', points: 2, reason: 'Absent from population databases' },
      { code: 'PP5', strength: 'Strong', points: 4, reason: 'ClinVar Pathogenic, 3 stars' },
    ],
  },
  clinvar: { significance: 'Pathogenic', stars: 3, id: 'VCV000013272', conditions: ['Apert syndrome'], match: 'exact', reviewStatus: 'reviewed by expert panel', release: '2026-02-26' },
  af: 0,
};

export const DEFAULT_VARIANTS: VariantSpec[] = [
  PFEIFFER_VARIANT,
  {
    gene: 'TWIST1', chrom: '7', pos: 19116000, ref: 'C', alt: 'T', zygosity: 'heterozygous', hgvsC: 'NM_000474.4:c.300G>A', hgvsP: 'p.(Trp100Ter)',
    consequence: 'stop_gained', score: 0.6, acmg: { classification: 'Uncertain significance', points: 2, criteria: [{ code: 'PM2', strength: 'Moderate', points: 2, reason: 'Absent from population databases' }] }, af: null,
  },
  {
    gene: 'ALDH7A1', chrom: '5', pos: 126560000, ref: 'A', alt: 'G', zygosity: 'heterozygous', hgvsC: 'NM_001182.5:c.500T>C', hgvsP: 'p.(Leu167Pro)',
    consequence: 'missense_variant', score: 0.5, acmg: { classification: 'Uncertain significance', points: 1, criteria: [{ code: 'PP3', strength: 'Supporting', points: 1, reason: 'Predicted damaging' }] }, af: 0.0001,
  },
  {
    gene: 'CDKL5', chrom: 'X', pos: 18500000, ref: 'T', alt: 'C', zygosity: 'heterozygous', hgvsC: 'NM_001323289.2:c.200A>G', hgvsP: 'p.(Asn67Ser)',
    consequence: 'missense_variant', score: 0.3, acmg: { classification: 'Uncertain significance', points: 0, criteria: [] }, af: 0.001,
  },
];

function annotated(s: VariantSpec, line: number): AnnotatedVariant {
  return {
    chrom: s.chrom,
    pos: s.pos,
    ref: s.ref,
    alt: s.alt,
    input: { chrom: s.chrom, pos: s.pos, ref: s.ref, alt: s.alt, line },
    assembly: 'GRCh38',
    genotype: { gt: s.zygosity === 'homozygous' ? '1/1' : '0/1', zygosity: s.zygosity, depth: 40 },
    filter: ['PASS'],
    qual: 50,
    gene: s.gene,
    hgncId: null,
    transcript: s.hgvsC.split(':')[0] ?? null,
    isManeSelect: true,
    consequences: [s.consequence],
    impact: s.consequence === 'stop_gained' ? 'HIGH' : 'MODERATE',
    hgvsC: s.hgvsC,
    hgvsP: s.hgvsP,
    af: s.af ?? null,
    afSource: s.af == null ? null : 'gnomAD',
    clinvar: s.clinvar ?? null,
    acmg: s.acmg,
    score: s.score,
    ...(s.codingOutcome ? { codingOutcome: s.codingOutcome } : {}),
  };
}

export interface CaseSpec {
  present?: string[];
  excluded?: string[];
  sex?: 'male' | 'female';
  variants?: VariantSpec[];
  status?: CaseContext['product']['status'];
}

/** Ranks the variants on the miniature KB with the engine and presents the result like the cases API. */
export function buildCase(knowledge: ChatKnowledge, spec: CaseSpec = {}): CaseContext {
  const present = spec.present ?? ['HP:0001363', 'HP:0011304', 'HP:0000316', 'HP:0001250'];
  const excluded = spec.excluded ?? ['HP:0000365'];
  const sex = spec.sex ?? 'female';
  const variants = (spec.variants ?? DEFAULT_VARIANTS).map((s, i) => annotated(s, 100 + i));
  const label = (id: string) => ({ id, label: knowledge.hpo.ontology.label(id) ?? id });
  const result = rank(prepareVariants(variants), knowledge.hpo, { hpoPresent: present, hpoExcluded: excluded, sex });
  const genes: CaseGene[] = result.genes.map((g) => ({
    symbol: g.symbol,
    rank: g.rank,
    geneId: null,
    name: null,
    score: g.score,
    phenotypeScore: g.evidence.phenotype?.log10Lr ?? 0,
    variantScore: g.evidence.genotype.fit,
    probability: g.postTestProbability,
    inheritance: [g.evidence.genotype.modeLabel],
    significance: null,
    variantCount: variants.filter((v) => v.gene === g.symbol).length,
    topDisease: g.bestDisease ? { id: g.bestDisease, label: knowledge.hpo.diseaseById.get(g.bestDisease)?.name ?? '' } : null,
    chromosome: null,
    type: null,
    description: null,
    synonyms: g.symbol === 'FGFR2' ? ['BEK', 'CEK3'] : [],
    ageOfOnset: [],
    explanation: g.explanation,
    phenotypeSource: phenotypeSourceOf(g),
    diseases: (knowledge.hpo.genes.get(g.symbol)?.diseases ?? []).map((d) => ({ id: d.id, label: knowledge.hpo.diseaseById.get(d.id)?.name ?? d.id })),
  }));
  const diseases: CaseDisease[] = result.diseases.map((d) => ({
    id: d.id,
    rank: d.rank,
    name: d.name,
    score: d.score,
    probability: d.postTestProbability,
    significance: null,
    inheritance: d.inheritance,
    onset: d.onset,
    genes: d.genes,
    matchedTerms: (d.matched ?? []).map((m) => ({ id: m.term, label: m.label, match: m.kind, diseaseTermId: m.diseaseTerm, diseaseTermLabel: m.diseaseTermLabel })),
    explanation: d.explanation ?? [],
    mergedIds: d.mergedIds,
    phenotypeSource: d.phenotypeSource,
  }));
  const ranked: CaseVariant[] = result.variants.map((r) => {
    const v = r.variant;
    return {
      id: v.input.line,
      rank: r.rank,
      chrom: v.chrom,
      pos: v.pos,
      ref: v.ref,
      alt: v.alt,
      gene: v.gene,
      transcript: v.transcript,
      consequence: v.consequences[0] ?? null,
      consequences: v.consequences,
      impact: v.impact,
      hgvsC: v.hgvsC,
      hgvsP: v.hgvsP,
      af: v.af,
      clinvar: v.clinvar?.significance ?? null,
      clinvarAssertion: v.clinvar
        ? {
            significance: v.clinvar.significance,
            stars: v.clinvar.stars,
            reviewStatus: v.clinvar.reviewStatus ?? null,
            release: v.clinvar.release ?? null,
            source: v.clinvar.source ?? null,
            id: v.clinvar.id ?? null,
            idType: v.clinvar.idType ?? null,
            url: null,
            match: v.clinvar.match,
          }
        : null,
      acmg: v.acmg.classification,
      acmgPoints: v.acmg.points,
      reviewerClassification: null,
      zygosity: v.genotype.zygosity,
      score: r.score,
      genotypes: null,
      inheritance: [],
      compoundHetPartners: [],
      inheritanceRules: [],
      hgncId: null,
      isManeSelect: v.isManeSelect ?? false,
      afSource: v.afSource ?? null,
      qual: v.qual,
      filter: v.filter,
      genotype: { gt: v.genotype.gt, zygosity: v.genotype.zygosity, depth: v.genotype.depth ?? null, genotypeQuality: null, alleleDepths: null, heteroplasmy: null },
      input: v.input,
      inputAssembly: 'GRCh38',
      acmgCriteria: v.acmg.criteria.map((c) => ({ code: c.code, strength: c.strength, points: c.points, reason: c.reason })),
      clinvarRecord: v.clinvar ? { significance: v.clinvar.significance, stars: v.clinvar.stars, id: v.clinvar.id ?? null, conditions: v.clinvar.conditions ?? [], match: v.clinvar.match } : null,
      frequencies: v.af == null ? [] : [{ source: v.afSource ?? 'population', af: v.af }],
      acmgNotAssessed: v.af == null ? [{ code: 'PM2', reason: 'no population frequency data for this variant' }] : [],
      codingOutcome: v.codingOutcome ?? [],
      otherGenes: [],
      geneConstraint: null,
      // Fixture variants are ranked, so no ranking filter refused them; the outcomes are not modelled here.
      rankingFilters: [],
    };
  });
  return {
    product: { id: 'case-1', caseId: 'P-001', sex, status: spec.status ?? 'Completed', hpoTerms: present.map(label), excludedTerms: excluded.map(label), hpoTermsSource: 'given' },
    run: {
      id: 'run-1',
      softwareVersion: 'test',
      assembly: 'GRCh38',
      inputAssembly: 'GRCh37',
      kbVersions: { hpo: 'test', clinvar: '2026-02-26' },
      counts: { records: 1200, alleles: 1210, structural: 3, liftFailed: 2 },
      startedAt: '2026-01-01T00:00:00.000Z',
      completedAt: '2026-01-01T00:01:00.000Z',
      rankedAt: '2026-01-01T00:01:00.000Z',
    },
    genes,
    diseases,
    variants: ranked,
    totals: { variants: 1210, candidates: ranked.length },
  };
}
