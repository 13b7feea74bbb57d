import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { idColumn, createdAtColumn, updatedAtColumn } from './columns.ts';
import type { DiseaseRanking, Family, GenePhenotypeSource, Genotype, PedigreeMember, TrioQc } from '@rarelens/engine';
import { userRef } from './users.ts';

/** The pedigree of a family case as checked at upload (engine PedigreeMember rows). */
export interface StoredPedigree {
  /** The PED file name (or "pedigree editor"). */
  source: string;
  proband: string;
  members: PedigreeMember[];
}

/** A case: the patient's data, the uploaded genome and the processing state shown in the UI. */
export const products = pgTable(
  'products',
  {
    id: idColumn(),
    ownerId: userRef('owner_id'),
    caseId: text('case_id').notNull(),
    gender: text('gender', { enum: ['male', 'female'] }).notNull(),
    symptoms: text('symptoms').notNull(),
    /** Present HPO term ids as given (current ids), JSON string array. */
    hpoTerms: jsonb('hpo_terms').$type<string[]>().notNull(),
    excludedTerms: jsonb('excluded_terms').$type<string[]>().notNull(),
    /** 'given' by the user, or 'phenome' = extracted from the symptoms by the server (none were sent). */
    hpoTermsSource: text('hpo_terms_source', { enum: ['given', 'phenome'] })
      .notNull()
      .default('given'),
    assemblyRequested: text('assembly_requested', { enum: ['GRCh37', 'GRCh38', 'auto'] }).notNull(),
    /** Assembly of the input once known (given or detected from the header). */
    assembly: text('assembly'),
    genomeFormat: text('genome_format', { enum: ['vcf', 'fastq'] }).notNull(),
    imageDescription: text('image_description'),
    /**
     * The family sent with the upload (PED file or the upload page's editor), checked against the
     * VCF's samples before queueing; null for a single-sample case.
     */
    pedigree: jsonb('pedigree').$type<StoredPedigree>(),
    /** The VCF sample analysed (the proband); null = the pedigree's proband or the first sample. */
    probandSample: text('proband_sample'),
    status: text('status', { enum: ['In queue', 'Processing', 'Completed', 'Error'] })
      .notNull()
      .default('In queue'),
    /** 0-100 while Processing. */
    progress: integer('progress').notNull().default(0),
    /** What is running while Processing (raw data analysis: reference, alignment, duplicates, calling, annotation, ranking). */
    progressStage: text('progress_stage'),
    /** Why the case is in Error (shown under "An error occurred"). */
    errorReason: text('error_reason'),
    /** The analysis run whose results are shown. */
    currentRunId: uuid('current_run_id'),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [
    index('products_owner_created_idx').on(t.ownerId, t.createdAt),
    check('products_progress_range', sql`${t.progress} between 0 and 100`),
    check('products_hpo_terms_source', sql`${t.hpoTermsSource} in ('given', 'phenome')`),
  ],
);

/** A reference to the case (`product_id`); the row goes with the case. */
export const caseRef = () =>
  uuid('product_id')
    .notNull()
    .references(() => products.id, { onDelete: 'cascade' });

/** Uploaded originals (kept for re-analysis): the genome file and up to 5 additional files. */
export const productFiles = pgTable(
  'product_files',
  {
    id: idColumn(),
    productId: caseRef(),
    /** 'mate' = the second FASTQ of paired reads (genomeMateFile). */
    role: text('role', { enum: ['genome', 'mate', 'attachment', 'relative'] }).notNull(),
    originalName: text('original_name').notNull(),
    storageKey: text('storage_key').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    format: text('format').notNull(),
    compression: text('compression', { enum: ['none', 'gzip', 'bgzip'] }),
    mediaType: text('media_type').notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [index('product_files_product_idx').on(t.productId)],
);

/** Sharing by e-mail (spec §4): the recipient sees the case once signed in with that address. */
export const productShares = pgTable(
  'product_shares',
  {
    productId: caseRef(),
    email: text('email').notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.email] }),
    index('product_shares_email_idx').on(t.email),
    check('product_shares_email_lower_case', sql`${t.email} = lower(${t.email})`),
  ],
);

