/**
 * Cases ("products") API: upload, status, ranked phenotypes (diseases), genes, variants, IGV
 * tracks, HPO autocomplete, sharing. The server validates with these schemas and the web
 * client parses its responses with them.
 */
import { z } from 'zod';
import { Email } from './auth.ts';
import { InheritanceFilter, MemberGenotype } from './inheritance.ts';
import { Constants, Messages, ProductStatus } from './messages.ts';

const HpoId = z.string().trim().regex(/^HP:\d{7}$/, 'Must be an HPO term id such as HP:0001156');

/** "At most 100 characters (this has 101)." — the limit and what was sent, never "mandatory". */
const tooLong = (max: number) => (iss: { input?: unknown }) =>
  `At most ${max.toLocaleString('en')} characters${typeof iss.input === 'string' ? ` (this has ${iss.input.length.toLocaleString('en')})` : ''}.`;

const mandatoryString = (max: number) =>
  z
    .string({ error: Messages.mandatory })
    .trim()
    .min(1, Messages.mandatory)
    .max(max, { error: tooLong(max) });

export const Gender = z.enum(['male', 'female'], {
  error: (iss) => (iss.input === undefined || iss.input === '' ? Messages.mandatory : Messages.genderChoice),
});
export type Gender = z.infer<typeof Gender>;

export const AssemblyChoice = z.enum(['GRCh37', 'GRCh38', 'auto']);
export type AssemblyChoice = z.infer<typeof AssemblyChoice>;

/**
 * Text fields of the multipart upload (POST /api/products), after the server collected them.
 * `hpoTerms`/`excludedTerms` arrive as a JSON array string or as repeated fields.
 */
export const CreateProductFields = z.object({
  caseId: mandatoryString(100),
  gender: Gender,
  symptoms: mandatoryString(10_000),
  hpoTerms: z.array(HpoId).max(200).default([]),
  excludedTerms: z.array(HpoId).max(200).default([]),
  assembly: AssemblyChoice.default('auto'),
  imageDescription: z.string().trim().max(2000).optional(),
  /** Family VCF: the sample of the proband (default: the pedigree's affected member, or the first sample). */
  probandSample: z.string().trim().max(200).optional(),
});
export type CreateProductFields = z.infer<typeof CreateProductFields>;

/** Multipart field names of the upload form. */
export const UploadFieldNames = {
  genomeFile: 'genomeFile',
  /** The mate FASTQ of paired reads (read 2), with the read-1 FASTQ as genomeFile. */
  genomeMateFile: 'genomeMateFile',
  additionalFiles: 'additionalFiles',
} as const;

export const CreateProductResponse = z.object({ id: z.string(), status: z.literal('In queue') });
export type CreateProductResponse = z.infer<typeof CreateProductResponse>;

/** POST /api/products/:id/retry: a failed case queued again with its stored files. */
export const RetryProductResponse = CreateProductResponse;
export type RetryProductResponse = CreateProductResponse;

export const ProductStatusSchema = z.enum(ProductStatus);

/** Error of a case in state "Error": `message` is always "An error occurred", `reason` says why. */
export const ProductError = z.object({ message: z.literal(Messages.productError), reason: z.string() });
export type ProductError = z.infer<typeof ProductError>;

export const HpoTermsSource = z.enum(['given', 'phenome']);
export type HpoTermsSource = z.infer<typeof HpoTermsSource>;

