/**
 * Per-variant annotation against a loaded KB: transcripts (MANE Select first), SO consequences,
 * HGVS, ClinVar (exact allele, else pathogenic missense at the same codon), population frequency,
 * gene constraint, ACMG/AMP criteria and the pathogenicity score.
 *
 * Input variants are on GRCh38 (the VCF reader lifts GRCh37 input). `annotate` is synchronous and
 * allocation-light: one interval query, one effect per nearby transcript, a few binary searches.
 */
import { acmgReadsGene, classifyAcmg, type AcmgEvidence, type AcmgOptions, type AcmgResult, type PredictorScores, type SameCodonPathogenic } from '../acmg/classify.ts';
import { classifySignificance, type ClinvarAllele } from '../clinvar/clinvar.ts';
import type { GeneRecord } from '../genes/gene.ts';
import type { GenomeKb } from '../kb/genome-kb.ts';
import { pathogenicityScore } from '../score/pathogenicity.ts';
import type { TranscriptModel } from '../transcripts/model.ts';
import type { AnnotatedVariant, ClinvarHit, Genotype, Impact, VariantKey } from '../types.ts';
import type { PopulationFrequency, TranscriptAnnotation } from '../vcf/annotations.ts';
import type { InfoValue } from '../vcf/variant.ts';
import { frameshiftHgvsP, hgvsCOf, shift3Prime, structuralEffect, transcriptEffect, trimAllele, UPSTREAM_DISTANCE, type AlleleSpan, type AminoAcidHint, type BaseLookup, type TranscriptEffect } from './consequence.ts';
import { SyncFasta } from './reference.ts';
import { impactOf, SO_BIT, soRank, sortTerms, termsOfMask } from './so.ts';

/** What the annotator needs from a variant; the VCF reader's VcfVariant satisfies it. */
export interface VcfVariantLike extends VariantKey {
  input?: VariantKey & { line: number };
  genotype?: Genotype;
  filter?: string[];
  qual?: number | null;
  isStructural?: boolean;
  annotations?(): TranscriptAnnotation[];
  populationFrequency?(): PopulationFrequency | null;
  info?(key: string): InfoValue | undefined;
}

export interface AnnotatorOptions {
  /** Plain GRCh38 FASTA with .fai (default: the KB's recorded reference, if any). */
  fasta?: string;
  /**
   * The input carries population frequencies (its header declares gnomAD/ExAC/1000G INFO keys or
   * CSQ frequency fields): a variant without a value is then absent from those data (PM2).
   */
  populationDataInInput?: boolean;
  /** INFO keys the input header declares; when given, predictor INFO keys absent from it are not probed (speed). */
  infoKeys?: ReadonlySet<string>;
  /** ACMG options (ClinVar-backed PP5/BP6; off by default). */
  acmg?: AcmgOptions;
}

export interface Annotator {
  annotate(v: VcfVariantLike): AnnotatedVariant;
  /** Where reference bases come from: 'fasta' or 'kb-known-bases' (ClinVar/InterVar REF alleles only). */
  readonly sequenceSource: 'fasta' | 'kb-known-bases';
  close(): void;
}

const STRUCTURAL_TERMS = termsOfMask(SO_BIT.structural_variant);
const GENE_TERMS = termsOfMask(SO_BIT.gene_variant);
const INTERGENIC_TERMS = termsOfMask(SO_BIT.intergenic_variant);
/** Outside a CDS there is no codon to look up (read-only: classifyAcmg only reads it). */
const NO_SAME_CODON: SameCodonPathogenic[] = Object.freeze([]) as unknown as SameCodonPathogenic[];
const NO_EFFECTS: readonly TranscriptEffect[] = Object.freeze([]);
const EMPTY_GENOTYPE: Genotype = { gt: '.', zygosity: 'unknown' };

/** ACMG results and scores kept per annotator for evidence-free variants (bounds the memo on odd inputs). */
const MAX_PLAIN_RESULTS = 50_000;

/** A memoised ACMG result and score, with the population-data flags it was computed for. */
interface PlainResult {
  acmg: AcmgResult;
  score: number;
  afSource: string | null;
  pda: boolean;
}

