/**
 * The case as a GA4GH Phenopacket v2 (JSON form of the protobuf schema, camelCase, int64 as
 * strings): subject, observed and excluded HPO features, and the reporting list as the
 * genomic interpretations of a diagnosis — what Exomiser and LIRICAL read.
 */
import type { Phenopacket } from '@rarelens/contract';
import type { RunVariantRow } from '../../db/schema/products.ts';
import { fullHgvsC, type ReportModel } from './report.model.ts';

type GenomicInterpretation = Phenopacket['interpretations'][number]['diagnosis']['genomicInterpretations'][number];
type Acmg = GenomicInterpretation['variantInterpretation']['acmgPathogenicityClassification'];

/** GENO allelic states (Phenopacket v2 uses GENO for zygosity). */
const ALLELIC_STATE: Record<string, { id: string; label: string }> = {
  heterozygous: { id: 'GENO:0000135', label: 'heterozygous' },
  homozygous: { id: 'GENO:0000136', label: 'homozygous' },
  hemizygous: { id: 'GENO:0000134', label: 'hemizygous' },
  homoplasmic: { id: 'GENO:0000602', label: 'homoplasmic' },
  heteroplasmic: { id: 'GENO:0000603', label: 'heteroplasmic' },
};

const ACMG: Record<string, Acmg> = {
  Pathogenic: 'PATHOGENIC',
  'Likely pathogenic': 'LIKELY_PATHOGENIC',
  'Uncertain significance': 'UNCERTAIN_SIGNIFICANCE',
  'Likely benign': 'LIKELY_BENIGN',
  Benign: 'BENIGN',
};

const RESOURCES: Record<string, { name: string; url: string; iriPrefix: string }> = {
  HP: { name: 'human phenotype ontology', url: 'http://purl.obolibrary.org/obo/hp.owl', iriPrefix: 'http://purl.obolibrary.org/obo/HP_' },
  GENO: { name: 'Genotype Ontology', url: 'http://purl.obolibrary.org/obo/geno.owl', iriPrefix: 'http://purl.obolibrary.org/obo/GENO_' },
  OMIM: { name: 'Online Mendelian Inheritance in Man', url: 'https://www.omim.org', iriPrefix: 'https://omim.org/entry/' },
  ORPHA: { name: 'Orphanet Rare Disease Ontology', url: 'https://www.orpha.net', iriPrefix: 'https://www.orpha.net/ORDO/Orphanet_' },
  MONDO: { name: 'Mondo Disease Ontology', url: 'http://purl.obolibrary.org/obo/mondo.obo', iriPrefix: 'http://purl.obolibrary.org/obo/MONDO_' },
  DECIPHER: { name: 'DECIPHER', url: 'https://www.deciphergenomics.org', iriPrefix: 'https://www.deciphergenomics.org/syndrome/' },
  HGNC: { name: 'HUGO Gene Nomenclature Committee', url: 'https://www.genenames.org', iriPrefix: 'https://www.genenames.org/data/gene-symbol-report/#!/hgnc_id/' },
};

/** Used when no ranked disease is known: the diagnosis field of v2 is required. */
const UNSPECIFIED_DISEASE = { id: 'MONDO:0700096', label: 'human disease' };

function versionOf(kb: Record<string, string>, ...keys: string[]): string {
  for (const k of keys) if (kb[k]) return kb[k];
  return 'unknown';
}

function isCausal(v: RunVariantRow): boolean {
  return v.acmgClass === 'Pathogenic' || v.acmgClass === 'Likely pathogenic';
}