export const ProductSummary = z.object({
  id: z.string(),
  caseId: z.string(),
  /** Display name (the case ID). */
  name: z.string(),
  status: ProductStatusSchema,
  /** True when the case is shared with someone or shared with the caller by its owner. */
  isShared: z.boolean(),
  /** True when the caller owns the case. */
  isOwner: z.boolean(),
  /** Owner's e-mail when the case was shared with the caller, else null. */
  sharedBy: z.string().nullable(),
  /** Owner's name when the case was shared with the caller (null for the owner, or an owner without a name). */
  sharedByName: z.string().nullable(),
  createdAt: z.string(),
  /** 0-100 while Processing; 100 when Completed. */
  progress: z.number(),
  /**
   * What runs while Processing: reference | alignment | duplicates | calling (raw data analysis of
   * FASTQ reads), annotation, ranking; null otherwise.
   */
  progressStage: z.string().nullable(),
  /** The case is analysed from raw reads (FASTQ): the "Raw data analysis" add-on. */
  rawDataAnalysis: z.boolean(),
  error: ProductError.nullable(),
  /** Number of present HPO terms; 0 = the case is ranked without a phenotype (say so). */
  hpoTermCount: z.number(),
  /** 'given' by the user, or 'phenome' = extracted by PhenomeAI from the symptoms because none were sent. */
  hpoTermsSource: HpoTermsSource,
});
export type ProductSummary = z.infer<typeof ProductSummary>;

export const ProductListResponse = z.object({ items: z.array(ProductSummary) });
export type ProductListResponse = z.infer<typeof ProductListResponse>;

export const TermRef = z.object({ id: z.string(), label: z.string() });
export type TermRef = z.infer<typeof TermRef>;
/** A term of a case: `onset` marks an age-of-onset term (under Onset, HP:0003674), the patient's onset rather than a finding. */
export const CaseTerm = TermRef.extend({ onset: z.literal(true).optional() });
export type CaseTerm = z.infer<typeof CaseTerm>;

export const ProductFile = z.object({
  id: z.string(),
  /** 'mate' = the mate FASTQ of paired reads. */
  role: z.enum(['genome', 'mate', 'attachment', 'relative']),
  name: z.string(),
  sizeBytes: z.number(),
  /** Detected format: vcf | fastq (genome), png | jpeg | pdf | text | ... (attachment). */
  format: z.string(),
  compression: z.enum(['none', 'gzip', 'bgzip']).nullable(),
  mediaType: z.string(),
  sha256: z.string(),
});
export type ProductFile = z.infer<typeof ProductFile>;

export const AnalysisRunInfo = z.object({
  id: z.string(),
  softwareVersion: z.string(),
  /** Assembly of the stored results (always GRCh38; inputs on GRCh37 are lifted over). */
  assembly: z.string(),
  /** Assembly of the uploaded file, as given or detected. */
  inputAssembly: z.string(),
  /** Knowledge-base versions: e.g. { hpo: '2025-05-06', clinvar: '2026-02-26', transcripts: '...', assembly: 'GRCh38' }. */
  kbVersions: z.record(z.string(), z.string()),
  counts: z.record(z.string(), z.number()),
  startedAt: z.string(),
  completedAt: z.string().nullable(),
  rankedAt: z.string().nullable(),
});
export type AnalysisRunInfo = z.infer<typeof AnalysisRunInfo>;

/** Raw data analysis of a FASTQ case (GET /api/products/:id/raw-data). */
export const RawDataQc = z.object({
  reads: z.number(),
  mappedReads: z.number(),
  /** 0..1 */
  mappedRate: z.number(),
  duplicateReads: z.number(),
  /** 0..1 */
  duplicateRate: z.number(),
  /** Mean depth over the bases covered by at least one read. */
  meanDepth: z.number(),
  coveredBases: z.number(),
  snvs: z.number(),
  /** Transitions / transversions of the called SNVs; null without transversions. */
  tiTv: z.number().nullable(),
});
export type RawDataQc = z.infer<typeof RawDataQc>;

export const RawDataFileName = z.enum(['alignments.bam', 'alignments.bam.bai', 'calls.vcf.gz', 'calls.vcf.gz.tbi']);
export type RawDataFileName = z.infer<typeof RawDataFileName>;