/** An ACMG result shared by many variants: frozen through, so a consumer cannot change it for all of them. */
function freezeAcmg(r: AcmgResult): AcmgResult {
  for (const c of r.criteria) Object.freeze(c);
  for (const n of r.notAssessed) Object.freeze(n);
  Object.freeze(r.criteria);
  Object.freeze(r.notAssessed);
  return Object.freeze(r);
}

/**
 * `s` in upper case: `s` itself when it has no lower-case letter (nearly every allele), without
 * the new string String.prototype.toUpperCase makes.
 */
function upperBases(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 97 && c <= 122) return s.toUpperCase();
  }
  return s;
}

/** Effect ordering: most severe first; ties -> MANE Select, Plus Clinical, coding, longer CDS. */
function compareEffects(a: TranscriptEffect, b: TranscriptEffect): number {
  const ra = soRank(a.consequences[0] ?? 'intergenic_variant');
  const rb = soRank(b.consequences[0] ?? 'intergenic_variant');
  if (ra !== rb) return ra - rb;
  const ma = a.model.tx.mane === 'select' ? 0 : a.model.tx.mane === 'plus_clinical' ? 1 : 2;
  const mb = b.model.tx.mane === 'select' ? 0 : b.model.tx.mane === 'plus_clinical' ? 1 : 2;
  if (ma !== mb) return ma - mb;
  return b.model.cdsLength - a.model.cdsLength;
}

/**
 * Picks the reported transcript: per gene the MANE Select effect (else that gene's most severe),
 * then across genes the most severe, MANE first on ties.
 */
export function pickEffect(effects: TranscriptEffect[]): TranscriptEffect | null {
  return perGeneEffects(effects)[0] ?? null;
}

/** One representative effect per gene (MANE Select, else the gene's most severe), most severe gene first. */
export function perGeneEffects(effects: TranscriptEffect[]): TranscriptEffect[] {
  if (effects.length < 2) return effects.slice();
  const perGene = new Map<string, TranscriptEffect>();
  for (const e of effects) {
    const g = e.model.tx.gene ?? e.model.tx.id;
    const cur = perGene.get(g);
    if (!cur) perGene.set(g, e);
    else {
      const eMane = e.model.tx.mane === 'select';
      const cMane = cur.model.tx.mane === 'select';
      if ((eMane && !cMane) || (eMane === cMane && compareEffects(e, cur) < 0)) perGene.set(g, e);
    }
  }
  return [...perGene.values()].sort(compareEffects);
}

function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v !== '' && v !== '.') {
    // dbNSFP-style 'x,y,z' or 'x&y' lists: take the maximum.
    const parts = v.split(/[,&|]/).map(Number).filter((x) => Number.isFinite(x));
    return parts.length ? Math.max(...parts) : null;
  }
  if (Array.isArray(v)) {
    const xs = v.map((x) => (typeof x === 'number' ? x : Number(x))).filter((x) => Number.isFinite(x));
    return xs.length ? Math.max(...xs) : null;
  }
  return null;
}

const PREDICTOR_KEYS: Record<keyof PredictorScores, string[]> = {
  revel: ['REVEL', 'REVEL_score', 'REVEL_rankscore_raw', 'dbNSFP_REVEL_score'],
  caddPhred: ['CADD_PHRED', 'CADD_phred', 'CADD', 'dbNSFP_CADD_phred'],
  alphaMissense: ['am_pathogenicity', 'AlphaMissense', 'AlphaMissense_score', 'dbNSFP_AlphaMissense_score'],
  spliceAi: ['SpliceAI_pred_DS_AG', 'SpliceAI_pred_DS_AL', 'SpliceAI_pred_DS_DG', 'SpliceAI_pred_DS_DL', 'SpliceAI_DS_max'],
};

const ALL_PREDICTOR_KEYS = [...Object.values(PREDICTOR_KEYS).flat(), 'SpliceAI'];

/**
 * Whether an annotator given these header INFO keys (AnnotatorOptions.infoKeys; undefined: not
 * known) reads predictor scores from a variant's INFO.
 */
export function readsPredictorInfo(infoKeys: ReadonlySet<string> | undefined): boolean {
  return !infoKeys || ALL_PREDICTOR_KEYS.some((k) => infoKeys.has(k));
}
const NO_PREDICTORS: PredictorScores = Object.freeze({});

