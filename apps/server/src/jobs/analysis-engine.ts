/**
 * The analysis engine of the jobs: the small interface the jobs need from the genomics engine
 * (annotate a VCF, pick the ranking's candidates, rank, gene facts) and its production
 * implementation over @rarelens/engine and the KB in RARELENS_KB: the VCF reader (assembly
 * detection, GRCh37 -> GRCh38 liftover with the KB's chain), the annotator (consequence, HGVS,
 * ClinVar, frequencies, ACMG) and the ranking. Loaded once per process, on the first job.
 * Keeping the jobs against the interface lets the job plumbing (queue, idempotent result
 * writes, status, recovery) be tested with a fixture engine (jobs/testing/fixture-engine.ts).
 */
import { createRequire } from 'node:module';
import {
  applyFamilyAcmg,
  checkFamily,
  createAnnotator,
  createFamilyContext,
  declaredAfKeys,
  familyGenotypesOf,
  FamilyCheckError,
  hasRelatives,
  inheritanceTags,
  isCandidate,
  liftFailuresByReason,
  loadChain,
  phenotypeSourceOf,
  preferredDiseaseId,
  prepareVariants,
  rank,
  readVcf,
  recessiveGenePredicate,
  TrioQcAccumulator,
  type AcmgOptions,
  type AnnotatedVariant,
  type Assembly,
  type DiseaseRanking,
  type Family,
  type GenePhenotypeSource,
  type GeneRecord,
  type GenomeKb,
  type HpoKb,
  type InheritanceTag,
  type KbManifest,
  type PedigreeMember,
  type ReadVcfOptions,
  type TrioQc,
  type VcfHeader,
  type VcfVariant,
} from '@rarelens/engine';
import type { KnowledgeBase } from '../kb/knowledge-base.ts';
import { decodeCandidateRow } from '../db/run-variants.ts';
import { openWithProgress } from './progress.stream.ts';

export interface TermRefValue {
  id: string;
  label: string;
}

export interface AnnotateInput {
  /** Local path of the uploaded VCF (plain, gzip or bgzip). */
  path: string;
  /** The file name the user uploaded, used in error messages. */
  displayName: string;
  /** Assembly given at upload; null = detect from the header (fail if it cannot be). */
  assembly: Assembly | null;
  signal: AbortSignal;
  /** Fraction of the input read so far, in [0, 1]. */
  onProgress: (fraction: number) => void;
  /** The pedigree checked at upload (family case): every member's genotype is read. */
  pedigree?: { source: string; proband: string; members: PedigreeMember[] } | null;
  /** The VCF sample to analyse (default: the pedigree's proband, else the first sample). */
  sample?: string | null;
  /**
   * The job stores COPY text (RunLoad.takesEncoded): the stream may give `encoded` batches
   * instead of `variants`.
   */
  encodeStored?: boolean;
}

/** Annotated variants as the job stores them (AnnotationStream.encoded). */
export interface EncodedBatch {
  /** Variants in the batch, candidates included. */
  count: number;
  /** The ranking's candidates (isRankCandidate), with their 1-based position in the stream. */
  candidates: { id: number; variant: AnnotatedVariant }[];
  /** The other variants as stored rows, COPY text without the run id (encodeStoredVariants). */
  rows: string;
}

/** The family of a run as stored with it (the engine's checked family and its trio QC). */
export interface RunFamily {
  family: Family;
  qc: TrioQc[];
}

/** What the family analysis says of one candidate variant. */
export interface VariantInheritanceValue {
  tags: InheritanceTag[];
  /** Compound-heterozygous partners (other candidates, as passed to `finish`). */
  partners: AnnotatedVariant[];
  rules: string[];
}

/** A family analysis over a streamed run: trio QC on every allele, then the candidates' evidence. */
export interface FamilyRun {
  /** Counts one annotated allele (with its family genotypes) into the trio QC. */
  add(v: AnnotatedVariant): void;
  /**
   * After the last allele: the trio QC, the candidates with the family ACMG criteria added
   * (PS2/PM6/PM3; same order) and each candidate's inheritance patterns.
   */
  finish(candidates: readonly AnnotatedVariant[]): FamilyFinish | Promise<FamilyFinish>;
}

/** The end of a family run: trio QC, candidates with family ACMG criteria, inheritance per candidate. */
export interface FamilyFinish {
  family: RunFamily;
  candidates: AnnotatedVariant[];
  inheritance: (v: AnnotatedVariant) => VariantInheritanceValue | null;
}

