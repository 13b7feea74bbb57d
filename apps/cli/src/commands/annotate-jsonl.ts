/**
 * What `rarelens annotate` shares between its in-process path and its worker threads: opening
 * the KB, the reader and the annotator for an input (both encode with the engine's
 * AnnotationJsonlWriter).
 */
import {
  createAnnotator,
  declaredAfKeys,
  KbSourceError,
  loadChain,
  loadGenomeKb,
  readVcf,
  type Annotator,
  type Assembly,
  type VcfHeader,
  type VcfReader,
} from '@rarelens/engine';

export interface AnnotateInput {
  vcf: string;
  assembly?: Assembly;
  sample?: string;
  kb: string;
  fasta?: string;
}

/** The header declares population frequencies (INFO keys or CSQ/ANN frequency fields). */
export function hasPopulationData(h: VcfHeader): boolean {
  return declaredAfKeys(h).length > 0 || h.annotations.some((l) => l.fields.some((f) => /^(gnomAD|gnomADe|gnomADg|MAX_AF|ExAC)(_|$)/.test(f) || f === 'AF'));
}

/** The KB, the reader (header read) and the annotator for one input, as the command uses them. */
export async function openAnnotation(input: AnnotateInput): Promise<{ reader: VcfReader; annotator: Annotator }> {
  const kb = await loadGenomeKb(input.kb);
  // The liftover chain only for GRCh37 input (the header says which before any record is read).
  let reader = await readVcf(input.vcf, { sample: input.sample, assembly: input.assembly });
  if (reader.assembly === 'GRCh37') {
    reader.close();
    if (!kb.chainPath) throw new KbSourceError(input.kb, 'the input is GRCh37 but the KB has no hg19ToHg38 chain; rebuild it with the liftover/ chain in the sources');
    reader = await readVcf(input.vcf, { sample: input.sample, assembly: input.assembly, liftover: await loadChain(kb.chainPath) });
  }
  const annotator = createAnnotator(kb, { fasta: input.fasta, populationDataInInput: hasPopulationData(reader.header), infoKeys: new Set(reader.header.info.keys()) });
  return { reader, annotator };
}
