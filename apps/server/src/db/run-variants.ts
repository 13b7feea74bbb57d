/**
 * Shared SQL over the stored variants of a run (run_variants): the list order and the WHERE
 * clause of a filtered list, used by every reader (variant list, TSV export, report).
 */
import { and, asc, eq, getTableColumns, sql, type Column, type SQL } from 'drizzle-orm';
import { reportedZygosity, type AnnotatedVariant } from '@rarelens/engine';
import { copyTableWithLast, encodeCopyRows } from './bulk-copy.ts';
import type { Executor } from './database.ts';
import { runVariantRanks, runVariants, type RunVariantRankRow, type RunVariantRow, type StoredVariantRow } from './schema/products.ts';

/** A page of a list (1-based). */
export interface Page {
  page: number;
  pageSize: number;
}

/**
 * List order of variants: candidates by rank, then the rest by score, of run_variants joined to
 * its ranks (selectRankedVariants). The list pages read the two parts apart, each in the order
 * of its own indexes (candidates: run_variant_ranks by rank; the others: run_variants by score
 * desc, id).
 */
export const VARIANT_ORDER = [
  sql`${runVariantRanks.rank} asc nulls last`,
  sql`${runVariants.score} desc nulls last`,
  asc(runVariants.id),
] as const;

/** The order of the non-candidates (run_variants' list-order indexes, `not is_candidate`). */
export const UNRANKED_ORDER = [sql`${runVariants.score} desc nulls last`, asc(runVariants.id)] as const;

/** A stored variant with its rank (RunVariantRow): run_variants' columns and run_variant_ranks.rank. */
export const RANKED_VARIANT_COLUMNS = { ...getTableColumns(runVariants), rank: runVariantRanks.rank };

/** The join of a variant's rank (none for a non-candidate). */
export const RANK_OF_VARIANT = and(eq(runVariantRanks.runId, runVariants.runId), eq(runVariantRanks.id, runVariants.id));

/** Stored variants with their ranks (RunVariantRow): add the WHERE, order and limit. */
export function selectRankedVariants(db: Executor) {
  return db.select(RANKED_VARIANT_COLUMNS).from(runVariants).leftJoin(runVariantRanks, RANK_OF_VARIANT);
}

/**
 * What list pages read of a stored variant: the columns a list row shows, not
 * the details, evidence, input record and genotype that only the details of one variant show
 * (on a genome, those JSON columns are most of a row's bytes and of the page's parsing).
 */
export const LISTED_COLUMNS = {
  id: runVariants.id,
  chrom: runVariants.chrom,
  pos: runVariants.pos,
  ref: runVariants.ref,
  alt: runVariants.alt,
  gene: runVariants.gene,
  transcript: runVariants.transcript,
  consequence: runVariants.consequence,
  consequences: runVariants.consequences,
  impact: runVariants.impact,
  hgvsC: runVariants.hgvsC,
  hgvsP: runVariants.hgvsP,
  af: runVariants.af,
  clinvarSignificance: runVariants.clinvarSignificance,
  clinvar: runVariants.clinvar,
  acmgClass: runVariants.acmgClass,
  acmgPoints: runVariants.acmgPoints,
  zygosity: runVariants.zygosity,
  score: runVariants.score,
  genotypes: runVariants.genotypes,
  inheritance: runVariants.inheritance,
  inheritanceDetail: runVariants.inheritanceDetail,
} as const;

/** A stored variant as list pages read it (LISTED_COLUMNS and its rank). */
export type ListedVariantRow = Pick<RunVariantRow, keyof typeof LISTED_COLUMNS | 'rank'>;

/**
 * Decodes the rows of a raw query (`db.execute`: objects keyed by the selected names) into objects
 * keyed by `columns`' keys, each value decoded by its column as drizzle's select does (null stays
 * null). Drizzle's generic row mapping of a select costs several times the page's own work on a
 * page of hundreds of rows (the clustered view); this is a plain loop over precomputed columns.
 * `name(key, column)` is the name a value has in the raw row (default: the column's name). A
 * selected name missing from a row is an error, never a silent null.
 */