export interface AnnotationStream {
  /** Assembly of the input file (as given, or detected). */
  inputAssembly: Assembly;
  /** Annotated variants in input order (GRCh38; inputs on GRCh37 are lifted over). */
  variants: AsyncIterable<AnnotatedVariant>;
  /**
   * Asked for with AnnotateInput.encodeStored, the same variants in batches with the stored rows
   * encoded where they were annotated (the analysis thread: they cross as one string, not as
   * objects); then `variants` is not read, and the engine counts a family's QC itself (its
   * FamilyRun.add is not called). Absent: read `variants`.
   */
  encoded?: AsyncIterable<EncodedBatch>;
  /** Pipeline counts known at the end (records read, lifted, failed to lift, ...). */
  counts(): Record<string, number>;
  /** The pedigree checked against the VCF's samples (family case), else null. */
  family: Family | null;
}

export interface RankingPatient {
  hpoTerms: string[];
  excludedTerms: string[];
  sex: 'male' | 'female';
}

export interface RankedDiseaseValue {
  id: string;
  name: string;
  mergedIds: string[];
  score: number;
  probability: number;
  inheritance: TermRefValue[];
  onset: TermRefValue[];
  genes: string[];
  matchedTerms: {
    id: string;
    label: string;
    match: string;
    diseaseTermId: string | null;
    diseaseTermLabel: string | null;
  }[];
  explanation: string[];
  /** Its HPO annotations, or for a disease known only by name its series' phenotype or its title's features. */
  phenotypeSource: DiseaseRanking['phenotypeSource'];
}

export interface RankedGeneValue {
  symbol: string;
  hgncId: string | null;
  score: number;
  phenotypeScore: number;
  variantScore: number;
  /** Calibrated post-test probability (engine GENE_CALIBRATION). */
  probability: number;
  /** Modes of inheritance (labels) compatible with the case for this gene. */
  inheritance: string[];
  explanation: string[];
  /** Where its phenotype evidence comes from (engine phenotypeSourceOf). */
  phenotypeSource: GenePhenotypeSource;
  diseases: TermRefValue[];
}

export interface RankingValue {
  diseases: RankedDiseaseValue[];
  genes: RankedGeneValue[];
  /**
   * The engine's rank of a candidate variant (the same object passed to `rank`), or null when
   * it did not rank it; candidates without one are ordered after, by gene rank then score.
   */
  variantRank?: (v: AnnotatedVariant) => number | null;
}

export interface GeneFacts {
  hgncId: string | null;
  name: string | null;
  chromosome: string | null;
  locusType: string | null;
  description: string | null;
  synonyms: string[];
  /** Age-of-onset labels of the gene's diseases. */
  onset: string[];
}

export interface AnalysisEngine {
  readonly softwareVersion: string;
  /** e.g. { hpo, hpoAnnotations, clinvar, transcripts, genes, assembly }. */
  readonly kbVersions: Record<string, string>;
  annotate(input: AnnotateInput): Promise<AnnotationStream>;
  /** Variants the ranking looks at (kept in memory during a run; flagged for re-ranking). */
  isRankCandidate(v: AnnotatedVariant): boolean;
  /** Starts the family analysis of a run whose stream has a family. */
  familyRun(family: Family): FamilyRun;
  /** Ranks the candidates; with the run's family, genotype fits use the relatives' genotypes. */
  rank(
    candidates: AnnotatedVariant[],
    patient: RankingPatient,
    family?: RunFamily | null,
  ): RankingValue | Promise<RankingValue>;
  /**
   * rank() of candidates given as stored-row texts (db/run-variants.ts CANDIDATE_ROW_TEXT), decoded
   * where the ranking runs (re-ranking: strings cross to the analysis thread, not 13,000 objects);
   * variantRanks[i] is the engine's rank of rows[i].
   */
  rankStored?(rows: string[], patient: RankingPatient, family?: RunFamily | null): Promise<StoredRanking>;
  geneFacts(symbol: string): GeneFacts | null;
}

/** AnalysisEngine.rankStored's ranking: the engine's rank of each row sent, or null. */
export interface StoredRanking extends Omit<RankingValue, 'variantRank'> {
  variantRanks: (number | null)[];
}