/** GET /api/raw-data/reference: the reference FASTQ uploads are aligned to on this server. */
export const ReadsReference = z.object({
  /** As shown on the case, e.g. "Demo reference (hg19 chrM + 5 kb of chr20), not a genome". */
  label: z.string(),
  assembly: z.string().nullable(),
  /** The shipped demo reference (chrM + 5 kb of chr20), not a genome. */
  demo: z.boolean(),
  /** The reference is misconfigured (the message names the variable); FASTQ cases would fail. */
  error: z.string().nullable(),
});
export type ReadsReference = z.infer<typeof ReadsReference>;

export const RawDataInfo = z.object({
  /** single-end, paired (two files) or interleaved reads. */
  layout: z.enum(['single', 'paired', 'interleaved']),
  reference: z.object({
    label: z.string(),
    assembly: z.string(),
    /** The shipped demo reference (chrM + 5 kb of chr20), not a genome. */
    demo: z.boolean(),
    /** The reference's contigs (names as in the BAM), for the genome browser. */
    contigs: z.array(z.object({ name: z.string(), length: z.number() })),
  }),
  qc: RawDataQc,
  /** Tool -> version line (bwa, samtools, bcftools). */
  tools: z.record(z.string(), z.string()),
  /** The command lines run, in order (the report's method section). */
  commands: z.array(z.string()),
  files: z.array(z.object({ name: RawDataFileName, sizeBytes: z.number().nullable() })),
  /**
   * The genome browser's alignments track (ranged reads), relative to /api/products/:id, and the
   * reference sequence when this server holds it (else null: the browser draws coordinates only).
   */
  track: z.object({ bam: z.string(), bai: z.string(), fasta: z.string().nullable(), fai: z.string().nullable() }),
});
export type RawDataInfo = z.infer<typeof RawDataInfo>;

export const ProductDetails = ProductSummary.extend({
  gender: Gender,
  symptoms: z.string(),
  /** Present terms: findings and the patient's age-of-onset term (`onset`). */
  hpoTerms: z.array(CaseTerm),
  excludedTerms: z.array(TermRef),
  assemblyRequested: AssemblyChoice,
  /** Assembly of the input file once known (given or detected), else null. */
  assembly: z.string().nullable(),
  genomeFormat: z.enum(['vcf', 'fastq']),
  imageDescription: z.string().nullable(),
  files: z.array(ProductFile),
  run: AnalysisRunInfo.nullable(),
  sharedWith: z.array(z.string()),
});
export type ProductDetails = z.infer<typeof ProductDetails>;

/** Pagination query: page is 1-based; pageSize defaults to 10 (spec §9). */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(Constants.pageSize),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    page: z.number(),
    pageSize: z.number(),
    total: z.number(),
    /** True when `total` is a lower bound (counting stopped at the cap). */
    totalIsCapped: z.boolean(),
  });

export const MatchedTerm = z.object({
  /** Patient term. */
  id: z.string(),
  label: z.string(),
  /** exact | implied | partial | unmatched | contradicted | onset (the patient's onset against the disease's; one per disease at most) */
  match: z.string(),
  /** The disease term it matched, when any. */
  diseaseTermId: z.string().nullable(),
  diseaseTermLabel: z.string().nullable(),
});
export type MatchedTerm = z.infer<typeof MatchedTerm>;

export const PhenotypeRow = z.object({
  /** Disease id, e.g. 'OMIM:101600' (URL-encode it in /phenotypes/:phenotypeId). */
  id: z.string(),
  rank: z.number(),
  name: z.string(),
  score: z.number(),
  /** Post-test probability in [0, 1]. */
  probability: z.number(),
  /** Clinical significance summary: the best ACMG class among the case's variants in the disease genes, or null. */
  significance: z.string().nullable(),
  inheritance: z.array(TermRef),
  onset: z.array(TermRef),
  genes: z.array(z.string()),
  matchedTerms: z.array(MatchedTerm),
  /**
   * Where the phenotype it is ranked on comes from: its HPO annotations, or for a disease without
   * them the phenotype borrowed from its series ('series') or only the features its name states
   * ('disease-name'). Null for analyses ranked before it was stored.
   */
  phenotypeSource: z.enum(['annotations', 'series', 'disease-name']).nullable(),
});
export type PhenotypeRow = z.infer<typeof PhenotypeRow>;