function predictorsOf(v: VcfVariantLike, entry: TranscriptAnnotation | null, infoKeys: ReadonlySet<string> | undefined, probeInfo: boolean): PredictorScores {
  // Fast path: no CSQ entry and the header declares none of the predictor INFO keys.
  if (!entry && !probeInfo) return NO_PREDICTORS;
  const out: PredictorScores = {};
  for (const [k, keys] of Object.entries(PREDICTOR_KEYS) as [keyof PredictorScores, string[]][]) {
    let best: number | null = null;
    for (const key of keys) {
      const x = num(entry?.fields[key]) ?? (v.info && (!infoKeys || infoKeys.has(key)) ? num(v.info(key)) : null);
      if (x != null) best = best == null ? x : Math.max(best, x);
    }
    if (best != null) out[k] = best;
  }
  // SpliceAI INFO: ALLELE|SYMBOL|DS_AG|DS_AL|DS_DG|DS_DL|...
  if (out.spliceAi == null && v.info && (!infoKeys || infoKeys.has('SpliceAI'))) {
    const raw = v.info('SpliceAI');
    const text = Array.isArray(raw) ? raw.join(',') : typeof raw === 'string' ? raw : null;
    if (text) {
      for (const rec of text.split(',')) {
        const f = rec.split('|');
        if (f.length >= 6 && (f[0] === v.alt || f[0] === '.')) {
          const ds = [f[2], f[3], f[4], f[5]].map(Number).filter((x) => Number.isFinite(x));
          if (ds.length) out.spliceAi = Math.max(out.spliceAi ?? 0, ...ds);
        }
      }
    }
  }
  return out;
}

const AA3: Record<string, string> = {
  Ala: 'A', Arg: 'R', Asn: 'N', Asp: 'D', Cys: 'C', Gln: 'Q', Glu: 'E', Gly: 'G', His: 'H', Ile: 'I',
  Leu: 'L', Lys: 'K', Met: 'M', Phe: 'F', Pro: 'P', Ser: 'S', Thr: 'T', Trp: 'W', Tyr: 'Y', Val: 'V', Ter: '*',
};

/** Amino acids from a CSQ entry (Amino_acids 'R/G', or HGVSp 'p.Arg12Gly'). */
function aminoAcidsOf(e: TranscriptAnnotation): [string, string] | null {
  const aa = e.fields.Amino_acids;
  if (aa && /^[A-Z*]\/[A-Z*]$/.test(aa)) return [aa[0]!, aa[2]!];
  const m = /p\.\(?([A-Z][a-z]{2})\d+([A-Z][a-z]{2})\)?$/.exec(e.hgvsP ?? '');
  if (m && AA3[m[1]!] && AA3[m[2]!]) return [AA3[m[1]!]!, AA3[m[2]!]!];
  return null;
}

/** Chooses the CSQ/ANN entry to report: MANE Select, canonical, then most severe. */
function annotationKey(e: TranscriptAnnotation): [number, number, number] {
  return [e.isManeSelect ? 0 : e.isCanonical ? 1 : 2, soRank(sortTerms(e.consequences)[0] ?? ''), e.biotype === 'protein_coding' ? 0 : 1];
}

function pickAnnotation(entries: TranscriptAnnotation[]): TranscriptAnnotation | null {
  if (entries.length === 0) return null;
  let best: TranscriptAnnotation | null = null;
  for (const e of entries) {
    if (!best) {
      best = e;
      continue;
    }
    const a = annotationKey(e);
    const b = annotationKey(best);
    if (a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2])))) best = e;
  }
  return best;
}

// The look-ups below are functions of their own, not blocks of annotate(): their loop bodies
// run for few records (an indel near a ClinVar record; a codon with a pathogenic missense change),
// often for the first time after annotate() was optimised, and a deoptimisation there threw away
// the whole of annotate()'s optimised code (~7 KB of bytecode, recompiled each time in every
// worker: --trace-deopt at the ClinVar range and same-codon loops); now only these are.

