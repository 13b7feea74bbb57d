/** Builders for reporting unit tests: a stored variant row, a ranked disease and a report model. */
import type { RunPhenotypeRow, RunVariantRow } from '../../../db/schema/products.ts';
import type { ReportModel } from '../report.model.ts';

export function buildVariantRow(over: Partial<RunVariantRow> = {}): RunVariantRow {
  return {
    runId: '11111111-1111-4111-8111-111111111111',
    id: 1,
    rank: 1,
    chrom: '10',
    pos: 121496701,
    ref: 'T',
    alt: 'G',
    gene: 'FGFR2',
    hgncId: 'HGNC:3689',
    transcript: 'NM_000141.5',
    isManeSelect: true,
    consequence: 'missense_variant',
    consequences: ['missense_variant'],
    impact: 'MODERATE',
    hgvsC: 'c.1694A>C',
    hgvsP: 'p.(Glu565Ala)',
    af: null,
    afSource: null,
    clinvarSignificance: 'Pathogenic',
    clinvar: { significance: 'Pathogenic', stars: 2, id: '13294', match: 'exact' },
    acmgClass: 'Likely pathogenic',
    acmgPoints: 7,
    acmgCriteria: [
      { code: 'PS1', strength: 'Strong', points: 4, reason: 'Same amino-acid change as a ClinVar pathogenic variant' },
      { code: 'PM2_Supporting', strength: 'Supporting', points: 1, reason: 'Absent from population databases' },
      { code: 'PP3', strength: 'Moderate', points: 2, reason: 'Computational evidence supports a deleterious effect' },
    ],
    zygosity: 'heterozygous',
    genotype: { gt: '0/1', zygosity: 'heterozygous', depth: 78, genotypeQuality: 99 },
    qual: 900,
    filter: ['PASS'],
    score: 0.91,
    isCandidate: true,
    input: { chrom: '10', pos: 123256215, ref: 'T', alt: 'G', line: 412 },
    details: null,
    genotypes: null,
    inheritance: [],
    inheritanceDetail: null,
    ...over,
  };
}

export function buildDiseaseRow(over: Partial<RunPhenotypeRow> = {}): RunPhenotypeRow {
  return {
    runId: '11111111-1111-4111-8111-111111111111',
    diseaseId: 'OMIM:101600',
    rank: 1,
    name: 'Pfeiffer syndrome',
    score: 12.3,
    probability: 0.8,
    significance: 'Likely pathogenic',
    inheritance: [{ id: 'HP:0000006', label: 'Autosomal dominant inheritance' }],
    onset: [],
    genes: ['FGFR1', 'FGFR2'],
    matchedTerms: [
      { id: 'HP:0011304', label: 'Broad thumb', match: 'exact', diseaseTermId: 'HP:0011304', diseaseTermLabel: 'Broad thumb' },
      { id: 'HP:0000244', label: 'Brachyturricephaly', match: 'exact', diseaseTermId: 'HP:0000244', diseaseTermLabel: 'Brachyturricephaly' },
    ],
    explanation: [],
    mergedIds: [],
    phenotypeSource: 'annotations',
    ...over,
  };
}

export function buildReportModel(over: Partial<ReportModel> = {}): ReportModel {
  return {
    product: {
      id: '22222222-2222-4222-8222-222222222222',
      caseId: 'CASE-7',
      gender: 'female',
      symptoms: 'Broad thumbs; seen by Dr Müller at 3 months (head circumference ≥ 97th centile).',
      hpoTerms: [
        { id: 'HP:0011304', label: 'Broad thumb' },
        { id: 'HP:0000244', label: 'Brachyturricephaly' },
      ],
      excludedTerms: [{ id: 'HP:0001250', label: 'Seizure' }],
      onset: null,
      genomeFileName: 'case7.vcf.gz',
      genomeFormat: 'vcf',
    },
    run: {
      id: '11111111-1111-4111-8111-111111111111',
      softwareVersion: '@rarelens/server@0.1.0',
      kbVersions: { hpo: '2025-05-06', 'hpo-ontology': '2025-05-06', 'clinvar-grch38': '2026-02-26', 'mane-summary': '1.4', assembly: 'GRCh38' },
      assembly: 'GRCh38',
      inputAssembly: 'GRCh37',
      completedAt: new Date('2026-11-20T10:00:00Z'),
      rankedAt: new Date('2026-11-20T10:00:00Z'),
      counts: { records: 1200, variantsStored: 1180, liftFailed: 3 },
    },
    variants: [buildVariantRow()],
    missing: [],
    diseases: [buildDiseaseRow()],
    interpretation: 'A likely pathogenic FGFR2 variant explains the phenotype.',
    analyst: 'Ada Lovelace <ada@example.org>',
    generatedAt: new Date('2026-11-21T09:30:00Z'),
    reportId: '33333333-3333-4333-8333-333333333333',
    ...over,
  };
}