export function rawRowDecoder<C extends Record<string, Column>>(
  columns: C,
  name: (key: string, column: Column) => string = (_key, column) => column.name,
): (raw: Record<string, unknown>) => { [K in keyof C]: C[K]['_']['notNull'] extends true ? C[K]['_']['data'] : C[K]['_']['data'] | null } {
  const fields = Object.entries(columns).map(([key, column]) => ({ key, raw: name(key, column), column }));
  return (raw) => {
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      const value = raw[f.raw];
      if (value === undefined) throw new Error(`raw row has no column "${f.raw}" (selected as ${f.key})`);
      out[f.key] = value === null ? null : f.column.mapFromDriverValue(value);
    }
    return out as never;
  };
}

/** A ListedVariantRow from a raw row that selected LISTED_COLUMNS under their column names and the rank as `rank`. */
export const listedVariantOf: (raw: Record<string, unknown>) => ListedVariantRow = rawRowDecoder({ ...LISTED_COLUMNS, rank: runVariantRanks.rank });

export interface VariantFilters {
  consequence?: string[] | undefined;
  maxAf?: number | undefined;
  clinvar?: string[] | undefined;
  acmg?: string[] | undefined;
  zygosity?: string[] | undefined;
  gene?: string[] | undefined;
  /** Inheritance patterns in the family (any of them). */
  inheritance?: string[] | undefined;
  /** Only the ranking's candidates. */
  candidatesOnly?: boolean;
}

/**
 * How a value enters a filter's SQL: as a bound parameter of the statement (`sql.param`), or as a
 * named placeholder of a prepared statement (the value then goes to `params`).
 */
type Bind = (name: string, value: unknown) => SQL;

/**
 * Which rows a filter's WHERE clause reads:
 *  - 'ranked': the run's candidates in run_variant_ranks (their copy of the filter columns);
 *  - 'unranked': the other variants in run_variants (`not is_candidate`: its list-order indexes);
 *  - 'all': every variant in run_variants (a candidate is a variant with `is_candidate`).
 */
export type FilterTarget = 'ranked' | 'unranked' | 'all';

/** The filter columns of each target's table (run_variant_ranks has run_variants' names). */
function filterColumns(target: FilterTarget) {
  const t = target === 'ranked' ? runVariantRanks : runVariants;
  return { runId: t.runId, consequence: t.consequence, af: t.af, clinvarSignificance: t.clinvarSignificance, acmgClass: t.acmgClass, zygosity: t.zygosity, gene: t.gene, inheritance: t.inheritance };
}

/**
 * Can the filters match a variant that is no candidate? Not with candidatesOnly, nor with an
 * inheritance filter (only candidates are tagged): the list then reads run_variant_ranks alone.
 */
export function matchesUnranked(f: VariantFilters): boolean {
  return !f.candidatesOnly && !f.inheritance?.length;
}

/**
 * The WHERE clause of a filtered list over `target` and its shape: the letters of the filters it
 * has (the clause's text depends on them and the target only, never on their values). One
 * builder for both uses below.
 */
