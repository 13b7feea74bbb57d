/**
 * Family analysis (issue 13): the pedigree sent with an upload, the family of a case
 * (GET /api/products/:id/family) and the per-variant genotypes and inheritance tags.
 */
import { z } from 'zod';
import { Phenopacket } from './reports.ts';

export { InheritanceFilter, INHERITANCE_FILTER_LABELS, MemberGenotype } from './inheritance.ts';

/** Multipart fields of the upload that describe the family (besides the genome file). */
export const FamilyUploadFieldNames = {
  /** PED file: family, individual, father, mother, sex (1/2/0), phenotype (2 affected, 1 unaffected, 0 unknown). */
  pedigreeFile: 'pedigreeFile',
  /** Sample name of the proband in the VCF (default: the PED's only affected member, or the only sample). */
  probandSample: 'probandSample',
  /**
   * Separately called VCFs of the relatives (repeat the field, one person per file; the genome
   * file is then the proband's own VCF). They are merged with it by position and allele; a site a
   * person's VCF does not list is a no-call, and the family notes say how many. Needs a pedigree.
   */
  relativeGenomeFiles: 'relativeGenomeFiles',
} as const;

/** Most separately called relatives' VCFs one upload takes. */
export const MAX_RELATIVE_VCFS = 8;

export const AffectedStatus = z.enum(['affected', 'unaffected', 'unknown']);
export type AffectedStatus = z.infer<typeof AffectedStatus>;

export const MemberSex = z.enum(['male', 'female', 'unknown']);

export const FamilyMemberView = z.object({
  sample: z.string(),
  relation: z.string(),
  sex: MemberSex,
  status: AffectedStatus,
  father: z.string().nullable(),
  mother: z.string().nullable(),
  /** In the VCF (genotyped). */
  sequenced: z.boolean(),
});
export type FamilyMemberView = z.infer<typeof FamilyMemberView>;

export const ParentCheckView = z.object({ parent: z.string(), homozygousSites: z.number(), oppositeHomozygotes: z.number(), rate: z.number() });

/** Mendelian consistency of a trio: the QC figure of a family analysis. */
export const TrioQcView = z.object({
  child: z.string(),
  father: z.string(),
  mother: z.string(),
  sites: z.number(),
  errors: z.number(),
  rate: z.number(),
  qcSites: z.number(),
  qcErrors: z.number(),
  qcRate: z.number(),
  fatherCheck: ParentCheckView,
  motherCheck: ParentCheckView,
  warning: z.string().nullable(),
});
export type TrioQcView = z.infer<typeof TrioQcView>;

/** GET /api/products/:id/family. A single-sample case has one member and no QC. */
export const FamilyResponse = z.object({
  proband: z.string().nullable(),
  members: z.array(FamilyMemberView),
  qc: z.array(TrioQcView),
  notes: z.array(z.string()),
});
export type FamilyResponse = z.infer<typeof FamilyResponse>;

/** A person of the Phenopacket v2 Pedigree message (PED columns; '0' for a parent not in the pedigree). */
export const PhenopacketPerson = z.object({
  familyId: z.string().min(1),
  individualId: z.string().min(1),
  paternalId: z.string().min(1),
  maternalId: z.string().min(1),
  sex: z.enum(['UNKNOWN_SEX', 'FEMALE', 'MALE', 'OTHER_SEX']),
  affectedStatus: z.enum(['MISSING', 'UNAFFECTED', 'AFFECTED']),
});

/**
 * The GA4GH Phenopacket v2 Family message RareLens exports for a family case: the proband's
 * phenopacket, one phenopacket per relative, the pedigree and the joint VCF.
 */
export const PhenopacketFamily = z.object({
  id: z.string().min(1),
  proband: Phenopacket,
  relatives: z.array(Phenopacket),
  pedigree: z.object({ persons: z.array(PhenopacketPerson).min(1) }),
  files: z
    .array(
      z.object({
        uri: z.string().min(1),
        /** Sample column of each individual in the file. */
        individualToFileIdentifiers: z.record(z.string(), z.string()),
        fileAttributes: z.record(z.string(), z.string()),
      }),
    )
    .optional(),
  metaData: Phenopacket.shape.metaData,
});
export type PhenopacketFamily = z.infer<typeof PhenopacketFamily>;