/**
 * The links e-mailed when a case is shared (issue 18): `/shared/{token}` opens the case's
 * phenotypes read-only without an account. Only the sha256 of the token is stored. A link dies
 * when it expires or when the owner unshares the e-mail (revoked_at). One row per e-mail sent;
 * rows backfilled from shares made before links existed have no token.
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: idColumn(),
    productId: caseRef(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').unique('share_links_token_hash_unique'),
    createdAt: createdAtColumn(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastOpenedAt: timestamp('last_opened_at', { withTimezone: true }),
    openCount: integer('open_count').notNull().default(0),
  },
  (t) => [
    index('share_links_product_email_idx').on(t.productId, t.email, t.createdAt),
    check('share_links_email_lower_case', sql`${t.email} = lower(${t.email})`),
    check('share_links_open_count_non_negative', sql`${t.openCount} >= 0`),
  ],
);

export type ShareLinkRow = typeof shareLinks.$inferSelect;

/**
 * One analysis of a case. Results are written under the run id; the product points at the
 * run only once it is complete, so a crashed run never shows partial results.
 */
export const analysisRuns = pgTable(
  'analysis_runs',
  {
    id: idColumn(),
    productId: caseRef(),
    jobId: uuid('job_id'),
    state: text('state', { enum: ['running', 'completed'] })
      .notNull()
      .default('running'),
    softwareVersion: text('software_version').notNull(),
    kbVersions: jsonb('kb_versions').$type<Record<string, string>>().notNull(),
    assembly: text('assembly').notNull(),
    inputAssembly: text('input_assembly').notNull(),
    /** The terms the stored ranking used. */
    hpoTerms: jsonb('hpo_terms').$type<string[]>().notNull(),
    excludedTerms: jsonb('excluded_terms').$type<string[]>().notNull(),
    /** Counts per pipeline step (records read, variants stored, candidates, ...). */
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    /** Family case: the checked family and its trio QC (engine Family + TrioQc[]); null otherwise. */
    family: jsonb('family').$type<{ family: Family; qc: TrioQc[] }>(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    rankedAt: timestamp('ranked_at', { withTimezone: true }),
  },
  (t) => [index('analysis_runs_product_idx').on(t.productId)],
);

/**
 * Every annotated variant of a run (not only candidates), so lists can filter and re-ranking
 * never re-annotates. `id` is the variant's ordinal in the input (stable across re-ranking).
 * List order is the ranking's candidates by rank (run_variant_ranks), then the other variants by
 * (score desc, id). The rank is not on this wide row (migration 0031): a re-rank rewrote 13,018
 * wide rows and every index on them (1.0-1.5 s in psql); it now rewrites the run's narrow
 * run_variant_ranks rows. The list-order indexes here hold the non-candidates only (`not
 * is_candidate`): the candidates are listed from run_variant_ranks.
 * The jobs VACUUM (ANALYZE) the table after loading, so pages are index-only scans.
 * The evidence blobs are json, not jsonb (migration 0022): written once by COPY and read back
 * whole, never queried inside, so jsonb's conversion on every write and read bought nothing.
 */
export const runVariants = pgTable(
  'run_variants',
  {
    /**
     * The run (analysis_runs.id). Not a declared foreign key: triggers of migration 0025 keep the
     * same rules (an insert naming a missing run fails, deleting a run deletes its variants) with
     * one check per statement instead of one per row (PostgreSQL CPU of a genome's COPY 32.4 -> 18.6 s in
     * psql; -19 % through the store path, session 10).
     */
    runId: uuid('run_id').notNull(),
    id: integer('id').notNull(),
    chrom: text('chrom').notNull(),
    /** 1-based VCF position on GRCh38. */
    pos: integer('pos').notNull(),
    ref: text('ref').notNull(),
    alt: text('alt').notNull(),
    gene: text('gene'),
    hgncId: text('hgnc_id'),
    transcript: text('transcript'),
    isManeSelect: boolean('is_mane_select').notNull().default(false),
    /** Most severe Sequence Ontology consequence. */
    consequence: text('consequence'),
    consequences: json('consequences').$type<string[]>().notNull(),
    impact: text('impact').notNull(),
    hgvsC: text('hgvs_c'),
    hgvsP: text('hgvs_p'),
    af: real('af'),
    afSource: text('af_source'),
    clinvarSignificance: text('clinvar_significance'),
    clinvar: json('clinvar'),
    acmgClass: text('acmg_class').notNull(),
    acmgPoints: integer('acmg_points').notNull(),
    acmgCriteria: json('acmg_criteria').notNull(),
    zygosity: text('zygosity').notNull(),
    genotype: json('genotype').notNull(),
    qual: real('qual'),
    filter: json('filter').$type<string[]>().notNull(),
    score: real('score').notNull(),
    /** Considered by the ranking (the engine's candidate selection); re-ranking reads only these. */
    isCandidate: boolean('is_candidate').notNull(),
    /** The record as in the uploaded file: { chrom, pos, ref, alt, line }. */
    input: json('input').notNull(),
    /** Further evidence: { acmgNotAssessed, otherGenes, geneConstraint } when the annotator gives them. */
    details: json('details'),
    /** Family case: each sequenced member's genotype (sample -> engine Genotype); null otherwise. */
    genotypes: json('genotypes').$type<Record<string, Genotype>>(),
    /** Inheritance patterns the candidate fits in the family (de_novo, compound_het, ...). */
    inheritance: text('inheritance').array().notNull().default(sql`'{}'::text[]`),
    /** Why: the family rules behind the tags and the compound-heterozygous partners (variant ids). */
    inheritanceDetail: json('inheritance_detail').$type<{ partners: number[]; rules: string[] }>(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.id] }),
    // The main list index, (run_id, score desc, id) INCLUDE (filter columns) WHERE NOT is_candidate,
    // is created in migration 0031 by hand: drizzle cannot express INCLUDE. Covering the filter
    // columns lets every list page and capped count of the non-candidates be an index-only scan.
    // Filter indexes hold only the rows their filter is selective on (migration 0021): a filter
    // on a common value (intron, heterozygous, uncertain significance, no ClinVar entry) reads
    // the covering list index in list order instead, and a genome's rows enter 5 fewer btrees.
    // None holds the candidates (listed from run_variant_ranks, in rank order).
    index('run_variants_gene_order_idx').on(t.runId, t.gene, t.score.desc(), t.id).where(sql`gene is not null and not is_candidate`),
    index('run_variants_consequence_order_idx')
      .on(t.runId, t.consequence, t.score.desc(), t.id)
      .where(sql`consequence <> 'intergenic_variant' and consequence <> 'intron_variant' and consequence <> 'upstream_gene_variant' and consequence <> 'downstream_gene_variant' and not is_candidate`),
    index('run_variants_acmg_order_idx').on(t.runId, t.acmgClass, t.score.desc(), t.id).where(sql`acmg_class <> 'Uncertain significance' and not is_candidate`),
    index('run_variants_clinvar_order_idx').on(t.runId, t.clinvarSignificance, t.score.desc(), t.id).where(sql`clinvar_significance is not null and not is_candidate`),
    index('run_variants_zygosity_order_idx').on(t.runId, t.zygosity, t.score.desc(), t.id).where(sql`zygosity <> 'heterozygous' and zygosity <> 'homozygous' and not is_candidate`),
    index('run_variants_position_idx').on(t.runId, t.chrom, t.pos),
    index('run_variants_candidates_idx').on(t.runId, t.id).where(sql`is_candidate`),
  ],
);

