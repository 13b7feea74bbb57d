import { Phenopacket } from '@rarelens/contract';
import { describe, expect, it } from 'vitest';
import { buildPhenopacket } from './phenopacket.ts';
import { buildDiseaseRow, buildReportModel, buildVariantRow } from './testing/builders.ts';

describe('buildPhenopacket', () => {
  it('writes a valid v2 phenopacket: subject, observed and excluded terms, the selected variant', () => {
    const packet = buildPhenopacket(buildReportModel(), 'RareLens');
    expect(Phenopacket.safeParse(packet).error?.issues ?? []).toEqual([]);
    expect(packet.subject).toEqual({ id: 'CASE-7', sex: 'FEMALE' });
    expect(packet.phenotypicFeatures).toEqual([
      { type: { id: 'HP:0011304', label: 'Broad thumb' } },
      { type: { id: 'HP:0000244', label: 'Brachyturricephaly' } },
      { type: { id: 'HP:0001250', label: 'Seizure' }, excluded: true },
    ]);
    const interpretation = packet.interpretations[0]!;
    expect(interpretation.progressStatus).toBe('SOLVED');
    expect(interpretation.diagnosis.disease).toEqual({ id: 'OMIM:101600', label: 'Pfeiffer syndrome' });
    const gi = interpretation.diagnosis.genomicInterpretations[0]!;
    expect(gi).toMatchObject({ subjectOrBiosampleId: 'CASE-7', interpretationStatus: 'CAUSATIVE' });
    expect(gi.variantInterpretation.acmgPathogenicityClassification).toBe('LIKELY_PATHOGENIC');
    expect(gi.variantInterpretation.variationDescriptor).toMatchObject({
      geneContext: { valueId: 'HGNC:3689', symbol: 'FGFR2' },
      expressions: [
        { syntax: 'hgvs.c', value: 'NM_000141.5:c.1694A>C' },
        { syntax: 'hgvs.p', value: 'p.(Glu565Ala)' },
      ],
      vcfRecord: { genomeAssembly: 'GRCh38', chrom: '10', pos: '121496701', ref: 'T', alt: 'G' },
      allelicState: { id: 'GENO:0000135', label: 'heterozygous' },
    });
    expect(packet.files).toEqual([
      { uri: 'case7.vcf.gz', fileAttributes: { fileFormat: 'vcf', genomeAssembly: 'GRCh37', description: expect.stringContaining('VCF') as unknown } },
    ]);
    expect(packet.metaData.resources.map((r) => [r.namespacePrefix, r.version])).toEqual([
      ['HP', '2025-05-06'],
      ['GENO', 'unknown'],
      ['HGNC', 'unknown'],
      ['OMIM', 'unknown'],
    ]);
  });

  it('maps homozygous and hemizygous genotypes to their GENO terms and uncertain variants to candidates', () => {
    const model = buildReportModel({
      variants: [
        buildVariantRow({ id: 1, zygosity: 'homozygous', acmgClass: 'Uncertain significance' }),
        buildVariantRow({ id: 2, pos: 5, zygosity: 'hemizygous', acmgClass: 'Uncertain significance' }),
      ],
    });
    const gis = buildPhenopacket(model, 'RareLens').interpretations[0]!.diagnosis.genomicInterpretations;
    expect(gis.map((g) => g.variantInterpretation.variationDescriptor.allelicState?.id)).toEqual(['GENO:0000136', 'GENO:0000134']);
    expect(gis.map((g) => g.interpretationStatus)).toEqual(['CANDIDATE', 'CANDIDATE']);
  });

  it('has no interpretation when no variant is selected, and names a generic disease when none is ranked', () => {
    expect(buildPhenopacket(buildReportModel({ variants: [] }), 'RareLens').interpretations).toEqual([]);
    const packet = buildPhenopacket(buildReportModel({ diseases: [] }), 'RareLens');
    expect(packet.interpretations[0]!.diagnosis.disease.id).toBe('MONDO:0700096');
    expect(Phenopacket.safeParse(packet).success).toBe(true);
  });

  it('writes an age-of-onset term as the onset of the disease, not as a phenotypic feature', () => {
    const model = buildReportModel();
    model.product.hpoTerms = [...model.product.hpoTerms, { id: 'HP:0011463', label: 'Childhood onset', onset: true }, { id: 'HP:0003593', label: 'Infantile onset', onset: true }];
    // The patient's onset (the service's engine patientOnset: the earliest), not the first listed.
    model.product.onset = { id: 'HP:0003593', label: 'Infantile onset', onset: true };
    const packet = buildPhenopacket(model, 'RareLens');
    expect(Phenopacket.safeParse(packet).error?.issues ?? []).toEqual([]);
    expect(packet.phenotypicFeatures.map((f) => f.type.id)).toEqual(['HP:0011304', 'HP:0000244', 'HP:0001250']);
    expect(packet.diseases).toEqual([
      { term: { id: 'OMIM:101600', label: 'Pfeiffer syndrome' }, onset: { ontologyClass: { id: 'HP:0003593', label: 'Infantile onset' } } },
    ]);
    // Without a stated onset the packet has no diseases element, as before.
    expect(buildPhenopacket(buildReportModel(), 'RareLens').diseases).toBeUndefined();
    // With no variant selected, the onset still has its disease element (an unspecified disease).
    const noVariants = buildReportModel({ variants: [], diseases: [] });
    noVariants.product.hpoTerms = [{ id: 'HP:0003593', label: 'Infantile onset', onset: true }];
    noVariants.product.onset = { id: 'HP:0003593', label: 'Infantile onset', onset: true };
    const bare = buildPhenopacket(noVariants, 'RareLens');
    expect(bare.phenotypicFeatures.map((f) => f.type.id)).toEqual(['HP:0001250']);
    expect(bare.diseases?.[0]?.term.id).toBe('MONDO:0700096');
    expect(bare.metaData.resources.map((r) => r.namespacePrefix)).toContain('MONDO');
  });

  it('is refused by the schema when an HPO id is malformed', () => {
    const model = buildReportModel();
    model.product.hpoTerms = [{ id: 'HP:12', label: 'bad' }];
    expect(Phenopacket.safeParse(buildPhenopacket(model, 'RareLens')).success).toBe(false);
  });
});

describe('diseases of the selected genes', () => {
  it('uses the best-ranked disease as the diagnosis', () => {
    const model = buildReportModel({ diseases: [buildDiseaseRow({ diseaseId: 'ORPHA:710', name: 'Pfeiffer syndrome (Orphanet)' }), buildDiseaseRow()] });
    const packet = buildPhenopacket(model, 'RareLens');
    expect(packet.interpretations[0]!.diagnosis.disease.id).toBe('ORPHA:710');
    expect(packet.metaData.resources.some((r) => r.namespacePrefix === 'ORPHA')).toBe(true);
  });
});
