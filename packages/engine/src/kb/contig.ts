/** Contig-name normalisation for KB sources: 'chr1'/'1'/'NC_000001.11' -> '1', 'chrM'/'NC_012920.1' -> 'MT'. */

const REFSEQ_CHROM: Record<string, string> = { '23': 'X', '24': 'Y' };

/** Normalised contig, or null for contigs we do not index (alt/fix/random/unplaced). */
export function normalizeKbContig(name: string): string | null {
  let c = name;
  const nc = /^NC_0000(\d\d)\.\d+$/.exec(c);
  if (nc?.[1]) {
    const n = String(Number(nc[1]));
    return REFSEQ_CHROM[n] ?? n;
  }
  if (/^NC_012920\.\d+$/.test(c) || /^NC_001807\.\d+$/.test(c)) return 'MT';
  if (c.startsWith('chr')) c = c.slice(3);
  if (c === 'M') return 'MT';
  if (/^(\d{1,2}|X|Y|MT)$/.test(c)) return c;
  return null;
}

/** Sort key of a normalised contig (1..22, X, Y, MT, then others). */
export function contigOrder(c: string): number {
  if (/^\d+$/.test(c)) return Number(c);
  return c === 'X' ? 23 : c === 'Y' ? 24 : c === 'MT' ? 25 : 100;
}
