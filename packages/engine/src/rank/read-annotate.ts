/**
 * Reads a VCF (lifting GRCh37 to GRCh38 with the KB chain) and annotates every allele: the input
 * of `prepareVariants`. The annotator and chain are created once and reused across cases.
 */
import { createAnnotator, type Annotator } from '../annotate/annotator.ts';
import type { AcmgOptions } from '../acmg/classify.ts';
import type { GenomeKb } from '../kb/genome-kb.ts';
import { KbSourceError } from '../kb/types.ts';
import { loadChain } from '../liftover/chain.ts';
import type { LiftoverChain } from '../liftover/chain.ts';
import type { AnnotatedVariant, Assembly } from '../types.ts';
import { declaredAfKeys } from '../vcf/variant.ts';
import { readVcf, type VcfSummary } from '../vcf/reader.ts';
import { familyGenotypesOf } from '../family/genotypes.ts';
import { FamilyCheckError } from '../family/family-analysis.ts';
import type { Pedigree } from '../family/ped.ts';
import { checkFamily, type Family } from '../family/pedigree.ts';

export interface VcfAnnotationSession {
  genome: GenomeKb;
  chain: LiftoverChain | undefined;
  annotator: Annotator;
  /** ACMG options every annotator of the session applies (ClinVar-backed PP5/BP6). */
  acmg: AcmgOptions;
  close(): void;
}

/** Opens what annotation needs (chain, annotator) once for many VCFs. */
export async function openAnnotationSession(genome: GenomeKb, opts: { fasta?: string; acmg?: AcmgOptions } = {}): Promise<VcfAnnotationSession> {
  const chain = genome.chainPath ? await loadChain(genome.chainPath) : undefined;
  const acmg: AcmgOptions = { clinvarCriteria: opts.acmg?.clinvarCriteria ?? false };
  const annotator = createAnnotator(genome, { fasta: opts.fasta, acmg });
  return { genome, chain, annotator, acmg, close: () => annotator.close() };
}

export interface ReadAnnotateResult {
  variants: AnnotatedVariant[];
  assembly: Assembly;
  sample: string | null;
  summary: VcfSummary;
  /** The checked family when a pedigree was given (every variant then carries `familyGenotypes`). */
  family: Family | null;
}

/** Reads and annotates one VCF. The assembly comes from the header or `assembly`; never assumed. */
export async function readAndAnnotateVcf(
  session: VcfAnnotationSession,
  path: string,
  opts: { assembly?: Assembly; sample?: string; signal?: AbortSignal; pedigree?: Pedigree } = {},
): Promise<ReadAnnotateResult> {
  let family: Family | null = null;
  let sample = opts.sample;
  if (opts.pedigree) {
    // The header names the samples: check the pedigree against them before reading any record.
    const probe = await readVcf(path, { assembly: opts.assembly, signal: opts.signal });
    const checked = checkFamily(opts.pedigree, probe.header.samples, { proband: opts.sample });
    probe.close();
    if (!checked.family) throw new FamilyCheckError(path, checked.problems);
    family = checked.family;
    sample = family.proband;
  }
  const reader = await readVcf(path, { assembly: opts.assembly, sample, liftover: session.chain, signal: opts.signal });
  if (reader.assembly === 'GRCh37' && !session.chain) throw new KbSourceError(path, 'the input is GRCh37 but the KB has no hg19ToHg38 chain; rebuild it with the liftover/ chain in the sources');
  const hasPopulationData = declaredAfKeys(reader.header).length > 0;
  // One annotator serves every case; only the input's own population-data flag differs.
  const annotator = hasPopulationData ? createAnnotator(session.genome, { populationDataInInput: true, acmg: session.acmg }) : session.annotator;
  const variants: AnnotatedVariant[] = [];
  const members = family?.members.filter((m) => m.vcfIndex >= 0) ?? [];
  for await (const v of reader) {
    const a = annotator.annotate(v);
    if (members.length) a.familyGenotypes = familyGenotypesOf(v, members);
    variants.push(a);
  }
  if (annotator !== session.annotator) annotator.close();
  return { variants, assembly: reader.assembly, sample: reader.sample, summary: reader.summary, family };
}