function filterWhere(runId: string, f: VariantFilters, bind: Bind, target: FilterTarget): { where: SQL; shape: string } {
  const c = filterColumns(target);
  const parts: SQL[] = [sql`${c.runId} = ${bind('runId', runId)}::uuid`];
  let shape = '';
  if (f.consequence?.length) {
    parts.push(sql`${c.consequence} = any(${bind('consequence', f.consequence)}::text[])`);
    shape += 'c';
  }
  // Unknown frequency passes a maximum-frequency filter: absence from population data is
  // itself evidence of rarity, and dropping such variants would hide the rarest ones.
  if (f.maxAf != null) {
    parts.push(sql`(${c.af} is null or ${c.af} <= ${bind('maxAf', f.maxAf)}::real)`);
    shape += 'f';
  }
  if (f.clinvar?.length) {
    const named = f.clinvar.filter((x) => x.toLowerCase() !== 'none');
    const wantsNone = named.length < f.clinvar.length;
    const conds: SQL[] = [];
    if (named.length) conds.push(sql`${c.clinvarSignificance} = any(${bind('clinvar', named)}::text[])`);
    if (wantsNone) conds.push(sql`${c.clinvarSignificance} is null`);
    parts.push(conds.length === 1 ? conds[0]! : sql`(${sql.join(conds, sql` or `)})`);
    shape += (named.length ? 'v' : '') + (wantsNone ? 'n' : '');
  }
  if (f.acmg?.length) {
    parts.push(sql`${c.acmgClass} = any(${bind('acmg', f.acmg)}::text[])`);
    shape += 'a';
  }
  if (f.zygosity?.length) {
    parts.push(sql`${c.zygosity} = any(${bind('zygosity', f.zygosity)}::text[])`);
    shape += 'z';
  }
  if (f.gene?.length) {
    parts.push(sql`${c.gene} = any(${bind('gene', f.gene)}::text[])`);
    shape += 'g';
  }
  if (f.inheritance?.length) {
    parts.push(sql`${c.inheritance} && ${bind('inheritance', f.inheritance)}::text[]`);
    shape += 'i';
  }
  if (f.candidatesOnly) {
    // Every row of run_variant_ranks is a candidate.
    if (target !== 'ranked') parts.push(sql`${runVariants.isCandidate}`);
    shape += 'k';
  }
  // The predicate of run_variants' list-order indexes.
  if (target === 'unranked') parts.push(sql`not ${runVariants.isCandidate}`);
  return { where: and(...parts)!, shape };
}

/** The WHERE clause of a filtered variant list over `target`, its values bound (shared with the TSV export). */
export function variantWhere(runId: string, f: VariantFilters, target: FilterTarget = 'all'): SQL {
  return filterWhere(runId, f, (_name, value) => sql`${sql.param(value)}`, target).where;
}

/**
 * The WHERE clause of a filtered variant list over `target` for a prepared statement: the same
 * clause with its values as placeholders (`params`, by placeholder name), and its `shape`, which
 * names the clause's text for a target: one prepared statement per shape serves every value of
 * those filters (no SQL built, parsed or analysed per request).
 */
export function variantWherePrepared(runId: string, f: VariantFilters, target: FilterTarget): { where: SQL; shape: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = {};
  const { where, shape } = filterWhere(runId, f, (name, value) => {
    params[name] = value;
    return sql`${sql.placeholder(name)}`;
  }, target);
  return { where, shape, params };
}

/**
 * The values that run_variants' partial filter indexes leave out (migration 0031: the common ones,
 * which the covering list index serves in list order): consequence, zygosity, ACMG class.
 */
const LEFT_OUT_OF_FILTER_INDEX = {
  consequence: ['intergenic_variant', 'intron_variant', 'upstream_gene_variant', 'downstream_gene_variant'],
  zygosity: ['heterozygous', 'homozygous'],
  acmg: ['Uncertain significance'],
} as const satisfies Partial<Record<keyof VariantFilters, readonly string[]>>;

/**
 * Is one plan of a list statement with filters `f` right for all their values (a generic plan,
 * Database.genericPlanDb)? Not when the non-candidates are read with a consequence, zygosity or
 * ACMG filter of values that run_variants' partial index of that filter holds (the rarer ones:
 * only a plan made for the statement's values can use that index). A filter with a value the
 * index leaves out cannot use it in any plan; the candidates' table (run_variant_ranks) has no
 * such index.
 */
export function planFitsAnyValues(f: VariantFilters): boolean {
  if (!matchesUnranked(f)) return true;
  return (Object.keys(LEFT_OUT_OF_FILTER_INDEX) as (keyof typeof LEFT_OUT_OF_FILTER_INDEX)[]).every((key) => {
    const values = f[key];
    const leftOut: readonly string[] = LEFT_OUT_OF_FILTER_INDEX[key];
    return !values?.length || values.some((v) => leftOut.includes(v));
  });
}

