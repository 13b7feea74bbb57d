/**
 * Reads a VCF (lifting GRCh37 to GRCh38 with the KB chain) and annotates every allele: the input
 * of `prepareVariants`. The annotator and chain are created once and reused across cases.
 */
import { createAnnotator, type Annotator } from '../annotate/annotator.ts';
import type { GenomeKb } from '../kb/genome-kb.ts';
import { KbSourceError } from '../kb/types.ts';
import { loadChain } from '../liftover/chain.ts';
import type { LiftoverChain } from '../liftover/chain.ts';
import type { AnnotatedVariant, Assembly } from '../types.ts';
import { declaredAfKeys } from '../vcf/variant.ts';
import { readVcf, type VcfSummary } from '../vcf/reader.ts';

export interface VcfAnnotationSession {
  genome: GenomeKb;
  chain: LiftoverChain | undefined;
  annotator: Annotator;
  close(): void;
}

/** Opens what annotation needs (chain, annotator) once for many VCFs. */
export async function openAnnotationSession(genome: GenomeKb, opts: { fasta?: string } = {}): Promise<VcfAnnotationSession> {
  const chain = genome.chainPath ? await loadChain(genome.chainPath) : undefined;
  const annotator = createAnnotator(genome, { fasta: opts.fasta });
  return { genome, chain, annotator, close: () => annotator.close() };
}

export interface ReadAnnotateResult {
  variants: AnnotatedVariant[];
  assembly: Assembly;
  sample: string | null;
  summary: VcfSummary;
}

/** Reads and annotates one VCF. The assembly comes from the header or `assembly`; never assumed. */
export async function readAndAnnotateVcf(
  session: VcfAnnotationSession,
  path: string,
  opts: { assembly?: Assembly; sample?: string; signal?: AbortSignal } = {},
): Promise<ReadAnnotateResult> {
  const reader = await readVcf(path, { assembly: opts.assembly, sample: opts.sample, liftover: session.chain, signal: opts.signal });
  if (reader.assembly === 'GRCh37' && !session.chain) throw new KbSourceError(path, 'the input is GRCh37 but the KB has no hg19ToHg38 chain; rebuild it with the liftover/ chain in the sources');
  const hasPopulationData = declaredAfKeys(reader.header).length > 0;
  // One annotator serves every case; only the input's own population-data flag differs.
  const annotator = hasPopulationData ? createAnnotator(session.genome, { populationDataInInput: true }) : session.annotator;
  const variants: AnnotatedVariant[] = [];
  for await (const v of reader) variants.push(annotator.annotate(v));
  if (annotator !== session.annotator) annotator.close();
  return { variants, assembly: reader.assembly, sample: reader.sample, summary: reader.summary };
}
