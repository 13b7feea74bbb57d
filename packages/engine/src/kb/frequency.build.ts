/**
 * Optional population-frequency table from gnomAD sites VCF(s) (GRCh38). Per allele we keep the
 * maximum of AF and the group-max fields gnomAD writes (AF_grpmax in v4, AF_popmax in v2).
 * Meant for sites files of exome/panel size; a full genome sites release should be filtered
 * (e.g. `bcftools view -i 'AF>0.00001'`) first, since the table is held in memory.
 */
import { normalizeKbContig } from './contig.ts';
import { encodeFloat32, encodeInt32, parseIntField, readSourceLines, splitTsv } from './io.ts';
import type { FrequencyFile } from './genome-kb.ts';
import type { ResolvedSource } from './sources.ts';
import { KbSourceError } from './types.ts';

const AF_KEYS = ['AF', 'AF_grpmax', 'AF_popmax', 'AF_joint', 'AF_joint_grpmax'];

export async function readGnomadSites(sources: ResolvedSource[], signal?: AbortSignal, onProgress?: (n: number) => void): Promise<{ file: FrequencyFile; records: number[]; skipped: number[] }> {
  const rows = new Map<string, { pos: number; ref: string; alt: string; af: number }[]>();
  const covered = new Set<string>();
  const records: number[] = [];
  const skippedAll: number[] = [];
  let total = 0;
  for (const src of sources) {
    let n0 = 0;
    let skipped = 0;
    for await (const [line, n] of readSourceLines(src.path, src.rel, signal)) {
      if (line.startsWith('##')) {
        if (/^##reference=.*(GRCh37|hg19|b37)/i.test(line)) throw new KbSourceError(src.rel, 'gnomAD sites file is GRCh37; provide the GRCh38 release', n);
        continue;
      }
      if (line.startsWith('#') || line === '') continue;
      const c = splitTsv(line, 8, src.rel, n);
      n0++;
      total++;
      if (onProgress && total % 500_000 === 0) onProgress(total);
      const chrom = normalizeKbContig(c[0]!);
      if (!chrom) {
        skipped++;
        continue;
      }
      covered.add(chrom);
      const pos = parseIntField(c[1], 'POS', src.rel, n);
      const alts = c[4]!.split(',');
      const values = new Map<string, string[]>();
      for (const kv of c[7]!.split(';')) {
        const i = kv.indexOf('=');
        if (i > 0 && AF_KEYS.includes(kv.slice(0, i))) values.set(kv.slice(0, i), kv.slice(i + 1).split(','));
      }
      if (!values.size) {
        skipped++;
        continue;
      }
      alts.forEach((alt, k) => {
        let af = -1;
        for (const v of values.values()) {
          const x = Number(v[k] ?? v[0]);
          if (Number.isFinite(x)) af = Math.max(af, x);
        }
        if (af < 0) return;
        const list = rows.get(chrom);
        const row = { pos, ref: c[3]!.toUpperCase(), alt: alt.toUpperCase(), af };
        if (list) list.push(row);
        else rows.set(chrom, [row]);
      });
    }
    records.push(n0);
    skippedAll.push(skipped);
  }
  const chroms: FrequencyFile['chroms'] = {};
  for (const [chrom, list] of rows) {
    list.sort((a, b) => a.pos - b.pos);
    chroms[chrom] = { pos: encodeInt32(list.map((r) => r.pos)), ref: list.map((r) => r.ref), alt: list.map((r) => r.alt), af: encodeFloat32(list.map((r) => r.af)) };
  }
  return { file: { source: sources.map((s) => s.rel).join(', '), covered: [...covered], chroms }, records, skipped: skippedAll };
}