export function hasFilters(f: VariantFilters): boolean {
  return Boolean(
    f.consequence?.length || f.maxAf != null || f.clinvar?.length || f.acmg?.length || f.zygosity?.length || f.gene?.length || f.inheritance?.length,
  );
}

/** The `details` column as readers see it (readStoredDetails). */
export interface StoredDetails {
  acmgNotAssessed: NonNullable<AnnotatedVariant['acmg']['notAssessed']>;
  otherGenes: NonNullable<AnnotatedVariant['otherGenes']>;
  geneConstraint: AnnotatedVariant['geneConstraint'] | null;
  /**
   * The expected codon outcome of a coding variant whose codon is not known (absent when there is
   * none, and in rows stored before it was kept): re-ranking explains the variant with it as the
   * upload did.
   */
  codingOutcome?: NonNullable<AnnotatedVariant['codingOutcome']>;
}

type NotAssessed = StoredDetails['acmgNotAssessed'][number];

/**
 * Not-assessed ACMG criteria stored as a key instead of { code, reason } (issue 14: the first
 * one, on 99.7 % of a genome's rows, was 127 of a row's ~560 bytes of COPY text). Each key names
 * one exact text for good: a reason the engine words differently is stored in full, and a new
 * wording gets a new key (stored rows keep reading as they were written).
 */
const NOT_ASSESSED_KEYS: Readonly<Record<string, NotAssessed>> = {
  'PM2/BA1/BS1': { code: 'PM2/BA1/BS1', reason: 'no population frequency data for this locus (no gnomAD table in the KB and none in the VCF)' },
  'PP3/BP4': { code: 'PP3/BP4', reason: 'no predictor scores (REVEL, CADD, AlphaMissense, SpliceAI) in the input' },
};

/**
 * The `details` column as written: empty parts left out, standard not-assessed criteria by key
 * (NOT_ASSESSED_KEYS). Rows written before are in the full form (StoredDetails); both read the same.
 */
export interface WrittenDetails {
  acmgNotAssessed?: (NotAssessed | string)[];
  otherGenes?: StoredDetails['otherGenes'];
  geneConstraint?: NonNullable<StoredDetails['geneConstraint']>;
  codingOutcome?: NonNullable<StoredDetails['codingOutcome']>;
}

function notAssessedKey(n: NotAssessed): NotAssessed | string {
  const known = NOT_ASSESSED_KEYS[n.code];
  return known && known.reason === n.reason ? n.code : n;
}

/** The `details` column of a variant: the evidence without a column of its own, null when there is none. */
export function writtenDetails(v: AnnotatedVariant): WrittenDetails | null {
  const na = v.acmg.notAssessed;
  if (!na?.length && !v.otherGenes?.length && !v.geneConstraint && !v.codingOutcome?.length) return null;
  const out: WrittenDetails = {};
  if (na?.length) out.acmgNotAssessed = na.map(notAssessedKey);
  if (v.otherGenes?.length) out.otherGenes = v.otherGenes;
  if (v.geneConstraint) out.geneConstraint = v.geneConstraint;
  if (v.codingOutcome?.length) out.codingOutcome = v.codingOutcome;
  return out;
}

/** A stored `details` value (either form) as readers see it. */
export function readStoredDetails(raw: unknown): StoredDetails | null {
  if (raw == null) return null;
  const d = raw as WrittenDetails;
  return {
    acmgNotAssessed: (d.acmgNotAssessed ?? []).map((n) => {
      if (typeof n !== 'string') return n;
      const known = NOT_ASSESSED_KEYS[n];
      if (!known) throw new Error(`run_variants.details: unknown not-assessed criterion key "${n}"`);
      return { code: known.code, reason: known.reason };
    }),
    otherGenes: d.otherGenes ?? [],
    geneConstraint: d.geneConstraint ?? null,
    ...(d.codingOutcome ? { codingOutcome: d.codingOutcome } : {}),
  };
}