/** rankStored over rank(): decodes the rows and ranks them. */
export async function rankStoredRows(
  engine: Pick<AnalysisEngine, 'rank'>,
  rows: string[],
  patient: RankingPatient,
  family: RunFamily | null,
): Promise<StoredRanking> {
  const candidates = rows.map(decodeCandidateRow);
  const ranking = await engine.rank(candidates, patient, family);
  return { diseases: ranking.diseases, genes: ranking.genes, variantRanks: candidates.map((v) => ranking.variantRank?.(v) ?? null) };
}

/** Input problems no retry can fix (bad VCF line, unknown assembly, unsupported input). */
export class AnalysisInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnalysisInputError';
  }
}

const serverVersion = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

/** The header declares population frequencies (INFO keys or CSQ/ANN frequency fields). */
function hasPopulationData(h: VcfHeader): boolean {
  return (
    declaredAfKeys(h).length > 0 ||
    h.annotations.some((l) => l.fields.some((f) => /^(gnomAD|gnomADe|gnomADg|MAX_AF|ExAC)(_|$)/.test(f) || f === 'AF'))
  );
}

/** KB versions recorded with every run: each source's stated release, plus the HPO pair. */
export function kbVersionsOf(manifest: KbManifest, hpo: HpoKb | null): Record<string, string> {
  const out: Record<string, string> = { assembly: 'GRCh38', kbBuiltAt: manifest.builtAt, kbSoftware: manifest.softwareVersion };
  for (const s of manifest.sources) out[s.name] = s.version;
  if (hpo) {
    out.hpo = hpo.versions.hpo;
    out.hpoAnnotations = hpo.versions.annotations;
  }
  return out;
}

/**
 * The ACMG setting recorded with every run beside the KB versions (the report and the variant
 * screens state it): 'off' = ClinVar shown beside the class, not counted; 'on' = PP5/BP6 applied.
 */
export const ACMG_CLINVAR_CRITERIA_KEY = 'acmgClinvarCriteria';

export function createEngineAnalysis(kb: KnowledgeBase, acmg: AcmgOptions = {}): () => Promise<AnalysisEngine> {
  let loading: Promise<AnalysisEngine> | null = null;
  return () => {
    loading ??= load(kb, acmg).catch((e: unknown) => {
      loading = null;
      throw e;
    });
    return loading;
  };
}

async function load(kb: KnowledgeBase, acmg: AcmgOptions): Promise<AnalysisEngine> {
  if (!kb.isBuilt()) {
    throw new AnalysisInputError(
      `No knowledge base at ${kb.dir}: the server cannot annotate variants until one is built (npx rarelens kb build).`,
    );
  }
  const [manifest, genome, hpo] = await Promise.all([kb.manifest(), kb.genome(), kb.hpo()]);
  if (!hpo) throw new AnalysisInputError(`The knowledge base at ${kb.dir} has no HPO data; rebuild it with npx rarelens kb build.`);
  const chain = genome.chainPath ? await loadChain(genome.chainPath) : undefined;
  return createEngineFromKb({ manifest, genome, hpo, chain, acmg });
}