/** The ClinVar record of the same allele written differently (anchor base on the other side, untrimmed multi-allelic split), the most stars first. */
function clinvarSameAllele(kb: GenomeKb, chrom: string, span: AlleleSpan): ClinvarAllele | null {
  let exact: ClinvarAllele | null = null;
  for (const c of kb.clinvar.range(chrom, span.start - 1, span.end + 2)) {
    const o = trimAllele(chrom, c.pos, c.ref, c.alt);
    if (o.start === span.start && o.end === span.end && o.alt === span.alt && (!exact || c.stars > exact.stars)) exact = c;
  }
  return exact;
}

/**
 * Pathogenic missense changes at the codon `codon` of model `m` (ClinVar, InterVar table); none:
 * the shared NO_SAME_CODON (annotate() tests that by identity: the frozen empty list and a list
 * made here have different V8 maps, and reading the length of both deoptimised it).
 */
function sameCodonPathogenic(kb: GenomeKb, v: VcfVariantLike, m: TranscriptModel, codon: number): SameCodonPathogenic[] {
  const out: SameCodonPathogenic[] = [];
  for (let k = 0; k < 3; k++) {
    const g = m.genomicOfCds(codon * 3 - 2 + k);
    if (g == null) continue;
    for (const r of kb.pathogenicMissense.range(v.chrom, g + 1, g + 1)) {
      out.push({ refAa: r.refAa, altAa: r.altAa, pChange: inCodonNumbering(r.pChange, r.refAa, r.altAa, codon), clinvarId: r.clinvarId, sameNucleotide: r.pos === v.pos && r.alt === v.alt && v.ref.length === 1 });
    }
  }
  return out.length > 0 ? out : NO_SAME_CODON;
}

/** The ClinVar hit to show for another pathogenic change at the same codon, if any (null: only this very change is listed). */
function sameCodonHit(sameCodon: SameCodonPathogenic[], altAa: string | null): ClinvarHit | null {
  const other = sameCodon.find((s) => !s.sameNucleotide);
  if (!other) return null;
  // The same amino-acid change (PS1 evidence) is the hit to show when there is one.
  const hit = sameCodon.find((s) => !s.sameNucleotide && altAa != null && s.altAa === altAa) ?? other;
  const sameAa = altAa != null && hit.altAa === altAa;
  return {
    significance: 'Pathogenic',
    stars: 0,
    id: hit.clinvarId,
    idType: 'allele',
    match: sameAa ? 'same_amino_acid' : 'same_codon',
    conditions: [`${hit.pChange} (another change at this codon; review status not in the InterVar table)`],
    reviewStatus: 'not recorded in the InterVar table',
    release: null,
    source: 'intervar',
  };
}