/** The record as in the uploaded file. */
export type StoredInput = AnnotatedVariant['input'];

/**
 * The `input` column as written: `[line, prefix]` when the record is the stored allele as it was
 * in the file, its chromosome with `prefix` ("chr" or "") before the stored name (no liftover or
 * normalisation moved it; ~13 bytes instead of ~65), else the whole record. Rows written before
 * hold the whole record; both read the same (readStoredInput).
 */
export function writtenInput(v: Pick<AnnotatedVariant, 'chrom' | 'pos' | 'ref' | 'alt' | 'input'>): StoredInput | [number, string] {
  const i = v.input;
  if (i.pos !== v.pos || i.ref !== v.ref || i.alt !== v.alt) return i;
  if (i.chrom === v.chrom) return [i.line, ''];
  if (i.chrom.length === v.chrom.length + 3 && i.chrom.startsWith('chr') && i.chrom.endsWith(v.chrom)) return [i.line, 'chr'];
  return i;
}

/** A stored `input` value (either form) of a row as readers see it. */
export function readStoredInput(row: Pick<RunVariantRow, 'chrom' | 'pos' | 'ref' | 'alt' | 'input'>): StoredInput {
  const raw = row.input;
  if (!Array.isArray(raw)) return raw as StoredInput;
  const [line, prefix] = raw as [number, string];
  return { chrom: `${prefix}${row.chrom}`, pos: row.pos, ref: row.ref, alt: row.alt, line };
}

/** One variant as stored: `ordinal` is its 1-based position in the input's variant stream. */
export function toVariantRow(
  runId: string,
  ordinal: number,
  v: AnnotatedVariant,
  isCandidate: boolean,
  inheritance: { tags: string[]; partners: number[]; rules: string[] } | null = null,
) {
  return {
    runId,
    id: ordinal,
    chrom: v.chrom,
    pos: v.pos,
    ref: v.ref,
    alt: v.alt,
    gene: v.gene,
    hgncId: v.hgncId ?? null,
    transcript: v.transcript,
    isManeSelect: v.isManeSelect ?? false,
    consequence: v.consequences[0] ?? null,
    consequences: v.consequences,
    impact: v.impact,
    hgvsC: v.hgvsC,
    hgvsP: v.hgvsP,
    af: v.af,
    afSource: v.afSource ?? null,
    clinvarSignificance: v.clinvar?.significance ?? null,
    clinvar: v.clinvar,
    acmgClass: v.acmg.classification,
    acmgPoints: Math.round(v.acmg.points),
    acmgCriteria: v.acmg.criteria,
    zygosity: reportedZygosity(v.chrom, v.genotype),
    genotype: v.genotype,
    qual: v.qual,
    filter: v.filter,
    score: v.score,
    isCandidate,
    input: writtenInput(v),
    details: writtenDetails(v),
    genotypes: v.familyGenotypes ?? null,
    inheritance: inheritance?.tags ?? [],
    inheritanceDetail: inheritance && (inheritance.partners.length || inheritance.rules.length) ? { partners: inheritance.partners, rules: inheritance.rules } : null,
  } satisfies typeof runVariants.$inferInsert;
}

/** run_variants with the run id last, for rows encoded without it (PostgreSQL: COPY from STDIN). */
export const ENCODED_VARIANTS = copyTableWithLast(runVariants, 'STDIN', 'runId');

/**
 * Variants the ranking does not look at, as COPY text of run_variants without the run id: what
 * copyVariants sends for them, encoded where they were annotated (the analysis thread), so they
 * cross to the job as one string instead of objects (copyEncodedVariants adds the run id).
 */
export function encodeStoredVariants(variants: readonly { id: number; variant: AnnotatedVariant }[]): string {
  return encodeCopyRows(
    ENCODED_VARIANTS,
    variants.map((v) => toVariantRow('', v.id, v.variant, false)),
  );
}