/**
 * ClinVar's assertion shown beside the ACMG class. `match` says whose assertion it is: the allele's
 * own record ('exact'), or a pathogenic change at the same codon ('same_codon') or giving the same
 * amino acid ('same_amino_acid'), which is PM5/PS1 evidence, not this allele's classification.
 */
export const ClinvarAssertion = z.object({
  significance: z.string(),
  /** Review stars 0-4 as ClinVar shows them. */
  stars: z.number().int().min(0).max(4),
  /** Review status wording ('criteria provided, single submitter'); null when not recorded. */
  reviewStatus: z.string().nullable(),
  /** ClinVar release the record comes from ('2026-02-26', '2016-09'); null when unknown. */
  release: z.string().nullable(),
  /** 'ClinVar GRCh38 VCF', 'ClinVar GRCh37 (lifted to GRCh38)' or 'InterVar PS1 table (from ClinVar)'. */
  source: z.string().nullable(),
  id: z.string().nullable(),
  /** A Variation ID (VCV) or an AlleleID. */
  idType: z.enum(['variation', 'allele']).nullable(),
  /** The record on the ClinVar site. */
  url: z.string().nullable(),
  match: z.enum(['exact', 'same_codon', 'same_amino_acid']),
});
export type ClinvarAssertion = z.infer<typeof ClinvarAssertion>;

export const AcmgClassName = z.enum([
  'Pathogenic',
  'Likely pathogenic',
  'Uncertain significance',
  'Likely benign',
  'Benign',
]);
export type AcmgClassName = z.infer<typeof AcmgClassName>;

/** A reviewer's classification of a variant in a case, beside the automatic ACMG class. */
export const ReviewerClassification = z.object({
  classification: AcmgClassName,
  reason: z.string(),
  /** Who set it: name and e-mail as the account states them. */
  reviewer: z.object({ id: z.string(), name: z.string().nullable(), email: z.string() }),
  /** ISO date-time of the last change. */
  updatedAt: z.string(),
  /** The automatic ACMG class when the reviewer set it. */
  automaticClass: z.string(),
});
export type ReviewerClassification = z.infer<typeof ReviewerClassification>;

/** PUT /api/products/:id/variants/:variantId/classification. */
export const SetVariantClassificationBody = z.object({
  classification: AcmgClassName,
  reason: z.string().trim().min(1, Messages.mandatory).max(2000),
});
export type SetVariantClassificationBody = z.infer<typeof SetVariantClassificationBody>;
/** DELETE /api/products/:id/variants/:variantId/classification. */
export const ClearVariantClassificationResponse = z.object({ removed: z.boolean() });

export const VariantRow = z.object({
  /** Variant id within the case (stable across re-ranking). */
  id: z.number(),
  /** Rank among the variants the ranking considered (1 = best); null for the others (common, benign, intergenic...). */
  rank: z.number().nullable(),
  /** GRCh38, contig without 'chr'; `pos` is the 1-based VCF position. */
  chrom: z.string(),
  pos: z.number(),
  ref: z.string(),
  alt: z.string(),
  gene: z.string().nullable(),
  transcript: z.string().nullable(),
  consequence: z.string().nullable(),
  consequences: z.array(z.string()),
  impact: z.string(),
  hgvsC: z.string().nullable(),
  hgvsP: z.string().nullable(),
  af: z.number().nullable(),
  clinvar: z.string().nullable(),
  /** ClinVar's assertion (stars, review status, release, link) shown beside the ACMG class. */
  clinvarAssertion: ClinvarAssertion.nullable(),
  acmg: z.string(),
  acmgPoints: z.number(),
  /** The reviewer's class for this variant in this case, when one was set. */
  reviewerClassification: ReviewerClassification.nullable(),
  zygosity: z.string(),
  score: z.number(),
  /**
   * Family case: every sequenced member's genotype at the variant (sample -> GT with DP/GQ/AD
   * when present); null for a single-sample case.
   */
  genotypes: z.record(z.string(), MemberGenotype).nullable(),
  /** Family case: the inheritance patterns the variant fits in the family ([] otherwise). */
  inheritance: z.array(InheritanceFilter),
  /** Ids of the variants it forms a compound-heterozygous pair with (same gene, not in cis). */
  compoundHetPartners: z.array(z.number()),
  /** The family rules behind `inheritance` ("HG002 0/1, HG003 0/0 (DP 32), ...: de novo"). */
  inheritanceRules: z.array(z.string()),
});
export type VariantRow = z.infer<typeof VariantRow>;

