/**
 * The first data records of a VCF, read cheaply and without any assembly (for checks made before
 * a case is queued: is there a usable record, which assembly do the records use).
 */
import { openTextSource, type VcfInput } from './source.ts';

export interface ProbedRecord {
  line: number;
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
}

export interface VcfProbe {
  /** Up to `max` records with a numeric POS, in file order (multi-allelic records split). */
  records: ProbedRecord[];
  /** Data lines seen (including ones not returned). */
  dataLines: number;
  /** True when the whole file was read. */
  complete: boolean;
}

export async function probeVcfRecords(input: VcfInput, opts: { max?: number; name?: string } = {}): Promise<VcfProbe> {
  const max = opts.max ?? 5000;
  const source = await openTextSource(input, opts.name);
  const records: ProbedRecord[] = [];
  let pending = '';
  let line = 0;
  let dataLines = 0;
  let complete = true;
  const take = (text: string): boolean => {
    line++;
    if (text.length === 0 || text.charCodeAt(0) === 35 /* # */) return true;
    dataLines++;
    const cols = text.split('\t', 5);
    const pos = Number(cols[1]);
    if (cols.length < 5 || !Number.isInteger(pos) || pos < 1) return true;
    for (const alt of cols[4]!.split(',')) records.push({ line, chrom: cols[0]!, pos, ref: cols[3]!, alt });
    return records.length < max;
  };
  try {
    outer: for await (const chunk of source.chunks) {
      pending += chunk;
      let start = 0;
      let nl: number;
      while ((nl = pending.indexOf('\n', start)) !== -1) {
        const text = pending.slice(start, nl).replace(/\r$/, '');
        start = nl + 1;
        if (!take(text)) {
          complete = false;
          break outer;
        }
      }
      pending = pending.slice(start);
    }
    if (complete && pending.length > 0) take(pending.replace(/\r$/, ''));
  } finally {
    source.destroy();
  }
  return { records, dataLines, complete };
}