export function createEngineFromKb(deps: {
  manifest: KbManifest;
  genome: GenomeKb;
  hpo: HpoKb;
  chain: Awaited<ReturnType<typeof loadChain>> | undefined;
  /** ACMG options (ClinVar-backed PP5/BP6: off unless given). */
  acmg?: AcmgOptions;
}): AnalysisEngine {
  const { genome, hpo, chain } = deps;
  const acmg: AcmgOptions = { clinvarCriteria: deps.acmg?.clinvarCriteria ?? false };
  return {
    softwareVersion: `@rarelens/server@${serverVersion}`,
    kbVersions: { ...kbVersionsOf(deps.manifest, hpo), [ACMG_CLINVAR_CRITERIA_KEY]: acmg.clinvarCriteria ? 'on' : 'off' },
    async annotate(input) {
      const { reader, family, withFamily } = await openCaseVcf(input, { liftover: chain });
      if (reader.assembly === 'GRCh37' && !chain) {
        throw new AnalysisInputError(
          `${input.displayName} is on GRCh37, but the knowledge base has no GRCh37 -> GRCh38 liftover chain; rebuild the KB with the liftover sources.`,
        );
      }
      const annotator = createAnnotator(genome, {
        populationDataInInput: hasPopulationData(reader.header),
        infoKeys: new Set(reader.header.info.keys()),
        acmg,
      });
      async function* variants(): AsyncGenerator<AnnotatedVariant> {
        try {
          for await (const v of reader) yield withFamily(annotator.annotate(v), v);
        } finally {
          annotator.close();
        }
      }
      return {
        inputAssembly: reader.assembly,
        family,
        variants: variants(),
        counts: () => {
          const s = reader.summary;
          return {
            records: s.records,
            alleles: s.alleles,
            skippedReferenceBlocks: s.skippedRefBlocks,
            skippedNoAlt: s.skippedNoAlt,
            skippedStar: s.skippedStar,
            skippedNonRef: s.skippedNonRef,
            structural: s.structural,
            liftFailed: s.liftFailed.length,
            // Each reason apart ('liftFailed.unmapped': hg19 chrM bases in 1-base chain gaps among them), shown on the case screens.
            ...Object.fromEntries(Object.entries(liftFailuresByReason(s.liftFailed)).map(([reason, n]) => [`liftFailed.${reason}`, n])),
            refMismatches: s.refMismatchCount,
          };
        },
      };
    },
    isRankCandidate: (v) => isCandidate(v),
    familyRun: (family) => createFamilyRun(family, hpo),
    rank: (candidates, patient, family) => rankWithEngine(hpo, candidates, patient, family),
    rankStored: (rows, patient, family) =>
      rankStoredRows({ rank: (c, p, f) => rankWithEngine(hpo, c, p, f) }, rows, patient, family ?? null),
    geneFacts(symbol) {
      const g = genome.genes.bySymbolExact(symbol) ?? genome.genes.bySymbolOrAlias(symbol);
      if (!g) return null;
      const onset = new Set<string>();
      for (const d of hpo.genes.get(g.symbol)?.diseases ?? []) {
        for (const o of hpo.diseaseById.get(d.id)?.onset ?? []) onset.add(hpo.ontology.label(o) ?? o);
      }
      return {
        hgncId: g.hgncId,
        name: g.name,
        chromosome: g.span38?.chrom ?? (g.location.match(/^(\d+|X|Y|MT?)/)?.[1] ?? null),
        locusType: g.locusType,
        description: describeGene(g),
        synonyms: [...g.aliases, ...g.previousSymbols],
        onset: [...onset].sort(),
      };
    },
  };
}

/** Ranked genes and diseases kept per case (the lists the screens page through). */
const MAX_DISEASES = 200;

/**
 * The engine's genotype-aware ranking (prepareVariants + rank) mapped to what the jobs store.
 * Every gene with candidates and every candidate variant is ranked (no list limit), so the
 * stored variant order is the engine's.
 */
export function rankWithEngine(hpo: HpoKb, candidates: AnnotatedVariant[], patient: RankingPatient, family: RunFamily | null = null): RankingValue {
  const prepared = prepareVariants(candidates);
  const context = family ? createFamilyContext(family.family, family.qc) : null;
  const result = rank(
    prepared,
    hpo,
    { hpoPresent: patient.hpoTerms, hpoExcluded: patient.excludedTerms, sex: patient.sex },
    {
      limit: Math.max(MAX_DISEASES, candidates.length, prepared.genes.size),
      diseaseLimit: MAX_DISEASES,
      family: context && hasRelatives(context) ? context : null,
      // Only the variants' ranks are kept (the gene and disease explanations are stored).
      explainVariants: false,
    },
  );
  const variantRank = new Map<AnnotatedVariant, number>();
  for (const v of result.variants) variantRank.set(v.variant, v.rank);
  return {
    genes: result.genes.map((g) => {
      // Listed under the ids the disease list uses (one entry per Mondo disease, OMIM preferred).
      const best = g.bestDisease === null ? null : preferredDiseaseId(hpo, g.bestDisease);
      const ids = new Set((hpo.genes.get(g.symbol)?.diseases ?? []).map((d) => preferredDiseaseId(hpo, d.id)));
      const diseases = [...ids]
        .map((id) => hpo.diseaseById.get(id))
        .filter((d): d is NonNullable<typeof d> => d !== undefined)
        .map((d) => ({ id: d.id, label: d.name }))
        .sort((a, b) => Number(b.id === best) - Number(a.id === best) || a.id.localeCompare(b.id));
      return {
        symbol: g.symbol,
        hgncId: null,
        score: g.score,
        phenotypeScore: g.evidence.phenotype?.log10Lr ?? 0,
        variantScore: g.evidence.genotype.fit,
        probability: g.postTestProbability,
        // The mode that fits, with how the family's genotypes fit it ("autosomal dominant (de novo)").
        inheritance: [g.evidence.genotype.pattern ? `${g.evidence.genotype.modeLabel} (${g.evidence.genotype.pattern})` : g.evidence.genotype.modeLabel],
        explanation: g.explanation,
        phenotypeSource: phenotypeSourceOf(g),
        diseases,
      };
    }),
    diseases: result.diseases.slice(0, MAX_DISEASES).map((d) => ({
      id: d.id,
      name: d.name,
      mergedIds: d.mergedIds,
      score: d.score,
      probability: d.postTestProbability,
      inheritance: d.inheritance,
      onset: d.onset,
      genes: d.genes,
      matchedTerms: (d.matched ?? []).map((m) => ({
        id: m.term,
        label: m.label,
        match: m.kind,
        diseaseTermId: m.diseaseTerm,
        diseaseTermLabel: m.diseaseTermLabel,
      })),
      explanation: d.explanation ?? [],
      phenotypeSource: d.phenotypeSource,
    })),
    variantRank: (v) => variantRank.get(v) ?? null,
  };
}