function descriptor(v: RunVariantRow, subjectId: string, assembly: string): GenomicInterpretation {
  const expressions: { syntax: string; value: string }[] = [];
  const c = fullHgvsC(v);
  if (c) expressions.push({ syntax: 'hgvs.c', value: c });
  if (v.hgvsP) expressions.push({ syntax: 'hgvs.p', value: v.hgvsP });
  const state = ALLELIC_STATE[v.zygosity];
  return {
    subjectOrBiosampleId: subjectId,
    interpretationStatus: isCausal(v) ? 'CAUSATIVE' : 'CANDIDATE',
    variantInterpretation: {
      acmgPathogenicityClassification: ACMG[v.acmgClass] ?? 'NOT_PROVIDED',
      therapeuticActionability: 'UNKNOWN_ACTIONABILITY',
      variationDescriptor: {
        id: `${v.chrom}-${v.pos}-${v.ref}-${v.alt}`,
        ...(v.gene ? { label: [v.gene, c, v.hgvsP].filter(Boolean).join(' ') } : {}),
        ...(v.gene ? { geneContext: { valueId: v.hgncId ?? v.gene, symbol: v.gene } } : {}),
        ...(expressions.length ? { expressions } : {}),
        vcfRecord: { genomeAssembly: assembly, chrom: v.chrom, pos: String(v.pos), ref: v.ref, alt: v.alt },
        moleculeContext: 'genomic',
        ...(state ? { allelicState: state } : {}),
      },
    },
  };
}

/** Builds the phenopacket of a case; `created` is the export time. */
export function buildPhenopacket(model: ReportModel, createdBy: string): Phenopacket {
  const { product, run } = model;
  const subjectId = product.caseId;
  const assembly = run?.assembly ?? 'GRCh38';
  const kb = run?.kbVersions ?? {};
  const diagnosisDisease = model.diseases[0] ? { id: model.diseases[0].diseaseId, label: model.diseases[0].name } : UNSPECIFIED_DISEASE;
  // The patient's onset as the ranking takes it (the earliest of several onset terms).
  const onset = product.onset;
  const prefixes = new Set<string>(['HP']);
  if (model.variants.some((v) => ALLELIC_STATE[v.zygosity])) prefixes.add('GENO');
  if (model.variants.some((v) => v.hgncId)) prefixes.add('HGNC');
  if (model.variants.length || onset) prefixes.add(diagnosisDisease.id.split(':')[0] ?? 'MONDO');
  const version = (prefix: string): string => {
    switch (prefix) {
      case 'HP':
        return versionOf(kb, 'hpo', 'hpo-ontology');
      case 'OMIM':
      case 'ORPHA':
      case 'DECIPHER':
        return versionOf(kb, 'hpoAnnotations', 'hpo-annotations');
      case 'MONDO':
        return versionOf(kb, 'mondo', 'mondo-omim');
      case 'HGNC':
        return versionOf(kb, 'hgnc', 'genes');
      default:
        return 'unknown';
    }
  };
  return {
    id: `${subjectId}-${model.reportId}`,
    subject: { id: subjectId, sex: product.gender === 'male' ? 'MALE' : 'FEMALE' },
    // An age-of-onset term is the onset of the patient's disease (Disease.onset), not a feature.
    phenotypicFeatures: [
      ...product.hpoTerms.filter((t) => !t.onset).map((t) => ({ type: { id: t.id, label: t.label } })),
      ...product.excludedTerms.filter((t) => !t.onset).map((t) => ({ type: { id: t.id, label: t.label }, excluded: true })),
    ],
    interpretations: model.variants.length
      ? [
          {
            id: `${subjectId}-interpretation`,
            progressStatus: model.variants.some(isCausal) ? 'SOLVED' : 'IN_PROGRESS',
            diagnosis: {
              disease: diagnosisDisease,
              genomicInterpretations: model.variants.map((v) => descriptor(v, subjectId, assembly)),
            },
          },
        ]
      : [],
    ...(onset ? { diseases: [{ term: diagnosisDisease, onset: { ontologyClass: { id: onset.id, label: onset.label } } }] } : {}),
    ...(product.genomeFileName && product.genomeFormat === 'vcf'
      ? {
          files: [
            {
              uri: product.genomeFileName,
              fileAttributes: {
                fileFormat: 'vcf',
                genomeAssembly: run?.inputAssembly ?? assembly,
                description: 'The VCF uploaded to RareLens (place it next to this phenopacket)',
              },
            },
          ],
        }
      : {}),
    metaData: {
      created: model.generatedAt.toISOString(),
      createdBy,
      submittedBy: createdBy,
      resources: [...prefixes]
        .filter((p) => RESOURCES[p])
        .map((p) => {
          const r = RESOURCES[p]!;
          return { id: p.toLowerCase(), name: r.name, url: r.url, version: version(p), namespacePrefix: p, iriPrefix: r.iriPrefix };
        }),
      phenopacketSchemaVersion: '2.0',
    },
  };
}
