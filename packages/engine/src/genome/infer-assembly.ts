/**
 * Genome assembly from the records themselves, for VCFs whose header says nothing (no contig
 * lengths, no ##reference): a hand-made or exported file is common in clinics.
 *
 * Each record is tried under both hypotheses against what the KB knows of GRCh38:
 *  - GRCh38: its REF is compared with the GRCh38 reference base at POS, and its allele is
 *    looked up in ClinVar (GRCh38 coordinates);
 *  - GRCh37: the record is lifted to GRCh38 with the UCSC chain and compared the same way.
 * A POS past the end of its chromosome rules a hypothesis out. The right assembly agrees with
 * the reference at (nearly) every known base and meets ClinVar alleles; the wrong one agrees
 * about as often as chance (≈ 0.3 for the base composition of the genome) and meets almost no
 * ClinVar allele, so a handful of known positions or ClinVar alleles decide.
 * Without enough known positions the answer is null: the caller asks the user, never guesses.
 */
import type { Assembly } from '../types.ts';
import type { LiftoverChain } from '../liftover/chain.ts';
import { CONTIG_LENGTHS, normalizeContig } from './contigs.ts';

export interface AssemblyProbeRecord {
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
}

/** What of the KB the inference reads (GenomeKb satisfies it). */
export interface AssemblyProbeKb {
  refBases: { base(chrom: string, pos0: number): string | null };
  clinvar: { exact(chrom: string, pos: number, ref: string, alt: string): unknown };
}

export interface HypothesisTally {
  /** Records with a known GRCh38 reference base at (lifted) POS. */
  known: number;
  /** Of those, records whose REF agrees with it. */
  agree: number;
  /** Records whose allele is a ClinVar allele. */
  clinvar: number;
  /** Records past the end of their chromosome in this assembly. */
  outOfRange: number;
}

export interface RecordAssemblyInference {
  assembly: Assembly | null;
  records: number;
  tally: Record<Assembly, HypothesisTally>;
  /** One sentence for the case's evidence, or why it could not decide. */
  reason: string;
}

/** Known positions needed before deciding, and the agreement the right assembly must reach. */
export const MIN_KNOWN_POSITIONS = 5;
export const MIN_AGREEMENT = 0.9;
/** The other assembly must agree no more than this (chance is about 0.3). */
export const MAX_OTHER_AGREEMENT = 0.6;
/** ClinVar alleles needed under one assembly, and how many times more than under the other. */
export const MIN_CLINVAR_ALLELES = 3;
export const CLINVAR_MARGIN = 10;

function tallyOne(kb: AssemblyProbeKb, t: HypothesisTally, chrom: string, pos: number, ref: string, alt: string): void {
  const base = kb.refBases.base(chrom, pos - 1);
  if (base !== null) {
    t.known++;
    if (base.toUpperCase() === ref[0]!.toUpperCase()) t.agree++;
  }
  if (kb.clinvar.exact(chrom, pos, ref, alt) !== null) t.clinvar++;
}

const rate = (t: HypothesisTally): number => (t.known === 0 ? 0 : t.agree / t.known);

export function inferAssemblyFromRecords(
  records: Iterable<AssemblyProbeRecord>,
  kb: AssemblyProbeKb,
  chain: LiftoverChain | null,
): RecordAssemblyInference {
  const tally: Record<Assembly, HypothesisTally> = {
    GRCh37: { known: 0, agree: 0, clinvar: 0, outOfRange: 0 },
    GRCh38: { known: 0, agree: 0, clinvar: 0, outOfRange: 0 },
  };
  let n = 0;
  for (const r of records) {
    if (!/^[ACGTNacgtn]+$/.test(r.ref) || !/^[ACGTNacgtn]+$/.test(r.alt)) continue;
    n++;
    const chrom = normalizeContig(r.chrom);
    for (const asm of ['GRCh37', 'GRCh38'] as const) {
      const len = CONTIG_LENGTHS[asm][chrom];
      if (len !== undefined && chrom !== 'MT' && r.pos > len) tally[asm].outOfRange++;
    }
    tallyOne(kb, tally.GRCh38, chrom, r.pos, r.ref, r.alt);
    if (chain !== null) {
      const lifted = chain.liftVariant({ chrom, pos: r.pos, ref: r.ref, alt: r.alt });
      if (!('failed' in lifted)) tallyOne(kb, tally.GRCh37, lifted.chrom, lifted.pos, lifted.ref, lifted.alt);
    }
  }
  const describe = (a: Assembly): string => {
    const t = tally[a];
    return `${a}: REF agrees with the reference at ${t.agree} of ${t.known} known positions, ${t.clinvar} ClinVar alleles${t.outOfRange > 0 ? `, ${t.outOfRange} positions past the chromosome end` : ''}`;
  };
  const result = (assembly: Assembly | null, why: string): RecordAssemblyInference => ({ assembly, records: n, tally, reason: `${why} (${describe('GRCh37')}; ${describe('GRCh38')})` });

  const possible = (['GRCh37', 'GRCh38'] as const).filter((a) => tally[a].outOfRange === 0);
  if (possible.length === 1 && tally[possible[0]!].known === 0) {
    return result(possible[0]!, `records run past the chromosome ends of ${possible[0] === 'GRCh37' ? 'GRCh38' : 'GRCh37'}`);
  }
  if (chain === null) return result(null, 'no liftover chain in the knowledge base to test GRCh37');
  for (const a of possible) {
    const other: Assembly = a === 'GRCh37' ? 'GRCh38' : 'GRCh37';
    const t = tally[a];
    const o = tally[other];
    const otherRuledOut = o.outOfRange > 0;
    const byReference = t.known >= MIN_KNOWN_POSITIONS && rate(t) >= MIN_AGREEMENT && (otherRuledOut || o.known === 0 || rate(o) <= MAX_OTHER_AGREEMENT);
    // A ClinVar allele (same position, REF and ALT) met by chance under the wrong assembly is
    // rare; real exomes carry dozens of ClinVar alleles per few thousand records.
    const byClinvar =
      t.clinvar >= MIN_CLINVAR_ALLELES && (otherRuledOut || o.clinvar * CLINVAR_MARGIN <= t.clinvar) && (t.known < MIN_KNOWN_POSITIONS || rate(t) >= MIN_AGREEMENT);
    if (byReference || byClinvar) return result(a, `inferred ${a} from the records`);
  }
  return result(
    null,
    `too few of the records match ClinVar alleles or known reference bases under one assembly (needed: ${MIN_CLINVAR_ALLELES} ClinVar alleles, ${CLINVAR_MARGIN}× more than under the other assembly, or ${MIN_KNOWN_POSITIONS} known reference bases agreeing ≥ ${MIN_AGREEMENT * 100} %)`,
  );
}
