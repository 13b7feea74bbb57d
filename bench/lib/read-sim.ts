/**
 * A small read simulator for bench:fastq: known SNVs and small indels planted in a reference
 * (haploid or diploid per contig), paired-end Illumina-like reads drawn from the haplotypes at a
 * given depth, with a sequencing-error model: the substitution probability rises along the read
 * (cycle-dependent, as on Illumina instruments), rare 1 bp insertion/deletion errors, and base
 * qualities that state each base's error probability (Phred), so a caller weighs them honestly.
 * Deterministic for a seed.
 */
import { rng } from './rng.ts';

export interface Contig {
  name: string;
  seq: string;
}

export interface TruthVariant {
  chrom: string;
  /** 1-based, VCF style (indels anchored on the base before). */
  pos: number;
  ref: string;
  alt: string;
  /** '1' (haploid), '0/1' or '1/1'. */
  gt: '1' | '0/1' | '1/1';
}

export interface SimOptions {
  seed: number;
  /** Mean depth over each contig. */
  depth: number;
  readLength: number;
  fragmentMean: number;
  fragmentSd: number;
  /** Mean spacing between planted variants (bp). */
  variantSpacing: number;
  /** Share of planted variants that are indels (1-6 bp). */
  indelShare: number;
  /** Contigs with one copy (e.g. chrM). */
  haploid: (contig: string) => boolean;
  /** Substitution error probability at the first and last cycle (linear in between). */
  errorStart: number;
  errorEnd: number;
  /** Per-base probability of a 1 bp insertion or deletion error. */
  indelError: number;
}

export const DefaultSim: Omit<SimOptions, 'seed' | 'depth' | 'haploid'> = {
  readLength: 101,
  fragmentMean: 350,
  fragmentSd: 40,
  variantSpacing: 120,
  indelShare: 0.15,
  errorStart: 0.001,
  errorEnd: 0.012,
  indelError: 0.00002,
};

const BASES = 'ACGT';
const COMPLEMENT: Record<string, string> = { A: 'T', C: 'G', G: 'C', T: 'A', N: 'N' };
const revcomp = (s: string) => [...s].reverse().map((c) => COMPLEMENT[c] ?? 'N').join('');

function gaussian(r: () => number): number {
  const u = Math.max(1e-12, r());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}

/** Plants variants in each contig, away from its ends (reads must reach both sides). */
export function plantVariants(contigs: Contig[], o: Pick<SimOptions, 'seed' | 'variantSpacing' | 'indelShare' | 'haploid' | 'fragmentMean'>): TruthVariant[] {
  const r = rng(o.seed * 7919 + 1);
  const out: TruthVariant[] = [];
  for (const c of contigs) {
    const margin = o.fragmentMean;
    let pos = margin + Math.floor(r() * o.variantSpacing);
    while (pos < c.seq.length - margin) {
      const refBase = c.seq[pos - 1]!.toUpperCase();
      const haploid = o.haploid(c.name);
      const gt: TruthVariant['gt'] = haploid ? '1' : r() < 0.6 ? '0/1' : '1/1';
      if (!'ACGT'.includes(refBase)) {
        pos += o.variantSpacing;
        continue;
      }
      if (r() < o.indelShare) {
        const len = 1 + Math.floor(r() * 6);
        if (r() < 0.5) {
          // Deletion of `len` bases after the anchor.
          const ref = c.seq.slice(pos - 1, pos + len).toUpperCase();
          if (/^[ACGT]+$/.test(ref)) out.push({ chrom: c.name, pos, ref, alt: refBase, gt });
        } else {
          let ins = '';
          for (let i = 0; i < len; i++) ins += BASES[Math.floor(r() * 4)]!;
          out.push({ chrom: c.name, pos, ref: refBase, alt: refBase + ins, gt });
        }
      } else {
        const choices = [...BASES].filter((b) => b !== refBase);
        out.push({ chrom: c.name, pos, ref: refBase, alt: choices[Math.floor(r() * 3)]!, gt });
      }
      // Spacing: at least 30 bp so planted variants never overlap; on average variantSpacing.
      pos += 30 + Math.floor(r() * 2 * (o.variantSpacing - 30));
    }
  }
  return out;
}