export const PhenotypeDetails = PhenotypeRow.extend({
  /** Protein IDs (§3): the UniProt accessions of the disease genes' products, by gene. */
  proteins: z.array(z.object({ gene: z.string(), uniprot: z.array(z.string()) })),
  explanation: z.array(z.string()),
  mergedIds: z.array(z.string()),
  /** Top variants of the case in the disease's genes (at most 50, by rank). */
  variants: z.array(VariantRow),
});
export type PhenotypeDetails = z.infer<typeof PhenotypeDetails>;

export const GeneRow = z.object({
  symbol: z.string(),
  rank: z.number(),
  /** HGNC id, e.g. 'HGNC:3689', when known. */
  geneId: z.string().nullable(),
  name: z.string().nullable(),
  score: z.number(),
  phenotypeScore: z.number(),
  variantScore: z.number(),
  /** Calibrated post-test probability in [0, 1] that the gene is the cause; null for analyses ranked before it was computed. */
  probability: z.number().nullable(),
  inheritance: z.array(z.string()),
  significance: z.string().nullable(),
  variantCount: z.number(),
  topDisease: TermRef.nullable(),
});
export type GeneRow = z.infer<typeof GeneRow>;

/** Where a ranked gene's phenotype evidence comes from (the engine's gene prioritiser). */
export const GenePhenotypeSource = z.object({
  /**
   * 'annotations': an annotated disease's phenotype; 'allelic': an annotated disease's phenotype
   * with the genotype fit of unknown inheritance (a possibly allelic disease of the gene);
   * 'series': a disease without phenotype annotations, on the phenotype borrowed from the annotated
   * diseases of its series; 'similar-titles': one in no series, on the phenotype of the annotated
   * diseases with the most similar titles; 'disease-name': a disease without phenotype annotations, on the features
   * its name states; 'none': a possible new disease of the gene, ranked on its variants and constraint alone.
   */
  source: z.enum(['annotations', 'allelic', 'series', 'similar-titles', 'disease-name', 'none']),
  /** The disease the evidence is of; null for 'none'. */
  disease: TermRef.nullable(),
});
export type GenePhenotypeSource = z.infer<typeof GenePhenotypeSource>;

export const GeneDetails = GeneRow.extend({
  /** Null for analyses ranked before it was stored (their explanation still says it in words). */
  phenotypeSource: GenePhenotypeSource.nullable(),
  chromosome: z.string().nullable(),
  type: z.string().nullable(),
  description: z.string().nullable(),
  synonyms: z.array(z.string()),
  ageOfOnset: z.array(z.string()),
  explanation: z.array(z.string()),
  diseases: z.array(TermRef),
  variants: z.array(VariantRow),
});
export type GeneDetails = z.infer<typeof GeneDetails>;

export const VariantMode = z.enum(['clustered', 'non-clustered', 'filtered']);
export type VariantMode = z.infer<typeof VariantMode>;