/** The uploaded pedigree checked against the VCF's header (the upload checked it too; the file may differ on retry). */
function familyOf(file: string, pedigree: NonNullable<AnnotateInput['pedigree']>, samples: readonly string[]): Family {
  const checked = checkFamily({ source: pedigree.source, members: pedigree.members }, samples, { proband: pedigree.proband });
  if (!checked.family) throw new FamilyCheckError(file, checked.problems);
  return checked.family;
}

/**
 * Opens a run's uploaded VCF (progress reported as it is read; the proband's sample of a family
 * VCF) with its pedigree checked against the header; `withFamily` adds the relatives' genotypes
 * to an annotated variant. Used by every AnalysisEngine (the real one and the test fixture).
 */
export async function openCaseVcf(input: AnnotateInput, options: Pick<ReadVcfOptions, 'liftover'> = {}) {
  const stream = await openWithProgress(input.path, (f) => input.onProgress(f));
  const sample = input.sample ?? input.pedigree?.proband ?? undefined;
  const reader = await readVcf(stream, {
    name: input.displayName,
    signal: input.signal,
    ...options,
    ...(input.assembly ? { assembly: input.assembly } : {}),
    ...(sample ? { sample } : {}),
  });
  const family = input.pedigree ? familyOf(input.displayName, input.pedigree, reader.header.samples) : null;
  const members = family?.members.filter((m) => m.vcfIndex >= 0) ?? [];
  const withFamily = (a: AnnotatedVariant, v: VcfVariant): AnnotatedVariant => {
    if (members.length) a.familyGenotypes = familyGenotypesOf(v, members);
    return a;
  };
  return { reader, family, withFamily };
}

/**
 * The family analysis of a streamed run, the same steps as the engine's analyseFamily (the CLI's
 * and the benchmark's path): trio QC over every allele, PS2/PM6/PM3 on the candidates (PM3 only
 * in genes with a recessive disease when the HPO annotations are given), inheritance tags.
 */
export function createFamilyRun(family: Family, hpo: HpoKb | null): FamilyRun {
  const qcAcc = new TrioQcAccumulator(family);
  return {
    add: (v) => qcAcc.add(v),
    finish(candidates) {
      const qc = qcAcc.result();
      const context = createFamilyContext(family, qc);
      const withAcmg = applyFamilyAcmg(candidates, context, hpo ? { isRecessiveGene: recessiveGenePredicate(hpo) } : {});
      const tags = inheritanceTags(withAcmg, context);
      return {
        family: { family, qc },
        candidates: withAcmg,
        inheritance: (v) => {
          const t = tags.get(v);
          return t ? { tags: [...t.tags], partners: [...t.partners], rules: [...t.rules] } : null;
        },
      };
    },
  };
}

function describeGene(g: GeneRecord): string {
  const parts = [`${g.name} (${g.locusType}), cytogenetic location ${g.location}.`];
  if (g.constraint) {
    const c = g.constraint;
    const bits = [c.pLI != null ? `pLI ${c.pLI.toFixed(2)}` : null, c.loeuf != null ? `LOEUF ${c.loeuf.toFixed(2)}` : null, c.misZ != null ? `missense Z ${c.misZ.toFixed(2)}` : null].filter(
      (x): x is string => x !== null,
    );
    if (bits.length) parts.push(`Constraint (${c.source}): ${bits.join(', ')}.`);
  }
  if (g.clinvar?.plpAlleles != null) parts.push(`ClinVar: ${g.clinvar.plpAlleles} pathogenic/likely pathogenic alleles reported.`);
  return parts.join(' ');
}
