/** The sample names of a VCF's #CHROM line, read without settling the assembly (checks before queueing). */
import { VcfParseError } from '../vcf/errors.ts';
import { openTextSource, type VcfInput } from '../vcf/source.ts';

/** Sample columns of the #CHROM line; throws VcfParseError when the file has none before data. */
export async function readVcfSampleNames(input: VcfInput, name?: string): Promise<string[]> {
  const source = await openTextSource(input, name);
  let pending = '';
  let line = 0;
  try {
    for await (const chunk of source.chunks) {
      pending += chunk;
      let nl = pending.indexOf('\n');
      while (nl >= 0) {
        const text = pending.slice(0, nl).replace(/\r$/, '');
        pending = pending.slice(nl + 1);
        line++;
        if (text.startsWith('#CHROM')) return text.split('\t').slice(9);
        if (!text.startsWith('#')) throw new VcfParseError(source.name, line, 'missing #CHROM header line before the data');
        nl = pending.indexOf('\n');
      }
    }
    if (pending.startsWith('#CHROM')) return pending.replace(/\r$/, '').split('\t').slice(9);
    throw new VcfParseError(source.name, line, 'missing #CHROM header line (file ends in the header)');
  } finally {
    source.destroy();
  }
}