/**
 * Zygosity of a call. Mitochondrial calls read by their heteroplasmy (the fraction of reads with
 * the allele): 'homoplasmic' (>= 0.95), 'heteroplasmic', or 'mitochondrial' when the file gives
 * no AF or AD to tell (level unknown); never 'hemizygous'.
 */
export const ZygosityName = z.enum(['heterozygous', 'homozygous', 'hemizygous', 'homoplasmic', 'heteroplasmic', 'mitochondrial', 'reference', 'no_call', 'unknown']);

/** A list given as comma-separated values and/or repeated query parameters. */
const csv = <T extends z.ZodType>(item: T) =>
  z.preprocess((v: unknown): unknown[] => {
    const list: unknown[] = Array.isArray(v) ? (v as unknown[]) : [v];
    const parts = list.flatMap((x): unknown[] => (typeof x === 'string' ? x.split(',') : [x]));
    return parts.map((s) => (typeof s === 'string' ? s.trim() : s)).filter((s) => s !== '');
  }, z.array(item));

/**
 * GET /api/products/:id/variants query. Filters (comma-separated lists or repeated params)
 * apply in every mode; `mode=filtered` with no filter given shows the ranking's candidates
 * (variants in a gene, rare: AF <= 2 % or unknown, not Benign/Likely benign, FILTER PASS).
 * Order: candidates by rank, then the other variants by score.
 */
export const VariantListQuery = PageQuery.extend({
  mode: VariantMode.default('non-clustered'),
  /** Sequence Ontology consequence terms (e.g. missense_variant,stop_gained). */
  consequence: csv(z.string().regex(/^[a-z0-9_]+$/, 'Must be Sequence Ontology term names')).optional(),
  /** Maximum population allele frequency in [0, 1]; variants of unknown frequency pass. */
  maxAf: z.coerce.number().min(0).max(1).optional(),
  /** ClinVar significance values (as ClinVar writes them, e.g. Pathogenic,Likely_pathogenic), or 'none' for no ClinVar record. */
  clinvar: csv(z.string().max(100)).optional(),
  acmg: csv(AcmgClassName).optional(),
  zygosity: csv(ZygosityName).optional(),
  /** Gene symbols. */
  gene: csv(z.string().max(50)).optional(),
  /** Inheritance patterns in the family (a variant fitting any of them is listed). */
  inheritance: csv(InheritanceFilter).optional(),
  /**
   * Keyset pagination (non-clustered and filtered modes): the `nextCursor` of the page before
   * `page`. The page then starts right after that page's last variant instead of at an offset
   * (the same rows, read without skipping). A cursor of other filters gives other rows, never an error.
   */
  after: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'Must be the nextCursor of a variant list page')
    .optional(),
});
export type VariantListQuery = z.infer<typeof VariantListQuery>;

export const VariantListResponse = z.discriminatedUnion('mode', [
  /** `nextCursor`: pass it as `after` (with page + 1) for the next page; null on the last page. */
  pageOf(VariantRow).extend({ mode: z.literal('non-clustered'), nextCursor: z.string().nullable().optional() }),
  pageOf(VariantRow).extend({ mode: z.literal('filtered'), nextCursor: z.string().nullable().optional() }),
  /** Clustered: a page of genes (ranked), each with its matching variants (at most 20). */
  pageOf(
    z.object({
      gene: z.object({ symbol: z.string(), rank: z.number().nullable(), score: z.number().nullable() }),
      variantCount: z.number(),
      variants: z.array(VariantRow),
    }),
  ).extend({ mode: z.literal('clustered') }),
]);
export type VariantListResponse = z.infer<typeof VariantListResponse>;

export const AcmgCriterionView = z.object({
  code: z.string(),
  strength: z.string(),
  points: z.number(),
  reason: z.string(),
});