/**
 * The ranking of a run's candidate variants (migration 0031): one row per candidate of
 * run_variants (`id`), its rank (1 = best) and a copy of the candidate's filter columns, so a
 * list of the candidates, filtered or not, reads this narrow table in rank order and joins the
 * wide rows of its page only. A re-rank deletes the run's rows and writes them again with COPY
 * in its transaction (a failed re-rank leaves the previous ranking). The filter columns never
 * change (they are the stored variant's); `inheritance` is the candidate's family tags.
 * Not declared foreign keys (as run_variants, migration 0025): triggers check that the run exists
 * once per statement and delete the ranks with the run.
 */
export const runVariantRanks = pgTable(
  'run_variant_ranks',
  {
    runId: uuid('run_id').notNull(),
    rank: integer('rank').notNull(),
    /** The variant (run_variants.id). */
    id: integer('id').notNull(),
    gene: text('gene'),
    consequence: text('consequence'),
    af: real('af'),
    clinvarSignificance: text('clinvar_significance'),
    acmgClass: text('acmg_class').notNull(),
    zygosity: text('zygosity').notNull(),
    inheritance: text('inheritance').array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [
    // Migration 0032 makes this key INCLUDE (id) by hand (drizzle cannot express INCLUDE): an
    // offset page skips the candidates before it in an index-only scan.
    primaryKey({ columns: [t.runId, t.rank] }),
    uniqueIndex('run_variant_ranks_variant_uq').on(t.runId, t.id),
    // A gene's candidates in rank order (gene filter, the clustered view's variants of a gene).
    index('run_variant_ranks_gene_idx').on(t.runId, t.gene, t.rank).where(sql`gene is not null`),
  ],
);

/** Ranked diseases of a run. */
export const runPhenotypes = pgTable(
  'run_phenotypes',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => analysisRuns.id, { onDelete: 'cascade' }),
    diseaseId: text('disease_id').notNull(),
    rank: integer('rank').notNull(),
    name: text('name').notNull(),
    score: real('score').notNull(),
    probability: real('probability').notNull(),
    significance: text('significance'),
    inheritance: jsonb('inheritance').$type<{ id: string; label: string }[]>().notNull(),
    onset: jsonb('onset').$type<{ id: string; label: string }[]>().notNull(),
    genes: jsonb('genes').$type<string[]>().notNull(),
    matchedTerms: jsonb('matched_terms').notNull(),
    explanation: jsonb('explanation').$type<string[]>().notNull(),
    mergedIds: jsonb('merged_ids').$type<string[]>().notNull(),
    /** Where the phenotype it is ranked on comes from (engine DiseaseRanking.phenotypeSource); null for runs ranked before it was stored. */
    phenotypeSource: text('phenotype_source').$type<DiseaseRanking['phenotypeSource']>(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.diseaseId] }),
    index('run_phenotypes_rank_idx').on(t.runId, t.rank),
  ],
);