/**
 * The stored zygosity as shown. Analyses stored before mitochondrial calls were read by their
 * heteroplasmy hold the GT's reading ('hemizygous' for a haploid call): on the mitochondrion that
 * is shown as 'mitochondrial' (level unknown), never as hemizygous.
 */
export function presentZygosity(chrom: string, zygosity: string): string {
  return chrom === 'MT' && (zygosity === 'hemizygous' || zygosity === 'homozygous' || zygosity === 'heterozygous') ? 'mitochondrial' : zygosity;
}

/** The AnnotatedVariant a stored row came from (re-ranking works from these). */
export function fromVariantRow(r: StoredVariantRow): AnnotatedVariant {
  const details = readStoredDetails(r.details);
  return {
    chrom: r.chrom,
    pos: r.pos,
    ref: r.ref,
    alt: r.alt,
    input: readStoredInput(r),
    assembly: 'GRCh38',
    genotype: r.genotype as AnnotatedVariant['genotype'],
    filter: r.filter,
    qual: r.qual,
    gene: r.gene,
    hgncId: r.hgncId,
    transcript: r.transcript,
    isManeSelect: r.isManeSelect,
    consequences: r.consequences,
    ...(details?.codingOutcome?.length ? { codingOutcome: details.codingOutcome } : {}),
    impact: r.impact as AnnotatedVariant['impact'],
    hgvsC: r.hgvsC,
    hgvsP: r.hgvsP,
    af: r.af,
    afSource: r.afSource,
    clinvar: r.clinvar as AnnotatedVariant['clinvar'],
    acmg: {
      classification: r.acmgClass as AnnotatedVariant['acmg']['classification'],
      points: r.acmgPoints,
      criteria: r.acmgCriteria as AnnotatedVariant['acmg']['criteria'],
      ...(details?.acmgNotAssessed.length ? { notAssessed: details.acmgNotAssessed } : {}),
    },
    score: r.score,
    ...(details?.otherGenes.length ? { otherGenes: details.otherGenes } : {}),
    ...(details?.geneConstraint ? { geneConstraint: details.geneConstraint } : {}),
    ...(r.genotypes ? { familyGenotypes: r.genotypes } : {}),
  };
}

/** The columns fromVariantRow reads, in the order of a candidate's stored-row text (CANDIDATE_ROW_TEXT). */
const CANDIDATE_FIELDS = [
  'chrom', 'pos', 'ref', 'alt', 'input', 'genotype', 'filter', 'qual', 'gene', 'hgncId', 'transcript', 'isManeSelect',
  'consequences', 'details', 'impact', 'hgvsC', 'hgvsP', 'af', 'afSource', 'clinvar', 'acmgClass', 'acmgPoints',
  'acmgCriteria', 'score', 'genotypes',
] as const satisfies readonly (keyof StoredVariantRow)[];

/**
 * A stored row as one JSON text (an array of CANDIDATE_FIELDS), built by the database: re-ranking
 * passes these strings to the analysis thread, which decodes them (decodeCandidateRow), instead
 * of 13,000 row objects mapped here and structured-cloned there.
 */
export const CANDIDATE_ROW_TEXT = sql`json_build_array(${sql.join(
  CANDIDATE_FIELDS.map((k) => runVariants[k]),
  sql`, `,
)})::text`;

/** Each CANDIDATE_FIELDS name's position in a candidate's stored-row text. */
const AT = Object.fromEntries(CANDIDATE_FIELDS.map((k, i) => [k, i])) as { readonly [K in (typeof CANDIDATE_FIELDS)[number]]: number };

/** A float4 column's value as JSON gives it (NaN and infinities as strings). */
const real = (x: unknown): unknown => (typeof x === 'string' ? Number(x) : x);

/**
 * The AnnotatedVariant of a CANDIDATE_ROW_TEXT (the same as fromVariantRow of the row). The row
 * is one object literal (one shape for every row) rather than keys stored one by one by computed
 * name in a loop: a genome's 13,018 candidates decoded in a median 141-153 ms CPU that way and
 * 100-110 ms this way (3 processes x 10 rounds each, loaded machine).
 */
