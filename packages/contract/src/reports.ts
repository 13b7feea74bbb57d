/**
 * Reporting list, clinical reports and exports of a case (spec §3 Reporting list, §4):
 * /api/products/:id/report-items, /reports, /phenopacket, /variants.tsv.
 */
import { z } from 'zod';
import { VariantRow } from './products.ts';

/** POST /api/products/:id/report-items */
export const AddReportItemBody = z.object({
  /** The variant's id within the case (VariantRow.id). */
  variantId: z.number().int().min(1),
});
export type AddReportItemBody = z.infer<typeof AddReportItemBody>;

/** One variant of the reporting list, with the variant as the current analysis shows it. */
export const ReportItem = z.object({
  id: z.string(),
  addedAt: z.string(),
  addedBy: z.string().nullable(),
  /** Null when the current analysis no longer holds the variant (e.g. after a re-analysis). */
  variant: VariantRow.nullable(),
  /** The variant's identity as it was added: GRCh38, 1-based VCF position. */
  locus: z.object({ chrom: z.string(), pos: z.number(), ref: z.string(), alt: z.string(), gene: z.string().nullable() }),
});
export type ReportItem = z.infer<typeof ReportItem>;

export const ReportItemListResponse = z.object({
  items: z.array(ReportItem),
  /** A first draft of the report's interpretation from the top selected variants (editable). */
  draftInterpretation: z.string(),
});
export type ReportItemListResponse = z.infer<typeof ReportItemListResponse>;

export const AddReportItemResponse = z.object({ item: ReportItem, message: z.string() });
export type AddReportItemResponse = z.infer<typeof AddReportItemResponse>;

export const ReportListMessage = z.object({ message: z.string() });
export type ReportListMessage = z.infer<typeof ReportListMessage>;

/** Longest interpretation text accepted (characters). */
export const MaxInterpretationLength = 20_000;

/** POST /api/products/:id/reports -> the PDF. */
export const CreateReportBody = z.object({
  interpretation: z.string().max(MaxInterpretationLength, `Interpretation must be at most ${MaxInterpretationLength} characters`).optional(),
  analyst: z.string().trim().max(200).optional(),
});
export type CreateReportBody = z.infer<typeof CreateReportBody>;

/** A stored report (GET /api/products/:id/reports). */
export const ReportSummary = z.object({
  id: z.string(),
  fileName: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  sizeBytes: z.number(),
  variantCount: z.number(),
  pageCount: z.number(),
});
export type ReportSummary = z.infer<typeof ReportSummary>;

export const ReportListResponse = z.object({ items: z.array(ReportSummary) });
export type ReportListResponse = z.infer<typeof ReportListResponse>;

/** Response headers of a generated report (the body is the PDF). */
export const ReportHeaders = {
  reportId: 'x-report-id',
} as const;

/**
 * The GA4GH Phenopacket v2 fields RareLens writes (GET /api/products/:id/phenopacket), as the
 * schema's JSON form (camelCase). Exomiser and LIRICAL read `subject`, `phenotypicFeatures`
 * (with `excluded`), `interpretations` and `metaData.resources`.
 */
const OntologyClass = z.object({ id: z.string().min(1), label: z.string() });
const HpoClass = z.object({ id: z.string().regex(/^HP:\d{7}$/, 'Must be an HPO id (HP:NNNNNNN)'), label: z.string() });

export const PhenopacketVariationDescriptor = z.object({
  id: z.string().min(1),
  label: z.string().optional(),
  geneContext: z.object({ valueId: z.string().min(1), symbol: z.string().min(1) }).optional(),
  expressions: z.array(z.object({ syntax: z.string(), value: z.string() })).optional(),
  vcfRecord: z.object({
    genomeAssembly: z.string().min(1),
    chrom: z.string().min(1),
    pos: z.string().regex(/^\d+$/),
    ref: z.string().min(1),
    alt: z.string().min(1),
    id: z.string().optional(),
    qual: z.string().optional(),
    filter: z.string().optional(),
    info: z.string().optional(),
  }),
  moleculeContext: z.literal('genomic'),
  allelicState: OntologyClass.optional(),
});

export const PhenopacketGenomicInterpretation = z.object({
  subjectOrBiosampleId: z.string().min(1),
  interpretationStatus: z.enum(['UNKNOWN_STATUS', 'REJECTED', 'CANDIDATE', 'CONTRIBUTORY', 'CAUSATIVE']),
  variantInterpretation: z.object({
    acmgPathogenicityClassification: z.enum(['NOT_PROVIDED', 'BENIGN', 'LIKELY_BENIGN', 'UNCERTAIN_SIGNIFICANCE', 'LIKELY_PATHOGENIC', 'PATHOGENIC']),
    therapeuticActionability: z.enum(['UNKNOWN_ACTIONABILITY', 'NOT_ACTIONABLE', 'ACTIONABLE']).optional(),
    variationDescriptor: PhenopacketVariationDescriptor,
  }),
});

export const Phenopacket = z.object({
  id: z.string().min(1),
  subject: z.object({
    id: z.string().min(1),
    sex: z.enum(['UNKNOWN_SEX', 'FEMALE', 'MALE', 'OTHER_SEX']),
  }),
  phenotypicFeatures: z.array(z.object({ type: HpoClass, excluded: z.boolean().optional() })),
  interpretations: z.array(
    z.object({
      id: z.string().min(1),
      progressStatus: z.enum(['UNKNOWN_PROGRESS', 'IN_PROGRESS', 'COMPLETED', 'SOLVED', 'UNSOLVED']),
      diagnosis: z.object({
        disease: OntologyClass,
        genomicInterpretations: z.array(PhenopacketGenomicInterpretation),
      }),
    }),
  ),
  /** The patient's disease with its age of onset (an HPO Onset term), when the case states one. */
  diseases: z
    .array(z.object({ term: OntologyClass, excluded: z.boolean().optional(), onset: z.object({ ontologyClass: HpoClass }).optional() }))
    .optional(),
  /** The genome file the case was analysed from (Exomiser/LIRICAL look for the VCF here). */
  files: z
    .array(
      z.object({
        uri: z.string().min(1),
        fileAttributes: z.record(z.string(), z.string()),
      }),
    )
    .optional(),
  metaData: z.object({
    created: z.string().min(1),
    createdBy: z.string().min(1),
    submittedBy: z.string().optional(),
    resources: z
      .array(
        z.object({
          id: z.string().min(1),
          name: z.string().min(1),
          url: z.string().min(1),
          version: z.string().min(1),
          namespacePrefix: z.string().min(1),
          iriPrefix: z.string().min(1),
        }),
      )
      .min(1),
    phenopacketSchemaVersion: z.literal('2.0'),
  }),
});
export type Phenopacket = z.infer<typeof Phenopacket>;