/** Ranked genes of a run, with the KB gene facts shown on the gene page. */
export const runGenes = pgTable(
  'run_genes',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => analysisRuns.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    rank: integer('rank').notNull(),
    hgncId: text('hgnc_id'),
    name: text('name'),
    chromosome: text('chromosome'),
    locusType: text('locus_type'),
    description: text('description'),
    synonyms: jsonb('synonyms').$type<string[]>().notNull(),
    score: real('score').notNull(),
    phenotypeScore: real('phenotype_score').notNull(),
    variantScore: real('variant_score').notNull(),
    /** Calibrated post-test probability (null for runs ranked before it was computed). */
    probability: real('probability'),
    significance: text('significance'),
    inheritance: jsonb('inheritance').$type<string[]>().notNull(),
    onset: jsonb('onset').$type<string[]>().notNull(),
    explanation: jsonb('explanation').$type<string[]>().notNull(),
    /** Where the phenotype evidence comes from (engine phenotypeSourceOf); null for runs ranked before it was stored. */
    phenotypeSource: jsonb('phenotype_source').$type<GenePhenotypeSource>(),
    diseases: jsonb('diseases').$type<{ id: string; label: string }[]>().notNull(),
    variantCount: integer('variant_count').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.symbol] }),
    index('run_genes_rank_idx').on(t.runId, t.rank),
  ],
);

/**
 * Per gene of a run, its stored variants' count and best score: the unfiltered clustered view's
 * gene list (the web app's default view of a case). Written with the ranking, in the run's
 * publishing transaction (the same aggregate computes the ranked genes' variant counts); a
 * re-ranking changes variant ranks only, never these. Without it, the first clustered page of a
 * genome ran the aggregate over every variant of the run (~0.8 s for 1.1 M) in each API process,
 * and a re-ranking ran it again for the ranked genes' counts and classes.
 */
export const runVariantGenes = pgTable(
  'run_variant_genes',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => analysisRuns.id, { onDelete: 'cascade' }),
    gene: text('gene').notNull(),
    variantCount: integer('variant_count').notNull(),
    maxScore: real('max_score').notNull(),
    /**
     * Most pathogenic automatic ACMG class among the gene's variants (a re-ranking adds reviewers'
     * classes, db/gene-significance.ts storedGeneVariantStats); null on rows written before migration 0028.
     */
    automaticSignificance: text('automatic_significance'),
  },
  (t) => [primaryKey({ columns: [t.runId, t.gene] })],
);

export type ProductRow = typeof products.$inferSelect;
export type ProductFileRow = typeof productFiles.$inferSelect;
export type AnalysisRunRow = typeof analysisRuns.$inferSelect;

/** What a new analysis run records besides its case (jobs/ports NewRunInfo, analysis.repository NewRun). */
export interface NewRunFields {
  jobId: string | null;
  softwareVersion: string;
  kbVersions: Record<string, string>;
  assembly: string;
  inputAssembly: string;
  hpoTerms: string[];
  excludedTerms: string[];
}
/** A stored variant row as in run_variants (no rank). */
export type StoredVariantRow = typeof runVariants.$inferSelect;
/** A stored variant with its rank among the run's candidates (run_variant_ranks; null for the others). */
export type RunVariantRow = StoredVariantRow & { rank: number | null };
export type RunVariantRankRow = typeof runVariantRanks.$inferInsert;
export type RunPhenotypeRow = typeof runPhenotypes.$inferSelect;
export type RunGeneRow = typeof runGenes.$inferSelect;