export function decodeCandidateRow(text: string): AnnotatedVariant {
  const v = JSON.parse(text) as unknown[];
  if (!Array.isArray(v) || v.length !== CANDIDATE_FIELDS.length) {
    throw new Error(`stored candidate row: expected ${CANDIDATE_FIELDS.length} fields, got ${Array.isArray(v) ? v.length : typeof v}`);
  }
  const row = {
    chrom: v[AT.chrom], pos: v[AT.pos], ref: v[AT.ref], alt: v[AT.alt], input: v[AT.input], genotype: v[AT.genotype],
    filter: v[AT.filter], qual: real(v[AT.qual]), gene: v[AT.gene], hgncId: v[AT.hgncId], transcript: v[AT.transcript],
    isManeSelect: v[AT.isManeSelect], consequences: v[AT.consequences], details: v[AT.details], impact: v[AT.impact],
    hgvsC: v[AT.hgvsC], hgvsP: v[AT.hgvsP], af: real(v[AT.af]), afSource: v[AT.afSource], clinvar: v[AT.clinvar],
    acmgClass: v[AT.acmgClass], acmgPoints: v[AT.acmgPoints], acmgCriteria: v[AT.acmgCriteria], score: real(v[AT.score]),
    genotypes: v[AT.genotypes],
  } satisfies Record<(typeof CANDIDATE_FIELDS)[number], unknown>;
  return fromVariantRow(row as unknown as StoredVariantRow);
}

/** What a candidate's rank row copies of its stored variant: the list's filter columns. */
export type RankedFilterColumns = Omit<RunVariantRankRow, 'runId' | 'rank' | 'id'>;

/** The columns of run_variants that RankedFilterColumns copies, by key. */
export const RANKED_FILTER_COLUMNS = {
  gene: runVariants.gene,
  consequence: runVariants.consequence,
  af: runVariants.af,
  clinvarSignificance: runVariants.clinvarSignificance,
  acmgClass: runVariants.acmgClass,
  zygosity: runVariants.zygosity,
  inheritance: runVariants.inheritance,
} as const satisfies Record<keyof RankedFilterColumns, Column>;

/** RankedFilterColumns of a stored row (toVariantRow's or as read). */
export function rankedFilterColumns(v: Pick<StoredVariantRow, keyof RankedFilterColumns> | Pick<typeof runVariants.$inferInsert, keyof RankedFilterColumns>): RankedFilterColumns {
  return {
    gene: v.gene ?? null,
    consequence: v.consequence ?? null,
    af: v.af ?? null,
    clinvarSignificance: v.clinvarSignificance ?? null,
    acmgClass: v.acmgClass,
    zygosity: v.zygosity,
    inheritance: v.inheritance ?? [],
  };
}

/**
 * The rank rows of a run's candidates (ids[i] has ranks[i] and filter columns columns[i]), in
 * rank order: COPY writes them so, and the run's rows are read in rank order.
 */
export function rankRows(runId: string, ids: readonly number[], ranks: readonly number[], columns: readonly RankedFilterColumns[]): RunVariantRankRow[] {
  if (ranks.length !== ids.length || columns.length !== ids.length) {
    throw new Error(`rank rows: ${ids.length} ids, ${ranks.length} ranks and ${columns.length} filter columns do not align`);
  }
  const rows = ids.map((id, i) => ({ runId, rank: ranks[i]!, id, ...columns[i]! }));
  return rows.sort((a, b) => a.rank - b.rank);
}

/** A run's candidates as stored (CaseAnalysisStore.loadCandidateRows), aligned by index. */
export interface StoredCandidates {
  ids: number[];
  genes: (string | null)[];
  scores: number[];
  /** Each candidate's filter columns, which its rank row copies. */
  filterColumns: RankedFilterColumns[];
  /** Each candidate's row as JSON text (CANDIDATE_ROW_TEXT). */
  rows: string[];
}