/** Creates an annotator over a loaded KB (the full `Kb` from loadKb, or just its `genome` part). */
export function createAnnotator(kbOrGenome: GenomeKb | { genome: GenomeKb }, opts: AnnotatorOptions = {}): Annotator {
  const kb: GenomeKb = 'genome' in kbOrGenome ? kbOrGenome.genome : kbOrGenome;
  const fastaPath = opts.fasta ?? kb.referenceFasta ?? null;
  const fasta = fastaPath ? new SyncFasta(fastaPath) : null;
  const base: BaseLookup = fasta ? (c, p) => fasta.base(c, p) : (c, p) => kb.refBases.base(c, p);
  const scratch: TranscriptModel[] = [];
  const acmgOptions: AcmgOptions = { clinvarCriteria: opts.acmg?.clinvarCriteria ?? false };
  const scratchEvidence: AcmgEvidence = {
    consequences: [],
    gene: null,
    nmdEscape: null,
    cdsFractionAfter: null,
    spliceSkip: null,
    refAa: null,
    altAa: null,
    af: null,
    afSource: null,
    populationDataAvailable: false,
    sameCodon: NO_SAME_CODON,
    nearbyPathogenicMissense: null,
    inRepeat: null,
    predictors: NO_PREDICTORS,
    clinvar: null,
  };
  // Its number-or-null fields given an integer, a fraction and null once here, before any code is
  // optimised: V8 tracks each field's representation, and one that first held only null (or only
  // fractions) and later received an integer deoptimised annotate() and had it recompiled, per
  // isolate (--trace-deopt: reason "Smi" at the evidence stores).
  for (const v of [0, 0.5, null]) {
    scratchEvidence.cdsFractionAfter = v;
    scratchEvidence.af = v;
    scratchEvidence.nearbyPathogenicMissense = v;
  }
  // Gene symbol -> record (the KB lookup upper-cases and may consult aliases; a genome hits a few thousand genes).
  const geneCache = new Map<string, GeneRecord | null>();
  const geneOf = (symbol: string): GeneRecord | null => {
    let r = geneCache.get(symbol);
    if (r === undefined) {
      r = kb.genes.bySymbolOrAlias(symbol) ?? null;
      geneCache.set(symbol, r);
    }
    return r;
  };
  // ACMG result and score of a variant whose evidence is only its consequence list, gene and the
  // population-data flags (no ClinVar record, frequency, predictor, codon, repeat, NMD or splice
  // evidence; most of a genome: intergenic and intronic): a pure function of those, computed once.
  // Keyed by the consequence list's identity (the shared frozen lists of termsOfMask), then the gene,
  // or null when classifyAcmg does not read the gene for that list (acmgReadsGene: neither null nor
  // missense; the score never reads it): one result for every gene's intronic variants, not one per gene.
  const plainResults = new Map<readonly string[], Map<GeneRecord | null, PlainResult[]>>();
  let plainCount = 0;
  // The memoised result the last evidence-free variant used, with its keys (checked before the maps).
  let lastPlain: { consequences: readonly string[]; gene: GeneRecord | null; result: PlainResult } | null = null;
  const infoKeys = opts.infoKeys;
  const probeInfo = readsPredictorInfo(infoKeys);
  // Reference amino acid of a codon from the ClinVar pathogenic-missense table (any of its positions).
  const aaHint: AminoAcidHint = (chrom, positions) => {
    for (const g of positions) {
      const aa = kb.pathogenicMissense.refAaAt(chrom, g + 1);
      if (aa) return aa;
    }
    return null;
  };

  function annotate(v: VcfVariantLike): AnnotatedVariant {
    const chrom = v.chrom;
    const entries = v.annotations ? v.annotations() : [];
    const entry = pickAnnotation(entries);
    const structural = v.isStructural ?? (v.alt.startsWith('<') || v.alt.includes('[') || v.alt.includes(']'));

    // Transcript effects from our own models.
    let effect: TranscriptEffect | null = null;
    let others: readonly TranscriptEffect[] = NO_EFFECTS;
    // The trimmed allele (pure function of the variant): computed once, shared by every step below.
    const span: AlleleSpan | null = structural ? null : trimAllele(chrom, v.pos, upperBases(v.ref), upperBases(v.alt));
    if (span !== null) {
      const models = kb.transcripts.overlapping(chrom, span.start, Math.max(span.end, span.start + 1), UPSTREAM_DISTANCE, scratch);
      if (models.length === 1) {
        // One nearby transcript (the common case): no per-gene grouping needed.
        const m = models[0]!;
        effect = transcriptEffect(m, span, base, m.tx.mane === 'select' ? aaHint : null);
      } else if (models.length > 1) {
        const effects: TranscriptEffect[] = [];
        for (const m of models) {
          const e = transcriptEffect(m, span, base, m.tx.mane === 'select' ? aaHint : null);
          if (e) effects.push(e);
        }
        const ranked = perGeneEffects(effects);
        effect = ranked[0] ?? null;
        if (ranked.length > 1) others = ranked.slice(1);
      }
    } else {
      // Symbolic SV: [pos, END) (or SVLEN); breakends only touch their own position.
      const svType = (typeof v.info?.('SVTYPE') === 'string' ? (v.info('SVTYPE') as string) : null) ?? (v.alt.startsWith('<') ? v.alt.slice(1, -1) : 'BND');
      const end = num(v.info?.('END')) ?? v.pos + Math.abs(num(v.info?.('SVLEN')) ?? 0);
      const models = kb.transcripts.overlapping(chrom, v.pos - 1, Math.max(end, v.pos), 0, scratch);
      const effects: TranscriptEffect[] = [];
      for (const m of models) {
        const terms = structuralEffect(m, svType, v.pos - 1, Math.max(end, v.pos));
        if (terms.length) effects.push({ model: m, consequences: terms, hgvsC: null, hgvsP: null, codon: null, cdsPos: null, refAa: null, altAa: null, nmdEscape: null, cdsFractionAfter: null, distance: null, spliceSkip: null, codingOutcome: null });
      }
      const ranked = perGeneEffects(effects);
      effect = ranked[0] ?? null;
      others = ranked.slice(1);
    }

    // Inside a gene that has no transcript model (only its MANE span): attribute it to that gene.
    let spanGene: string | null = null;
    const c0 = effect?.consequences[0];
    if (!structural && (!effect || c0 === 'upstream_gene_variant' || c0 === 'downstream_gene_variant')) {
      spanGene = kb.geneSpans.first(chrom, v.pos);
      if (spanGene) effect = null;
    }

    let gene: string | null = effect?.model.tx.gene ?? spanGene;
    let transcript: string | null = effect?.model.tx.id ?? null;
    // Shared frozen lists (like every transcript effect's) rather than a new array per variant.
    let consequences: string[] = effect ? effect.consequences : structural ? STRUCTURAL_TERMS : spanGene ? GENE_TERMS : INTERGENIC_TERMS;
    let hgvsC: string | null = null;
    if (effect && span !== null) {
      // HGVS 3' rule: only with a FASTA (the KB's sparse known bases could stop a shift half-way).
      const shifted = fasta ? shift3Prime(span, effect.model.tx.strand, base) : span;
      hgvsC = hgvsCOf(effect.model, shifted, base);
      // Frameshift protein change: needs the transcript sequence through the new stop (FASTA only).
      if (fasta && effect.consequences.includes('frameshift_variant')) effect.hgvsP = frameshiftHgvsP(effect.model, shifted, base);
    }
    let hgvsP = effect?.hgvsP ?? null;
    let refAa = effect?.refAa ?? null;
    let altAa = effect?.altAa ?? null;
    let isMane = effect?.model.tx.mane === 'select';
    // A CSQ/ANN annotation made with the reference sequence overrides our sequence-free calls.
    if (entry && entry.consequences.length) {
      consequences = sortTerms(entry.consequences);
      gene = entry.gene ?? gene;
      transcript = entry.transcript ?? transcript;
      // Prefer VEP's full HGVSc (versioned transcript prefix) when it has one.
      const fullC = entry.fields.HGVSc;
      hgvsC = fullC?.includes(':') ? fullC : entry.hgvsC ? (entry.transcript ? `${entry.transcript}:${entry.hgvsC}` : entry.hgvsC) : hgvsC;
      hgvsP = entry.hgvsP ?? hgvsP;
      const aa = aminoAcidsOf(entry);
      if (aa) [refAa, altAa] = aa;
      isMane = entry.isManeSelect || (isMane && effect?.model.tx.gene === entry.gene);
    }
    // Outcome probabilities of an unresolved codon change (not when a CSQ/ANN annotation replaced our call).
    const codingOutcome = effect?.codingOutcome && consequences === effect.consequences ? effect.codingOutcome : null;
    const geneRec: GeneRecord | null = gene ? geneOf(gene) : null;
    if (geneRec) gene = geneRec.symbol;
    const impact: Impact = (entry?.impact && entry.consequences.length ? entry.impact : impactOf(consequences[0] ?? 'intergenic_variant'));

    // ClinVar: exact allele, else pathogenic missense at the same codon.
    let exact = kb.clinvar.exact(chrom, v.pos, v.ref, v.alt);
    if (!exact && span !== null && (v.ref.length > 1 || v.alt.length > 1)) exact = clinvarSameAllele(kb, chrom, span);
    let sameCodon: SameCodonPathogenic[] = NO_SAME_CODON;
    let nearby: number | null = null;
    if (!structural && effect?.codon != null && effect.model.isCoding) {
      sameCodon = sameCodonPathogenic(kb, v, effect.model, effect.codon);
      const own = kb.pathogenicMissense.countPositions(chrom, v.pos, v.pos);
      nearby = kb.pathogenicMissense.countPositions(chrom, v.pos - 25, v.pos + 25) - own;
    }
    let clinvar: ClinvarHit | null = null;
    if (exact) {
      clinvar = {
        significance: exact.significance.replace(/_/g, ' '),
        stars: exact.stars,
        match: 'exact',
        ...(exact.id ? { id: exact.id, idType: 'variation' as const } : {}),
        conditions: exact.conditions,
        reviewStatus: exact.reviewStatus,
        release: kb.clinvar.releaseOf(exact.origin),
        source: exact.origin,
      };
    } else if (sameCodon !== NO_SAME_CODON) {
      clinvar = sameCodonHit(sameCodon, altAa);
    }

    // Population frequency: input annotations, then the KB table, then AFs carried by ClinVar.
    let af: number | null = null;
    let afSource: string | null = null;
    let populationDataAvailable = false;
    const pf = v.populationFrequency ? v.populationFrequency() : null;
    if (pf) {
      af = pf.af;
      afSource = pf.source;
      populationDataAvailable = true;
    } else if (opts.populationDataInInput) {
      populationDataAvailable = true;
      afSource = 'input VCF population annotations';
    }
    if (af == null && kb.frequencies) {
      const x = kb.frequencies.lookup(chrom, v.pos, v.ref, v.alt);
      if (x != null) {
        populationDataAvailable = true;
        afSource = kb.frequencies.source;
        if (x > 0) af = x;
      }
    }
    if (af == null && exact?.af != null) {
      af = exact.af;
      afSource = exact.afSource;
      populationDataAvailable = true;
    }

    // In-frame indel in a tandem repeat (needs bases around the site).
    let inRepeat: boolean | null = null;
    if (consequences.includes('inframe_insertion') || consequences.includes('inframe_deletion')) {
      // (A structural allele can only get here through a CSQ/ANN entry; trim it the same way.)
      const rs = span ?? trimAllele(chrom, v.pos, upperBases(v.ref), upperBases(v.alt));
      const unit = rs.ref.length ? rs.ref : rs.alt;
      if (unit.length) {
        let copies = rs.ref.length ? 1 : 0;
        let known = true;
        for (let p = rs.end; copies < 3; p += unit.length) {
          let seq = '';
          for (let k = 0; k < unit.length; k++) seq += base(chrom, p + k) ?? '?';
          if (seq.includes('?')) {
            known = false;
            break;
          }
          if (seq !== unit) break;
          copies++;
        }
        inRepeat = known ? copies >= 3 : copies >= 3 ? true : null;
      }
    }

    const predictors = predictorsOf(v, entry, opts.infoKeys, probeInfo);
    // Evidence-free variant (see plainResults): the memoised result when there is one.
    const plain =
      !structural && entry === null && exact === null && af === null && codingOutcome === null && predictors === NO_PREDICTORS && sameCodon === NO_SAME_CODON && nearby === null && inRepeat === null &&
      refAa === null && altAa === null && (effect === null || (effect.nmdEscape === null && effect.cdsFractionAfter === null && effect.spliceSkip === null));
    let plainSlot: PlainResult[] | undefined;
    let acmgRes: AcmgResult | null = null;
    let score = 0;
    const memoGene = plain && geneRec !== null && acmgReadsGene(consequences) ? geneRec : null;
    if (plain && lastPlain !== null && lastPlain.consequences === consequences && lastPlain.gene === memoGene && lastPlain.result.afSource === afSource && lastPlain.result.pda === populationDataAvailable) {
      // Sorted input: runs of records in the same gene (or between genes) with the same terms.
      acmgRes = lastPlain.result.acmg;
      score = lastPlain.result.score;
    } else if (plain) {
      let byGene = plainResults.get(consequences);
      if (byGene === undefined) plainResults.set(consequences, (byGene = new Map<GeneRecord | null, PlainResult[]>()));
      plainSlot = byGene.get(memoGene);
      if (plainSlot === undefined) byGene.set(memoGene, (plainSlot = []));
      for (const r of plainSlot) {
        if (r.afSource === afSource && r.pda === populationDataAvailable) {
          acmgRes = r.acmg;
          score = r.score;
          lastPlain = { consequences, gene: memoGene, result: r };
          break;
        }
      }
    }
    if (acmgRes === null) {
      // One scratch evidence object per annotator (classifyAcmg reads it and keeps nothing): every field is set here.
      const evidence = scratchEvidence;
      evidence.consequences = consequences;
      evidence.gene = geneRec;
      evidence.nmdEscape = effect?.nmdEscape ?? null;
      evidence.cdsFractionAfter = effect?.cdsFractionAfter ?? null;
      evidence.spliceSkip = effect?.spliceSkip ?? null;
      evidence.refAa = refAa;
      evidence.altAa = altAa;
      evidence.af = af;
      evidence.afSource = afSource;
      evidence.populationDataAvailable = populationDataAvailable;
      evidence.sameCodon = sameCodon;
      evidence.nearbyPathogenicMissense = nearby;
      evidence.inRepeat = inRepeat;
      evidence.predictors = predictors;
      evidence.clinvar = exact && clinvar ? { significance: clinvar.significance, stars: exact.stars, reviewStatus: exact.reviewStatus, release: clinvar.release ?? null, id: exact.id } : null;
      acmgRes = structural
        ? { classification: 'Uncertain significance' as const, points: 0, criteria: [], notAssessed: [{ code: 'ACMG', reason: 'structural variants need the ACMG/ClinGen CNV framework (not implemented)' }] }
        : classifyAcmg(evidence, acmgOptions);
      score = pathogenicityScore({
        consequences,
        af,
        acmgPoints: acmgRes.points,
        clinvar: exact ? { significance: exact.significance, stars: exact.stars } : null,
        codingOutcome,
      });
      if (plainSlot !== undefined && plainCount < MAX_PLAIN_RESULTS) {
        plainCount++;
        // Shared from now on (this variant's result too): frozen.
        const r: PlainResult = { acmg: freezeAcmg(acmgRes), score, afSource, pda: populationDataAvailable };
        plainSlot.push(r);
        lastPlain = { consequences, gene: memoGene, result: r };
      }
    }
    return {
      chrom,
      pos: v.pos,
      ref: v.ref,
      alt: v.alt,
      input: v.input ?? { chrom, pos: v.pos, ref: v.ref, alt: v.alt, line: 0 },
      assembly: 'GRCh38',
      genotype: v.genotype ?? EMPTY_GENOTYPE,
      filter: v.filter ?? [],
      qual: v.qual ?? null,
      gene,
      hgncId: geneRec?.hgncId ?? null,
      transcript,
      isManeSelect: isMane,
      consequences,
      // undefined rather than absent: one object shape for every variant (JSON and toEqual leave it out).
      codingOutcome: codingOutcome ?? undefined,
      impact,
      hgvsC,
      hgvsP,
      af,
      afSource,
      clinvar,
      // classifyAcmg's result, fresh per call, or (evidence-free variants) one frozen result shared by many.
      acmg: acmgRes,
      score,
      otherGenes: others.length === 0 ? [] : others
        .filter((e) => e.consequences[0] !== 'upstream_gene_variant' && e.consequences[0] !== 'downstream_gene_variant' && e.model.tx.gene !== gene)
        .map((e) => ({ gene: e.model.tx.gene ?? e.model.tx.id, transcript: e.model.tx.id, consequences: e.consequences, impact: impactOf(e.consequences[0] ?? '') })),
      geneConstraint: geneRec?.constraint ? { pLI: geneRec.constraint.pLI, loeuf: geneRec.constraint.loeuf, misZ: geneRec.constraint.misZ, source: geneRec.constraint.source } : null,
    };
  }

  return {
    annotate,
    sequenceSource: fasta ? 'fasta' : 'kb-known-bases',
    close: () => fasta?.close(),
  };
}

/** Streams annotated variants from any async iterable of variants (e.g. the VCF reader). */
export async function* annotateVariants(variants: AsyncIterable<VcfVariantLike>, annotator: Annotator, signal?: AbortSignal): AsyncGenerator<AnnotatedVariant> {
  for await (const v of variants) {
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('annotation aborted');
    yield annotator.annotate(v);
  }
}

/** ClinVar significance class helper re-exported for consumers of annotations. */
export { classifySignificance };

/**
 * A recorded change at the variant's codon written with the variant's own codon number: the
 * InterVar/ClinVar table may number another isoform (FGFR2 p.E566G is p.E565G on NM_000141),
 * which beside the variant's p.(Glu565Ala) reads as another codon. The record's own numbering is
 * kept in brackets.
 */
export function inCodonNumbering(pChange: string, refAa: string, altAa: string, codon: number): string {
  const m = /^p\.\(?([A-Z*])(\d+)([A-Z*])\)?$/.exec(pChange);
  if (!m || Number(m[2]) === codon) return pChange;
  return `p.${refAa}${codon}${altAa} (${pChange} in the record's numbering)`;
}