/** The haplotype sequences of a contig (1 or 2) with its variants applied. */
export function haplotypes(contig: Contig, variants: TruthVariant[], haploid: boolean): string[] {
  const copies = haploid ? 1 : 2;
  const own = variants.filter((v) => v.chrom === contig.name).sort((a, b) => a.pos - b.pos);
  const out: string[] = [];
  for (let h = 0; h < copies; h++) {
    let seq = '';
    let at = 0; // 0-based next reference base to copy
    for (const v of own) {
      const carried = v.gt === '1' || v.gt === '1/1' || (v.gt === '0/1' && h === 0);
      if (!carried) continue;
      seq += contig.seq.slice(at, v.pos - 1) + v.alt;
      at = v.pos - 1 + v.ref.length;
    }
    out.push((seq + contig.seq.slice(at)).toUpperCase());
  }
  return out;
}

/** One read from a template (already oriented), with errors and qualities. */
function sequenceRead(template: string, o: SimOptions, r: () => number): { seq: string; qual: string } {
  let seq = '';
  let qual = '';
  let t = 0;
  const n = o.readLength;
  for (let cycle = 0; cycle < n; cycle++) {
    const p = o.errorStart + ((o.errorEnd - o.errorStart) * cycle) / (n - 1);
    // The instrument's own estimate: the cycle's error rate with some spread, Phred-scaled.
    const q = Math.max(2, Math.min(41, Math.round(-10 * Math.log10(p) + gaussian(r) * 2)));
    if (r() < o.indelError) {
      if (r() < 0.5) t++; // a skipped template base (deletion error)
      else {
        seq += BASES[Math.floor(r() * 4)]!;
        qual += String.fromCharCode(33 + q);
        continue; // an extra base (insertion error)
      }
    }
    const base = template[t++] ?? 'N';
    if (r() < p) {
      const others = [...BASES].filter((b) => b !== base);
      seq += others[Math.floor(r() * 3)]!;
    } else seq += base;
    qual += String.fromCharCode(33 + q);
  }
  return { seq, qual };
}

export interface ReadPair {
  name: string;
  r1: { seq: string; qual: string };
  r2: { seq: string; qual: string };
}

/**
 * Paired reads over every contig at `o.depth` (pairs = depth × length / 2 read lengths), each
 * drawn from a random haplotype and strand. A generator: nothing is held in memory.
 */
export function* simulatePairs(contigs: Contig[], variants: TruthVariant[], o: SimOptions): Generator<ReadPair> {
  const r = rng(o.seed);
  let id = 0;
  for (const c of contigs) {
    const haps = haplotypes(c, variants, o.haploid(c.name));
    const pairs = Math.round((o.depth * c.seq.length) / (2 * o.readLength));
    for (let i = 0; i < pairs; i++) {
      const hap = haps[Math.floor(r() * haps.length)]!;
      const frag = Math.max(o.readLength + 20, Math.round(o.fragmentMean + gaussian(r) * o.fragmentSd));
      if (hap.length <= frag) continue;
      const start = Math.floor(r() * (hap.length - frag + 1));
      // Extra template bases so deletion errors never run out of sequence.
      const forward = hap.slice(start, start + frag);
      const reverse = revcomp(forward);
      const [a, b] = r() < 0.5 ? [forward, reverse] : [reverse, forward];
      id++;
      yield { name: `sim${o.seed}_${c.name}_${id}`, r1: sequenceRead(a, o, r), r2: sequenceRead(b, o, r) };
    }
  }
}

/** The truth as a VCF (sorted), for bcftools norm and the comparison. */
export function truthVcf(contigs: Contig[], variants: TruthVariant[], sample: string): string {
  const lines = ['##fileformat=VCFv4.2', ...contigs.map((c) => `##contig=<ID=${c.name},length=${c.seq.length}>`), '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">', `#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\t${sample}`];
  const order = new Map(contigs.map((c, i) => [c.name, i]));
  for (const v of [...variants].sort((a, b) => order.get(a.chrom)! - order.get(b.chrom)! || a.pos - b.pos)) {
    lines.push([v.chrom, v.pos, '.', v.ref, v.alt, '.', 'PASS', '.', 'GT', v.gt].join('\t'));
  }
  return `${lines.join('\n')}\n`;
}

/** Reads a (small) FASTA into contigs. */
export function parseFasta(text: string): Contig[] {
  const out: Contig[] = [];
  let cur: { name: string; parts: string[] } | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('>')) {
      if (cur) out.push({ name: cur.name, seq: cur.parts.join('') });
      cur = { name: line.slice(1).trim().split(/\s+/)[0]!, parts: [] };
    } else if (cur) cur.parts.push(line.trim());
  }
  if (cur) out.push({ name: cur.name, seq: cur.parts.join('') });
  return out;
}