export const VariantDetails = VariantRow.extend({
  hgncId: z.string().nullable(),
  isManeSelect: z.boolean(),
  afSource: z.string().nullable(),
  qual: z.number().nullable(),
  filter: z.array(z.string()),
  genotype: z.object({
    gt: z.string(),
    zygosity: z.string(),
    depth: z.number().nullable(),
    genotypeQuality: z.number().nullable(),
    alleleDepths: z.array(z.number()).nullable(),
    /** Mitochondrial calls: the fraction of reads with the allele (FORMAT AF, else AD); null elsewhere or when unknown. */
    heteroplasmy: z.number().nullable(),
  }),
  /** The record as written in the uploaded file (before liftover/normalisation). */
  input: z.object({ chrom: z.string(), pos: z.number(), ref: z.string(), alt: z.string(), line: z.number() }),
  inputAssembly: z.string(),
  acmgCriteria: z.array(AcmgCriterionView),
  clinvarRecord: z
    .object({
      significance: z.string(),
      stars: z.number(),
      id: z.string().nullable(),
      conditions: z.array(z.string()),
      match: z.string(),
    })
    .nullable(),
  frequencies: z.array(z.object({ source: z.string(), af: z.number() })),
  /** ACMG criteria that could not be evaluated (e.g. PM2 without population data), with why. */
  acmgNotAssessed: z.array(z.object({ code: z.string(), reason: z.string() })),
  /**
   * When the consequence is coding_sequence_variant because the codon is not known without the
   * reference sequence: the probability of each possible outcome (SO term, e.g. missense_variant),
   * most probable first; empty otherwise (and for analyses stored before it was kept).
   */
  codingOutcome: z.array(z.object({ term: z.string(), p: z.number() })),
  /** Other overlapping genes and their consequences. */
  otherGenes: z.array(z.object({ gene: z.string(), transcript: z.string(), consequences: z.array(z.string()), impact: z.string() })),
  /**
   * The engine's ranking filters (VARIANT_FILTERS) in order, each passed or failed with why: a
   * variant failing any of them is stored and listed but does not drive the gene ranking.
   */
  rankingFilters: z.array(z.object({ id: z.string(), passed: z.boolean(), reason: z.string() })),
  /** gnomAD constraint of the gene, when known. */
  geneConstraint: z
    .object({ pLI: z.number().nullable(), loeuf: z.number().nullable(), misZ: z.number().nullable(), source: z.string() })
    .nullable(),
});
export type VariantDetails = z.infer<typeof VariantDetails>;

export const UpdatePhenotypeTermsBody = z.object({
  hpoTerms: z.array(HpoId).max(200),
  excludedTerms: z.array(HpoId).max(200).default([]),
});
export type UpdatePhenotypeTermsBody = z.infer<typeof UpdatePhenotypeTermsBody>;

export const UpdatePhenotypeTermsResponse = z.object({
  id: z.string(),
  status: ProductStatusSchema,
  /** True when a re-ranking job was queued (the case was Completed). */
  rerankQueued: z.boolean(),
});

export const HpoSearchQuery = z.object({
  q: z.string().trim().min(1, Messages.mandatory).max(100),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export const HpoSearchResponse = z.object({
  version: z.string(),
  items: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      /** The synonym that matched, when the label did not. */
      matchedSynonym: z.string().nullable(),
      /** An age-of-onset term (under Onset, HP:0003674): taken as the patient's onset, scored against each disease's onset. */
      onset: z.literal(true).optional(),
    }),
  ),
});
export type HpoSearchResponse = z.infer<typeof HpoSearchResponse>;

export const ShareBody = z.object({ email: Email });
export type ShareBody = z.infer<typeof ShareBody>;
export const ShareListResponse = z.object({ emails: z.array(z.string()) });

/** GET /api/products/:id/igv/variants.vcf?region=chr:start-end (1-based inclusive). */
export const IgvRegionQuery = z.object({
  region: z
    .string()
    .regex(/^(chr)?[0-9XYMT]{1,2}:\d[\d,]*-\d[\d,]*$/, 'Must look like 10:123400000-123500000'),
});
