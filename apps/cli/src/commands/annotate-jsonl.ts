/**
 * What `rarelens annotate` shares between its in-process path and its worker threads: opening
 * the KB, the reader and the annotator for an input, and the JSONL encoder.
 */
import {
  createAnnotator,
  declaredAfKeys,
  KbSourceError,
  loadChain,
  loadGenomeKb,
  readVcf,
  toAnnotationJson,
  type AnnotatedVariant,
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

/**
 * JSONL lines encoded straight into one growing buffer: one UTF-8 encode per line and no
 * concatenated string (a 1 MiB rope of short strings costs a flatten and a copy on write).
 */
export class JsonlEncoder {
  private buf: Buffer;
  private len = 0;

  constructor(private readonly initial = 8 << 20) {
    this.buf = Buffer.allocUnsafeSlow(initial);
  }

  get length(): number {
    return this.len;
  }

  add(a: AnnotatedVariant): void {
    const s = JSON.stringify(toAnnotationJson(a));
    // UTF-8 takes at most 3 bytes per UTF-16 unit; +1 for the newline.
    const need = this.len + s.length * 3 + 1;
    if (need > this.buf.length) {
      const next = Buffer.allocUnsafeSlow(Math.max(need, this.buf.length * 2));
      this.buf.copy(next, 0, 0, this.len);
      this.buf = next;
    }
    this.len += this.buf.write(s, this.len);
    this.buf[this.len++] = 10;
  }

  /** The lines so far (a view of a buffer no longer written to); the encoder starts afresh. */
  take(): Buffer {
    const out = this.buf.subarray(0, this.len);
    this.buf = Buffer.allocUnsafeSlow(this.initial);
    this.len = 0;
    return out;
  }
}
