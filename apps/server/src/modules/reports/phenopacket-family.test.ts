import { Phenopacket, PhenopacketFamily } from '@rarelens/contract';
import { describe, expect, it } from 'vitest';
import { buildFamilyPhenopacket, type FamilyForExport } from './phenopacket-family.ts';

const packet: Phenopacket = {
  id: 'RL-7-r1',
  subject: { id: 'RL-7', sex: 'MALE' },
  phenotypicFeatures: [{ type: { id: 'HP:0001250', label: 'Seizure' } }],
  interpretations: [
    {
      id: 'RL-7-interpretation',
      progressStatus: 'IN_PROGRESS',
      diagnosis: {
        disease: { id: 'OMIM:612164', label: 'Developmental and epileptic encephalopathy 4' },
        genomicInterpretations: [
          {
            subjectOrBiosampleId: 'RL-7',
            interpretationStatus: 'CANDIDATE',
            variantInterpretation: {
              acmgPathogenicityClassification: 'LIKELY_PATHOGENIC',
              therapeuticActionability: 'UNKNOWN_ACTIONABILITY',
              variationDescriptor: { id: '9-127680192-C-T', vcfRecord: { genomeAssembly: 'GRCh38', chrom: '9', pos: '127680192', ref: 'C', alt: 'T' }, moleculeContext: 'genomic' },
            },
          },
        ],
      },
    },
  ],
  files: [{ uri: 'trio.vcf.gz', fileAttributes: { fileFormat: 'vcf', genomeAssembly: 'GRCh37' } }],
  metaData: {
    created: '2026-11-25T07:00:00.000Z',
    createdBy: 'RareLens',
    resources: [{ id: 'hp', name: 'human phenotype ontology', url: 'http://purl.obolibrary.org/obo/hp.owl', version: '2025-05-06', namespacePrefix: 'HP', iriPrefix: 'http://purl.obolibrary.org/obo/HP_' }],
    phenopacketSchemaVersion: '2.0',
  },
};

const trio: FamilyForExport = {
  proband: 'HG002',
  members: [
    { family: 'ash', id: 'HG002', father: 'HG003', mother: 'HG004', sex: 'male', status: 'affected', vcfIndex: 0 },
    { family: 'ash', id: 'HG003', father: null, mother: null, sex: 'male', status: 'unaffected', vcfIndex: 1 },
    { family: 'ash', id: 'HG004', father: null, mother: null, sex: 'female', status: 'unknown', vcfIndex: 2 },
    { family: 'ash', id: 'GRANDMA', father: null, mother: null, sex: 'female', status: 'unknown', vcfIndex: -1 },
  ],
};

describe('Family phenopacket', () => {
  it('wraps the proband packet with relatives, the pedigree and the joint VCF (valid against the contract)', () => {
    const fam = PhenopacketFamily.parse(buildFamilyPhenopacket(packet, trio));
    expect(fam.id).toBe('RL-7-family');
    expect(fam.proband.subject).toEqual({ id: 'HG002', sex: 'MALE' });
    expect(fam.proband.interpretations[0]?.diagnosis.genomicInterpretations[0]?.subjectOrBiosampleId).toBe('HG002');
    expect(fam.proband.files).toBeUndefined();
    expect(fam.relatives.map((r) => [r.id, r.subject])).toEqual([
      ['RL-7-HG003', { id: 'HG003', sex: 'MALE' }],
      ['RL-7-HG004', { id: 'HG004', sex: 'FEMALE' }],
      ['RL-7-GRANDMA', { id: 'GRANDMA', sex: 'FEMALE' }],
    ]);
    expect(fam.pedigree.persons[0]).toEqual({ familyId: 'ash', individualId: 'HG002', paternalId: 'HG003', maternalId: 'HG004', sex: 'MALE', affectedStatus: 'AFFECTED' });
    expect(fam.pedigree.persons.map((p) => [p.paternalId, p.affectedStatus])).toEqual([
      ['HG003', 'AFFECTED'],
      ['0', 'UNAFFECTED'],
      ['0', 'MISSING'],
      ['0', 'MISSING'],
    ]);
    expect(fam.files).toEqual([{ uri: 'trio.vcf.gz', individualToFileIdentifiers: { HG002: 'HG002', HG003: 'HG003', HG004: 'HG004' }, fileAttributes: { fileFormat: 'vcf', genomeAssembly: 'GRCh37' } }]);
  });
});
